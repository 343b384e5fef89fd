"""The wheel holds every module of the generator: pyproject.toml lists its packages one by one.

A package left out of that list works in the editable install every test runs in, and fails
with an ImportError in a wheel, a `pip install` of a checkout or the GitHub Action.
"""

from __future__ import annotations

import tomllib

from conftest import ROOT


def test_every_package_of_the_generator_is_in_the_wheel() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert setuptools["package-dir"]["mcp_contracts_generator"] == "generator"
    folders = sorted(init.parent.relative_to(ROOT) for init in (ROOT / "generator").rglob("__init__.py"))
    packages = {".".join(("mcp_contracts_generator", *folder.parts[1:])) for folder in folders}
    assert packages <= set(setuptools["packages"]), packages - set(setuptools["packages"])
