"""The npm package's build state in the output folder: what `npm install`, `npx tsc` and `npm
pack` leave beside a generated package.json (node_modules/, dist/, package-lock.json, the
tarball), as the package's README says to build it where it is. `check` passes over it there
and nowhere else, and `generate` carries it into the new tree as it is, through faults too.
(tests/test_install_end_to_end_typescript.py builds a package there with the real npm.)"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import GENERATED, run_cli
from faulty_fs import Faulty
from mcp_contracts_generator.drift import scan
from mcp_contracts_generator.write import FileSystem, replace_tree

PACKAGE = "typescript/mcp_contracts"
STATE = {
    "node_modules/zod/package.json": b'{"name": "zod"}\n',
    "dist/foundry/index.js": b"export {};\n",
    "package-lock.json": b"{}\n",
    "mcp-contracts-builtins-0.1.0.tgz": b"\x1f\x8b",
}


def _build(package: Path) -> None:
    for relative, content in STATE.items():
        (package / relative).parent.mkdir(parents=True, exist_ok=True)
        (package / relative).write_bytes(content)
    (package / "node_modules" / ".bin").mkdir()
    (package / "node_modules" / ".bin" / "tsc").symlink_to("../typescript/bin/tsc")  # npm's links dangle here


def _state(package: Path) -> dict[str, Any]:
    return {
        **{relative: (package / relative).read_bytes() for relative in STATE},
        "link": os.readlink(package / "node_modules" / ".bin" / "tsc"),
    }


def test_check_passes_over_the_build_state_beside_a_package_json_only(out_copy: Path) -> None:
    _build(out_copy / PACKAGE)
    assert run_cli("check", "--out", str(out_copy)).returncode == 0
    assert run_cli("check", "--full", "--out", str(out_copy)).returncode == 0
    for elsewhere in ("docs/dist/x.md", f"{PACKAGE}/src/dist/x.js", "python/node_modules/x.js", "package-lock.json"):
        (out_copy / elsewhere).parent.mkdir(parents=True, exist_ok=True)
        (out_copy / elsewhere).write_text("x\n", encoding="utf-8")
    result = run_cli("check", "--out", str(out_copy))
    assert result.returncode == 1
    extra = sorted(line.split()[-1] for line in result.stdout.splitlines() if line.startswith("extra"))
    assert extra == ["docs/dist/x.md", "package-lock.json", "python/node_modules/x.js", f"{PACKAGE}/src/dist/x.js"]


def test_generate_carries_the_build_state_into_the_new_tree(out_copy: Path) -> None:
    package = out_copy / PACKAGE
    _build(package)
    before, modules = _state(package), (package / "node_modules").stat().st_ino
    (package / "README.md").write_text("edited\n", encoding="utf-8")
    (package / "notes.txt").write_text("stray\n", encoding="utf-8")
    result = run_cli("generate", "--out", str(out_copy))
    assert result.returncode == 0, result.stderr
    assert f"updated  {out_copy.as_posix()}/{PACKAGE}/README.md" in result.stdout
    assert f"removed  {out_copy.as_posix()}/{PACKAGE}/notes.txt" in result.stdout
    assert _state(package) == before and (package / "node_modules").stat().st_ino == modules  # moved, not copied
    assert (package / "README.md").read_bytes() == (GENERATED / PACKAGE / "README.md").read_bytes()
    assert sorted(p.name for p in out_copy.parent.iterdir()) == ["generated"]


OLD = {"README.md": b"old\n", "ts/pkg/package.json": b"{}\n", "ts/pkg/src/a.ts": b"old\n"}
NEW = {"README.md": b"new\n", "ts/pkg/package.json": b"{}\n", "ts/pkg/src/a.ts": b"new\n", "ts/pkg/src/b.ts": b"b\n"}


@pytest.mark.parametrize("no_exchange", [False, True], ids=["exchange", "two renames"])
def test_a_fault_at_every_call_keeps_the_build_state(tmp_path: Path, no_exchange: bool) -> None:
    out = tmp_path / "generated"
    replace_tree(OLD, out)
    for fail_at in range(1, 200):
        (out / "ts/pkg/node_modules").mkdir(exist_ok=True)
        (out / "ts/pkg/node_modules/x.js").write_bytes(b"x\n")
        fs = Faulty(fail_at, no_exchange=no_exchange)
        try:
            replace_tree(NEW, out, fs)
        except OSError:
            replace_tree(NEW, out, FileSystem())  # the next run recovers, then writes
            failed = True
        else:
            failed = False
        assert scan(out, build=frozenset({"ts/pkg/"})).files == NEW
        assert (out / "ts/pkg/node_modules/x.js").read_bytes() == b"x\n", f"lost after a fault at call {fail_at}"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["generated"]
        if not failed:
            break
        replace_tree(OLD, out)
    else:
        pytest.fail("every run failed")


def test_a_failed_exchange_puts_the_build_state_back(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    replace_tree(OLD, out)
    (out / "ts/pkg/dist").mkdir()
    (out / "ts/pkg/dist/a.js").write_bytes(b"a\n")

    class NoSwap(FileSystem):
        def exchange(self, first: Path, second: Path) -> None:
            raise OSError(errno.EIO, "injected")

    with pytest.raises(OSError):
        replace_tree(NEW, out, NoSwap())
    assert scan(out, build=frozenset({"ts/pkg/"})).files == OLD
    assert (out / "ts/pkg/dist/a.js").read_bytes() == b"a\n"
