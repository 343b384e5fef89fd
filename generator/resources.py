"""Where the generator's own files live: built-in templates and meta-schemas.

An installed wheel carries them under `mcp_contracts_generator/_data/`; in a checkout
(and an editable install) they are the repository's `templates/` and `schemas/meta/`.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parent


def _first_existing(*candidates: Path) -> Path:
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return candidates[-1]


TEMPLATES_DIR = _first_existing(_PACKAGE / "_data" / "templates", _CHECKOUT / "templates")
META_SCHEMAS_DIR = _first_existing(_PACKAGE / "_data" / "meta", _CHECKOUT / "schemas" / "meta")
# The runtime every generated package carries a copy of, as `_runtime/`.
RUNTIME_PACKAGE = _PACKAGE / "runtime"
# The runtime every generated TypeScript package carries a copy of, in `src/_runtime/`.
TYPESCRIPT_RUNTIME = _PACKAGE / "typescript"
# The modules outside the standard library that generated Python imports, and those they
# import in turn: `_runtime/`'s (pydantic, pydantic_core, jsonschema_rs, msgspec), the
# models' (pydantic) and pydantic's own requirements. A package of these names would shadow
# them (config.package_problem); tests/test_config.py holds the list to the code.
# What generated Python needs installed, with the ranges it is tested against: the tool's
# own requirements of these distributions (tests/test_config.py holds them to pyproject.toml).
# The generated pyproject.toml lists them.
GENERATED_CODE_REQUIREMENTS = ("jsonschema-rs>=0.60.3,<0.61", "msgspec>=0.22.0,<0.23", "pydantic>=2.14.3,<3")
# What `tools.server` and `tools.Client` need beside (the extra `mcp` of the distribution):
# the official MCP SDK, which brings anyio, and starlette and uvicorn for streamable HTTP.
GENERATED_SERVING_REQUIREMENTS = ("mcp>=2.3.0,<3",)
GENERATED_CODE_IMPORTS = (
    "annotated_types",
    "jsonschema_rs",
    "msgspec",
    "pydantic",
    "pydantic_core",
    "typing_extensions",
    "typing_inspection",
)
# The modules the runtime's server and client import, only when they serve or call.
GENERATED_SERVING_IMPORTS = ("anyio", "mcp", "starlette", "uvicorn")
