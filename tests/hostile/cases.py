"""The hostile corpus: sources, paths and documents an attacker or an unlucky user brings.

Each case changes a small project (the jsonrpc contract, generated once), runs one command
and says what must come of it: the exit code, a piece of the message, and whether the
output folder may change. `tests/test_hostile.py` runs them all, hashing the output folder
before and after.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CONTRACT = Path("schemas") / "contracts" / "jsonrpc"
VALID = {"id": "1", "jsonrpc": "2.0", "method": "tool.run", "params": {"tool": "x"}}


@dataclass(frozen=True)
class Case:
    """`setup(project)` changes the project; `args` run in it; what must come out."""

    name: str
    kind: str
    setup: Callable[[Path], None]
    args: tuple[str, ...]
    exit_code: int
    message: str
    output_changes: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


def write(relative: str, content: str | bytes) -> Callable[[Path], None]:
    def change(project: Path) -> None:
        path = project / CONTRACT / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")

    return change


def schema(change: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    def edit(project: Path) -> None:
        path = project / CONTRACT / "envelope.schema.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        change(data)
        path.write_text(json.dumps(data), encoding="utf-8")

    return edit


def append(relative: str, text: str) -> Callable[[Path], None]:
    def change(project: Path) -> None:
        path = project / CONTRACT / relative
        path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")

    return change


def replace(relative: str, old: str, new: str) -> Callable[[Path], None]:
    def change(project: Path) -> None:
        path = project / CONTRACT / relative
        text = path.read_text(encoding="utf-8")
        assert old in text, (relative, old)
        path.write_text(text.replace(old, new), encoding="utf-8")

    return change


def both(*changes: Callable[[Path], None]) -> Callable[[Path], None]:
    def change(project: Path) -> None:
        for each in changes:
            each(project)

    return change


def document(name: str, content: bytes) -> Callable[[Path], None]:
    def change(project: Path) -> None:
        (project / name).write_bytes(content)

    return change


def regenerate(project: Path) -> None:
    from conftest import run_cli

    assert run_cli("generate", cwd=project).returncode == 0


def nothing(project: Path) -> None:
    return None


def defs(**entries: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["$defs"].update(entries)
        data["properties"]["x"] = {"$ref": f"#/$defs/{next(iter(entries))}"}

    return change


def prop(**entries: Any) -> Callable[[dict[str, Any]], None]:
    return lambda data: data["properties"].update(entries)


def nested(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        node = {"type": "object", "properties": {"a": node}}
    return node


def alias_bomb(levels: int, width: int) -> str:
    lines = ['a0: &a0 ["lol"]']
    for level in range(1, levels + 1):
        refs = ", ".join([f"*a{level - 1}"] * width)
        lines.append(f"a{level}: &a{level} [{refs}]")
    return "tools: []\nextra:\n" + "\n".join("  " + line for line in lines) + "\n"


def symlink_out(relative: str, outside_name: str, content: str) -> Callable[[Path], None]:
    def change(project: Path) -> None:
        outside = project.parent / outside_name
        outside.write_text(content, encoding="utf-8")
        target = project / CONTRACT / relative
        if target.exists():
            target.unlink()
        target.symlink_to(outside)

    return change


def fifo(relative: str) -> Callable[[Path], None]:
    def change(project: Path) -> None:
        os.mkfifo(project / CONTRACT / relative)

    return change


def report_fifo(project: Path) -> None:
    os.mkfifo(project / "report.json")


def report_link(target: str) -> Callable[[Path], None]:
    def change(project: Path) -> None:
        (project / "report.json").symlink_to(target)

    return change


def report_socket(project: Path) -> None:
    """A Unix socket at report.json, bound by a relative name (an AF_UNIX name is short)."""
    before = Path.cwd()
    os.chdir(project)
    try:
        with socket.socket(socket.AF_UNIX) as server:
            server.bind("report.json")
    finally:
        os.chdir(before)


def config(text: str) -> Callable[[Path], None]:
    def change(project: Path) -> None:
        path = project / "pyproject.toml"
        path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")

    return change


# The output folder: what a pull request may commit there, and where the settings may point it.
OUTPUT = Path("generated")
SECRET = "SECRET-TOKEN-0f5e"  # the content of a file outside the project, never to be printed
CHECK = ("check",)
# Cases that could hang (a FIFO, a device read to its end) run in a process with this limit.
HANG = {"timeout": 120}


def in_output(relative: str, make: Callable[[Path], None]) -> Callable[[Path], None]:
    """Put an entry at `relative` of the output folder: `make(path)` makes it."""

    def change(project: Path) -> None:
        make(project / OUTPUT / relative)

    return change


def secret_beside(project: Path) -> Path:
    secret = project.parent / "secret.txt"
    secret.write_text(f"{SECRET}\n", encoding="utf-8")
    return secret


def socket_at(path: Path) -> None:
    """A bound UNIX socket at `path` (bound by its name from its folder: a long path does not fit)."""
    import socket

    before = Path.cwd()
    os.chdir(path.parent)
    try:
        with socket.socket(socket.AF_UNIX) as listener:
            listener.bind(path.name)
    finally:
        os.chdir(before)


GIB = 1 << 30


def sparse(size: int) -> Callable[[Path], None]:
    """A file of `size` bytes that takes no room on the disk (all zeros, a hole)."""

    def make(path: Path) -> None:
        with path.open("wb") as file:
            file.truncate(size)

    return make


def marker_linked(path: Path) -> None:
    """The output's README.md (the marker of a folder `generate` wrote) made a symlink to a copy."""
    path.rename(path.with_name("R"))
    path.symlink_to("R")


def setting(old: str, new: str) -> Callable[[Path], None]:
    def change(project: Path) -> None:
        path = project / "pyproject.toml"
        text = path.read_text(encoding="utf-8")
        assert old in text, old
        path.write_text(text.replace(old, new), encoding="utf-8")

    return change


def output_linked_to(where: str) -> Callable[[Path], None]:
    """The output folder moved to `where` (relative to the project) and a symlink left in its place."""

    def change(project: Path) -> None:
        target = project / where
        (project / OUTPUT).rename(target)
        (project / OUTPUT).symlink_to(os.path.relpath(target, project))

    return change


GENERATE = ("generate",)
LONG_NAME = "x" * 242  # with `.NAME.new-XXXXXXXX` beside it, over 255 bytes
REPORT = ("check", "--report", "json:report.json")


def validate(*files: str) -> tuple[str, ...]:
    return ("validate", "--contract", "jsonrpc", *files)


CASES = [
    # Broken files: every one named, at its line or pointer where it has one.
    Case("contract yaml syntax", "broken", write("contract.yaml", "name: [jsonrpc\n"), GENERATE, 2, "invalid YAML"),
    Case("errors yaml missing", "broken", lambda p: (p / CONTRACT / "errors.yaml").unlink(), GENERATE, 2, "missing"),
    Case("tools yaml empty", "broken", write("tools.yaml", ""), GENERATE, 2, "tools.yaml"),
    Case("schema not json", "broken", write("envelope.schema.json", "{"), GENERATE, 2, "invalid JSON"),
    Case(
        "schema duplicate key",
        "broken",
        write("envelope.schema.json", '{"type": 1, "type": 2}'),
        GENERATE,
        2,
        "appears twice",
    ),
    Case("schema is an array", "broken", write("envelope.schema.json", "[]"), GENERATE, 2, "a schema is a JSON"),
    Case("schema bad keyword", "broken", schema(prop(bad={"type": 5})), GENERATE, 2, "envelope.schema.json"),
    Case(
        "name mismatch",
        "broken",
        replace("contract.yaml", "name: jsonrpc", "name: other"),
        GENERATE,
        2,
        "must equal the folder name",
    ),
    Case(
        "unknown contract key",
        "broken",
        append("contract.yaml", "colour: blue\n"),
        GENERATE,
        2,
        "'colour' is not allowed here",
    ),
    Case("code with a space", "broken", append("errors.yaml", "  - code: NOT OK\n"), GENERATE, 2, "does not match"),
    Case(
        "duplicate code", "broken", append("errors.yaml", "  - code: INTERNAL_ERROR\n"), GENERATE, 2, "duplicate code"
    ),
    Case(
        "tool names unknown code",
        "broken",
        write("tools.yaml", "tools:\n  - name: t\n    possible_error_codes: [NOPE]\n"),
        GENERATE,
        2,
        "which errors.yaml lacks",
    ),
    Case(
        "secret argument the tool lacks",
        "broken",
        write(
            "tools.yaml",
            "tools:\n  - name: t\n    inputSchema:\n      type: object\n      properties: {code: {type: string}}\n"
            "    secret_arguments: [code, source]\n",
        ),
        GENERATE,
        2,
        "tools.yaml:6: 'source' is not an argument of the tool's inputSchema (its properties: code)",
    ),
    Case(
        "secret arguments of a tool without arguments",
        "broken",
        write("tools.yaml", "tools:\n  - name: t\n    secret_arguments: [code]\n"),
        GENERATE,
        2,
        "'code' is not an argument of the tool's inputSchema (its properties: none)",
    ),
    Case(
        "contract not utf-8",
        "broken",
        write("contract.yaml", b"name: jsonrpc\ntitle: caf\xe9\n"),
        GENERATE,
        2,
        "cannot read",
    ),
    Case("yaml tab indentation", "broken", write("tools.yaml", "tools:\n\t- name: t\n"), GENERATE, 2, "invalid YAML"),
    Case(
        "tool example result leaves examples/",
        "broken",
        write("tools.yaml", "tools:\n  - name: t\n    examples:\n      - {arguments: {}, result: ../contract.json}\n"),
        GENERATE,
        2,
        "does not match",
    ),
    Case(
        "tool input schema fetches",
        "broken",
        write(
            "tools.yaml", "tools:\n  - name: t\n    inputSchema: {type: object, $ref: 'http://127.0.0.1:9/x.json'}\n"
        ),
        GENERATE,
        2,
        "is not fetched",
    ),
    Case(
        "tool example arguments nested deep",
        "broken",
        write(
            "tools.yaml",
            "tools:\n  - name: t\n    examples:\n      - arguments: {a: " + "[" * 3000 + "]" * 3000 + "}\n",
        ),
        GENERATE,
        2,
        "tools.yaml",
    ),
    Case("example breaks schema", "broken", write("examples/bad.json", "{}"), GENERATE, 2, "example breaks"),
    Case("example not json", "broken", write("examples/bad.json", "{,}"), GENERATE, 2, "invalid JSON"),
    # ECMA-262 patterns: accepted and judged alike by both judges, or the construct named.
    Case(
        "pattern named backreference",
        "broken",
        replace("envelope.schema.json", '"minLength": 1', '"pattern": "^(?<v>[a-z]+)\\\\.\\\\k<v>$|"'),
        GENERATE,
        0,
        "changed",
        output_changes=True,
    ),
    Case(
        "pattern backreference ahead",
        "broken",
        replace("envelope.schema.json", '"minLength": 1', '"pattern": "^\\\\k<v>(?<v>a)$"'),
        GENERATE,
        2,
        "envelope.schema.json#/properties/method/pattern: '^\\\\k<v>(?<v>a)$': the backreference \\k<v> to a group",
    ),
    Case(
        "pattern backreference to a repeated group",
        "broken",
        replace("envelope.schema.json", '"minLength": 1', '"pattern": "^(?=a)(a+)+\\\\1$"'),
        GENERATE,
        2,
        "the backreference \\1 to a group a match may not have set there is not supported",
    ),
    Case(
        "pattern group name twice",
        "broken",
        replace("envelope.schema.json", '"minLength": 1', '"pattern": "^(?<v>a)|(?<v>b)$"'),
        GENERATE,
        2,
        "the group name <v> written twice is not supported",
    ),
    Case(
        "pattern modifier group",
        "broken",
        replace("tools.yaml", "minLength: 1", "pattern: '^(?i:a)$'"),
        GENERATE,
        2,
        "tools.yaml:9: '^(?i:a)$': the modifier group (?i:...) is not supported: ECMAScript 2025",
    ),
    Case(
        "pattern lone surrogate",
        "broken",
        replace("tools.yaml", "minLength: 1", "pattern: '^\\ud800$'"),
        GENERATE,
        2,
        "tools.yaml:9: '^\\\\ud800$': the lone surrogate escape \\ud800 is not supported",
    ),
    # A version that is not semantic would switch off version-not-bumped: refused at its line.
    Case(
        "version latest",
        "broken",
        replace("contract.yaml", 'version: "0.1.0"', "version: latest"),
        GENERATE,
        2,
        'contract.yaml:5: "latest" is not a semantic version (semver.org 2.0.0: MAJOR.MINOR.PATCH',
    ),
    Case(
        "version v2.0.0 in lint",
        "broken",
        replace("contract.yaml", 'version: "0.1.0"', "version: v2.0.0"),
        ("lint",),
        2,
        'contract.yaml:5: "v2.0.0" is not a semantic version',
    ),
    Case(
        "version 1.0",
        "broken",
        replace("contract.yaml", 'version: "0.1.0"', 'version: "1.0"'),
        ("check",),
        2,
        'contract.yaml:5: "1.0" is not a semantic version',
    ),
    Case(
        "accepted break for latest",
        "broken",
        write(
            "accepted-breaks.yaml",
            "accepted:\n  - rule: property-optional\n    subject: envelope/id\n    reason: r\n    version: latest\n",
        ),
        GENERATE,
        2,
        'accepted-breaks.yaml:5: "latest" is not a semantic version',
    ),
    # Numbers no double holds as written: refused at their place in every source, before any output.
    Case(
        "enum 1e400",
        "broken",
        replace("envelope.schema.json", '"const": "2.0"', '"enum": [1e400]'),
        GENERATE,
        2,
        "envelope.schema.json#/properties/jsonrpc/enum/0: 1e400 is not a finite double: JSON parsers disagree on it",
    ),
    Case(
        "enum -1e400 in lint",
        "broken",
        replace("envelope.schema.json", '"const": "2.0"', '"enum": ["2.0", -1e400]'),
        ("lint",),
        2,
        "envelope.schema.json#/properties/jsonrpc/enum/1: -1e400 is not a finite double",
    ),
    Case(
        "enum 1e400 in check",
        "broken",
        replace("envelope.schema.json", '"const": "2.0"', '"enum": [1e400]'),
        ("check",),
        2,
        "envelope.schema.json#/properties/jsonrpc/enum/0: 1e400 is not a finite double",
    ),
    Case(
        "const 1e-400",
        "broken",
        replace("envelope.schema.json", '"const": "2.0"', '"const": 1e-400'),
        GENERATE,
        2,
        "envelope.schema.json#/properties/jsonrpc/const: 1e-400 is too small for a double: it reads as 0",
    ),
    Case(
        "default 1e400",
        "broken",
        replace("envelope.schema.json", '"minLength": 1', '"minLength": 1, "default": 1e400'),
        GENERATE,
        2,
        "envelope.schema.json#/properties/method/default: 1e400 is not a finite double",
    ),
    Case(
        "examples 1e400",
        "broken",
        replace("envelope.schema.json", '"minLength": 1', '"minLength": 1, "examples": ["x", 1e400]'),
        GENERATE,
        2,
        "envelope.schema.json#/properties/method/examples/1: 1e400 is not a finite double",
    ),
    Case(
        "maximum 1e400",
        "broken",
        replace("envelope.schema.json", '"minLength": 1', '"maximum": 1e400'),
        GENERATE,
        2,
        "envelope.schema.json#/properties/method/maximum: 1e400 is not a finite double",
    ),
    Case(
        "schema Infinity token",
        "broken",
        replace("envelope.schema.json", '"minLength": 1', '"maximum": Infinity'),
        GENERATE,
        2,
        "envelope.schema.json#/properties/method/maximum: Infinity is not a JSON number",
    ),
    Case(
        "tool schema 1e400",
        "broken",
        replace("tools.yaml", "minLength: 1", "maximum: 1e400"),
        GENERATE,
        2,
        "tools.yaml:9: 1e400 is not a finite double: JSON parsers disagree on it",
    ),
    Case(
        "tool schema 1e-400",
        "broken",
        replace("tools.yaml", "minLength: 1", "const: 1.5e-400"),
        GENERATE,
        2,
        "tools.yaml:9: 1.5e-400 is too small for a double",
    ),
    Case(
        "tool schema .inf",
        "broken",
        replace("tools.yaml", "minLength: 1", "maximum: .inf"),
        GENERATE,
        2,
        "tools.yaml:9: .inf is not a JSON number: JSON has no infinity or NaN",
    ),
    Case(
        "tool schema .nan",
        "broken",
        replace("tools.yaml", "minLength: 1", "enum: [.nan]"),
        GENERATE,
        2,
        "tools.yaml:9: .nan is not a JSON number",
    ),
    Case(
        "contract yaml -.inf",
        "broken",
        replace("contract.yaml", 'seed: "003"\n', 'seed: "003"\n  weight: -.inf\n'),
        GENERATE,
        2,
        "contract.yaml:13: -.inf is not a JSON number",
    ),
    Case(
        "example 1e400",
        "broken",
        replace("examples/tool-invoke.json", '"jsonrpc": "2.0"', '"jsonrpc": 1e400'),
        GENERATE,
        2,
        "examples/tool-invoke.json#/jsonrpc: 1e400 is not a finite double",
    ),
    Case(
        "example NaN token",
        "broken",
        replace("examples/tool-invoke.json", '"jsonrpc": "2.0"', '"jsonrpc": NaN'),
        GENERATE,
        2,
        "examples/tool-invoke.json#/jsonrpc: NaN is not a JSON number",
    ),
    Case("ref to missing def", "broken", schema(prop(x={"$ref": "#/$defs/Nowhere"})), GENERATE, 2, "Nowhere"),
    Case(
        "remote ref",
        "broken",
        schema(prop(x={"$ref": "https://example.com/s.json"})),
        GENERATE,
        2,
        "https://example.com/s.json",
    ),
    Case("ref out of the folder", "broken", schema(prop(x={"$ref": "../../../etc/passwd"})), GENERATE, 2, "passwd"),
    # Recursion: cycles that never descend are refused; those that do are judged.
    Case(
        "ref cycle P Q",
        "recursion",
        schema(defs(P={"$ref": "#/$defs/Q"}, Q={"$ref": "#/$defs/P"})),
        GENERATE,
        2,
        "a reference cycle that never descends",
    ),
    Case(
        "oneOf of itself",
        "recursion",
        schema(defs(X={"oneOf": [{"$ref": "#/$defs/X"}, {"type": "string"}]})),
        GENERATE,
        2,
        "reference cycle",
    ),
    Case(
        "allOf of itself",
        "recursion",
        schema(defs(A={"allOf": [{"$ref": "#/$defs/A"}]})),
        GENERATE,
        2,
        "reference cycle",
    ),
    Case("not of itself", "recursion", schema(defs(N={"not": {"$ref": "#/$defs/N"}})), GENERATE, 2, "reference cycle"),
    Case(
        "array of itself",
        "recursion",
        schema(defs(L={"type": "array", "items": {"$ref": "#/$defs/L"}})),
        GENERATE,
        0,
        "file(s) changed",
        output_changes=True,
    ),
    Case(
        "tree of itself",
        "recursion",
        schema(defs(T={"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/T"}}}})),
        GENERATE,
        0,
        "file(s) changed",
        output_changes=True,
    ),
    Case("nesting 150", "recursion", schema(prop(deep=nested(150))), GENERATE, 2, "over limits.source_depth (64)"),
    Case(
        "yaml nesting 5000",
        "recursion",
        write("tools.yaml", "tools: " + "[" * 5000 + "]" * 5000 + "\n"),
        GENERATE,
        2,
        "tools.yaml",
    ),
    Case(
        "deeper source limit",
        "recursion",
        both(schema(prop(deep=nested(150))), config("\n[tool.mcp-contracts.limits]\nsource_depth = 400\n")),
        GENERATE,
        2,
        "envelope.schema.json",
    ),
    # Costs: limits with sound defaults, named when hit.
    Case("yaml alias bomb", "cost", write("tools.yaml", alias_bomb(9, 9)), GENERATE, 2, "limits.yaml_nodes"),
    Case("bigger alias bomb", "cost", write("tools.yaml", alias_bomb(12, 12)), GENERATE, 2, "limits.yaml_nodes"),
    Case("recursive alias", "cost", write("tools.yaml", "tools: &a [*a]\n"), GENERATE, 2, "tools.yaml"),
    Case(
        "source over limit",
        "cost",
        schema(lambda d: d.update(description="x" * 2_500_000)),
        GENERATE,
        2,
        "limits.source_bytes",
    ),
    Case(
        "configured limit",
        "cost",
        config("\n[tool.mcp-contracts.limits]\nsource_bytes = 100\n"),
        GENERATE,
        2,
        "over limits.source_bytes (100)",
    ),
    Case(
        "unknown limit",
        "cost",
        config("\n[tool.mcp-contracts.limits]\nsource_byte = 100\n"),
        GENERATE,
        2,
        "did you mean 'source_bytes'?",
    ),
    Case(
        "catastrophic pattern",
        "cost",
        both(
            schema(prop(id={"type": "string", "pattern": "^(a+)+$"})),
            write("examples/slow.json", json.dumps({**VALID, "id": "a" * 60 + "!"})),
        ),
        GENERATE,
        2,
        "example breaks",
    ),
    Case(
        "lookahead backreference",
        "cost",
        both(
            schema(prop(id={"type": "string", "pattern": "^(?=a)(a+)\\1(a+)+$"})),
            write("examples/slow.json", json.dumps({**VALID, "id": "a" * 60 + "!"})),
        ),
        GENERATE,
        2,
        "example breaks",
    ),
    Case(
        "thousands of enum values",
        "cost",
        schema(prop(level={"enum": [f"v{i}" for i in range(20000)]})),
        GENERATE,
        0,
        "file(s) changed",
        output_changes=True,
    ),
    Case(
        "a megabyte of description",
        "cost",
        schema(lambda d: d.update(description="word " * 200_000)),
        GENERATE,
        0,
        "file(s) changed",
        output_changes=True,
    ),
    Case(
        "catastrophic pattern in validate",
        "cost",
        both(
            schema(prop(tag={"type": "string", "pattern": "^(?=a)(a+)\\1(a+)+$"})),
            regenerate,
            document("d.json", json.dumps({**VALID, "tag": "a" * 60 + "!"}).encode()),
        ),
        validate("d.json"),
        1,
        "d.json: invalid",
    ),
    # Names and paths: nothing shadows what the generator writes; nothing out of the sources is read.
    Case(
        "module __pycache__",
        "names",
        replace("contract.yaml", "module: jsonrpc", "module: __pycache__"),
        GENERATE,
        2,
        "does not match",
    ),
    Case(
        "module keyword",
        "names",
        replace("contract.yaml", "module: jsonrpc", "module: class"),
        GENERATE,
        2,
        "Python keyword",
    ),
    Case(
        "contract named index",
        "names",
        lambda p: (p / CONTRACT).rename(p / "schemas" / "contracts" / "index"),
        GENERATE,
        2,
        "index",
    ),
    Case(
        "root title error_info",
        "names",
        schema(lambda d: d.update(title="error_info")),
        GENERATE,
        0,
        "file(s) changed",
        output_changes=True,
        extra={"export": "ErrorInfo"},
    ),
    Case(
        "root title ErrorCode",
        "names",
        schema(lambda d: d.update(title="ErrorCode")),
        GENERATE,
        0,
        "file(s) changed",
        output_changes=True,
        extra={"export": "ErrorCodeModel"},
    ),
    Case(
        "keyword column",
        "names",
        replace("contract.yaml", "  errors:\n", "  errors:\n    class:\n      type: string\n      description: d\n"),
        GENERATE,
        2,
        "Python keyword cannot name a column",
    ),
    Case(
        "module clashes",
        "names",
        replace("contract.yaml", "  - canonical.py", "  - models.py"),
        GENERATE,
        2,
        "a module `generate` writes",
    ),
    Case(
        "module path",
        "names",
        replace("contract.yaml", "  - canonical.py", "  - ../x.py"),
        GENERATE,
        2,
        "does not match",
    ),
    Case(
        "symlinked errors",
        "names",
        symlink_out("errors.yaml", "secret.yaml", "errors: []\n"),
        GENERATE,
        2,
        "a symlink: not followed",
    ),
    Case(
        "symlinked example",
        "names",
        symlink_out("examples/leak.json", "secret.json", "{}"),
        GENERATE,
        2,
        "a symlink: not followed",
    ),
    Case("fifo example", "names", fifo("examples/pipe.json"), GENERATE, 2, "not a regular file"),
    Case("output inside sources", "names", nothing, ("generate", "--out", "schemas/out"), 2, "overlaps"),
    Case(
        "output not ours",
        "names",
        lambda p: (p / "elsewhere").mkdir() or (p / "elsewhere" / "x").write_text("x"),
        ("generate", "--out", "elsewhere"),
        2,
        "not replacing a folder it did not write",
    ),
    Case(
        "output is a file", "names", lambda p: (p / "afile").write_text("x"), ("generate", "--out", "afile"), 2, "afile"
    ),
    Case("unknown config key", "names", config("\n[tool.mcp-contracts.extra]\n"), GENERATE, 2, "unknown key"),
    Case(
        "rules_page not a boolean",
        "names",
        setting('package = "contracts"', 'package = "contracts"\nrules_page = "yes"'),
        GENERATE,
        2,
        "pyproject.toml:5: 'rules_page' must be true or false",
    ),
    Case("init long name", "names", nothing, ("init", LONG_NAME), 2, "242 bytes is longer than this file system takes"),
    Case(
        "import long name",
        "names",
        nothing,
        ("import", LONG_NAME, "--", "false"),
        2,
        "242 bytes is longer than this file system takes",
    ),
    Case("against long value", "names", nothing, ("breaking", "--against", "x" * 5000), 2, "longer than a file name"),
    Case("docs site sources", "names", nothing, ("docs", "--site", "schemas"), 2, "overlaps the sources folder"),
    Case("docs site project", "names", nothing, ("docs", "--site", "."), 2, "overlaps the sources folder"),
    Case("docs site long name", "names", nothing, ("docs", "--site", "s" * 300), 2, "File name too long"),
    Case("init index", "names", nothing, ("init", "index"), 2, "'index' names a page of the docs"),
    Case("init rules", "names", nothing, ("init", "rules"), 2, "'rules' names a page of the docs"),
    Case("init lint-rules", "names", nothing, ("init", "lint-rules"), 2, "'lint-rules' names a page of the docs"),
    Case(
        "package os",
        "names",
        setting('package = "contracts"', 'package = "os"'),
        GENERATE,
        2,
        "pyproject.toml:4: 'os' would shadow the standard library's 'os'",
    ),
    Case(
        "package pydantic",
        "names",
        setting('package = "contracts"', 'package = "pydantic"'),
        GENERATE,
        2,
        "pyproject.toml:4: 'pydantic' would shadow 'pydantic', which the generated code imports",
    ),
    # The output folder is read without following anything: an entry that is not a regular
    # file is drift named by its path, never read, and replaced by `generate`.
    Case(
        "output symlink to a secret",
        "names",
        in_output("leak.md", lambda path: path.symlink_to(secret_beside(path.parents[1]))),
        CHECK,
        1,
        "Not read: generated/leak.md is a symlink",
        extra={"absent": SECRET},
    ),
    Case(
        "output symlink to a secret, generate",
        "names",
        in_output("leak.md", lambda path: path.symlink_to(secret_beside(path.parents[1]))),
        GENERATE,
        0,
        "removed  generated/leak.md",
        output_changes=True,
        extra={"absent": SECRET, "gone": "generated/leak.md"},
    ),
    Case(
        "output file replaced by a symlink to a secret",
        "names",
        in_output("docs/jsonrpc.md", lambda path: path.unlink() or path.symlink_to(secret_beside(path.parents[2]))),
        CHECK,
        1,
        "changed  docs/jsonrpc.md",
        extra={"absent": SECRET},
    ),
    Case(
        "output folder symlink to /etc",
        "names",
        in_output("docs", lambda path: shutil.rmtree(path) or path.symlink_to("/etc")),
        CHECK,
        1,
        "Not read: generated/docs is a symlink",
        extra={"absent": "root:"},
    ),
    Case(
        "output symlink to /dev/zero",
        "names",
        in_output("zero.bin", lambda path: path.symlink_to("/dev/zero")),
        CHECK,
        1,
        "Not read: generated/zero.bin is a symlink",
        extra=HANG,
    ),
    Case(
        "output symlink to /dev/zero, generate",
        "names",
        in_output("zero.bin", lambda path: path.symlink_to("/dev/zero")),
        GENERATE,
        0,
        "removed  generated/zero.bin",
        output_changes=True,
        extra={**HANG, "gone": "generated/zero.bin"},
    ),
    Case(
        "output fifo",
        "names",
        in_output("docs/pipe.md", os.mkfifo),
        CHECK,
        1,
        "Not read: generated/docs/pipe.md is a FIFO",
        extra=HANG,
    ),
    Case(
        "output fifo, generate",
        "names",
        in_output("docs/pipe.md", os.mkfifo),
        GENERATE,
        0,
        "removed  generated/docs/pipe.md",
        output_changes=True,
        extra={**HANG, "gone": "generated/docs/pipe.md"},
    ),
    Case(
        "output dangling symlink",
        "names",
        in_output("gone.md", lambda path: path.symlink_to("no-such-file")),
        CHECK,
        1,
        "extra    gone.md",
    ),
    Case(
        "output dangling symlink, generate",
        "names",
        in_output("gone.md", lambda path: path.symlink_to("no-such-file")),
        GENERATE,
        0,
        "removed  generated/gone.md",
        output_changes=True,
        extra={"gone": "generated/gone.md"},
    ),
    Case(
        "output socket",
        "names",
        in_output("docs/s.sock", socket_at),
        CHECK,
        1,
        "Not read: generated/docs/s.sock is a socket",
        extra=HANG,
    ),
    # A regular file larger than any the sources produce can be none of them: it is drift
    # without being read (a sparse GiB: the old reading held it whole).
    Case(
        "output huge file",
        "names",
        in_output("docs/big.md", sparse(GIB)),
        CHECK,
        1,
        "Not read: generated/docs/big.md is a file of 1,073,741,824 bytes, more than any the sources produce",
        extra=HANG,
    ),
    Case(
        "output file made huge, generate",
        "names",
        in_output("docs/jsonrpc.md", sparse(GIB)),
        GENERATE,
        0,
        "updated  generated/docs/jsonrpc.md",
        output_changes=True,
        extra=HANG,
    ),
    Case(
        "output readme symlink",
        "names",
        in_output("README.md", marker_linked),
        GENERATE,
        2,
        "not replacing a folder it did not write",
    ),
    # The output setting: `check` refuses what `generate` refuses, before reading anything.
    Case(
        "output /etc, check",
        "names",
        setting('output = "generated"', 'output = "/etc"'),
        CHECK,
        2,
        "/etc: the output folder leads outside the project",
        extra=HANG,
    ),
    Case(
        "output /etc, generate",
        "names",
        setting('output = "generated"', 'output = "/etc"'),
        GENERATE,
        2,
        "/etc: the output folder leads outside the project",
    ),
    Case(
        "output parent, check",
        "names",
        setting('output = "generated"', 'output = ".."'),
        CHECK,
        2,
        "the output folder is the project root or a folder above it",
    ),
    Case(
        "output root, generate",
        "names",
        setting('output = "generated"', 'output = "."'),
        GENERATE,
        2,
        "the output folder is the project root or a folder above it",
    ),
    Case(
        "output inside sources, check",
        "names",
        setting('output = "generated"', 'output = "schemas/contracts"'),
        CHECK,
        2,
        "overlaps the sources folder",
    ),
    Case(
        "output symlinked out of the project",
        "names",
        output_linked_to("../elsewhere"),
        CHECK,
        2,
        "the output folder leads outside the project",
    ),
    Case(
        "output symlinked inside the project",
        "names",
        output_linked_to("real-output"),
        CHECK,
        0,
        "generated is up to date.",
    ),
    # A report (`--report FORMAT:PATH`) replaces only a regular file: refused before the command runs.
    Case("report to a fifo", "names", report_fifo, REPORT, 2, "a FIFO, not a regular file"),
    Case("report to a link to stdout", "names", report_link("/dev/stdout"), REPORT, 2, "json report: a symlink"),
    Case("report to a device", "names", nothing, ("check", "--report", "json:/dev/null"), 2, "a character device"),
    Case("report to a socket", "names", report_socket, REPORT, 2, "a socket, not a regular file"),
    # Injection: strings from sources never break or run in what is generated.
    Case(
        "description quotes",
        "injection",
        schema(lambda d: d.update(description="\"\"\" + {{7*7}} + '''")),
        GENERATE,
        0,
        "file(s) changed",
        output_changes=True,
    ),
    Case(
        "enum quotes newline",
        "injection",
        schema(prop(mode={"enum": ['a"b', "c\nd", "e\\f"]})),
        GENERATE,
        0,
        "file(s) changed",
        output_changes=True,
    ),
    Case(
        "default script",
        "injection",
        schema(prop(note={"type": "string", "default": "</script><script>x()"})),
        GENERATE,
        0,
        "file(s) changed",
        output_changes=True,
    ),
    Case(
        "title pipes",
        "injection",
        schema(lambda d: d.update(title="A | B `c` [d](e)")),
        GENERATE,
        0,
        "file(s) changed",
        output_changes=True,
    ),
    Case(
        "message template",
        "injection",
        append("errors.yaml", "  - code: X\n    message: '{{ 7*7 }} {% raw %}'\n"),
        GENERATE,
        0,
        "file(s) changed",
        output_changes=True,
    ),
    Case(
        "url with credentials",
        "injection",
        nothing,
        ("conform", "--contract", "jsonrpc", "--timeout", "5", "--url", "http://user:PW@127.0.0.1:9/mcp?token=Q"),
        2,
        "http://***@127.0.0.1:9/mcp?***",  # never the password nor the query (tests/test_server_text.py)
    ),
    # Documents: a verdict for each, the others still judged.
    Case(
        "valid document",
        "documents",
        document("d.json", json.dumps(VALID).encode()),
        validate("d.json"),
        0,
        "d.json: valid",
    ),
    Case("invalid document", "documents", document("d.json", b'{"id": 1}'), validate("d.json"), 1, "invalid"),
    Case("bom", "documents", document("d.json", b"\xef\xbb\xbf{}"), validate("d.json"), 2, "byte order mark"),
    Case("nan", "documents", document("d.json", b'{"id": NaN}'), validate("d.json"), 2, "NaN and Infinity"),
    Case(
        "duplicate keys",
        "documents",
        document("d.json", b'{"id": "1", "id": "2"}'),
        validate("d.json"),
        2,
        "appears twice",
    ),
    Case("device", "documents", nothing, validate("/dev/zero"), 2, "not a regular file"),
    Case("directory", "documents", lambda p: (p / "dir.json").mkdir(), validate("dir.json"), 2, "cannot read"),
    Case("empty", "documents", document("d.json", b""), validate("d.json"), 2, "empty"),
    Case(
        "deep 100000",
        "documents",
        document("d.json", b"[" * 100_000 + b"]" * 100_000),
        validate("d.json"),
        2,
        "nested too deeply",
    ),
    Case(
        "deep 300",
        "documents",
        document("d.json", b"[" * 300 + b"]" * 300),
        validate("d.json"),
        2,
        "over limits.document_depth (200)",
    ),
    Case(
        "huge integer",
        "documents",
        document("d.json", b"1" + b"0" * 5000),
        validate("d.json"),
        2,
        "an integer too long",
    ),
    Case("invalid utf-8", "documents", document("d.json", b'{"id": "\xff"}'), validate("d.json"), 2, "not valid UTF-8"),
    Case("trailing text", "documents", document("d.json", b"{} {}"), validate("d.json"), 2, "trailing characters"),
    Case(
        "document over limit",
        "documents",
        both(
            document("d.json", json.dumps(VALID).encode()),
            config("\n[tool.mcp-contracts.limits]\ndocument_bytes = 10\n"),
        ),
        validate("d.json"),
        2,
        "limits.document_bytes",
    ),
    Case("missing document", "documents", nothing, validate("nope.json"), 2, "cannot read"),
    Case(
        "configured document depth",
        "documents",
        both(document("d.json", b"[" * 20 + b"]" * 20), config("\n[tool.mcp-contracts.limits]\ndocument_depth = 10\n")),
        validate("d.json"),
        2,
        "over limits.document_depth (10)",
    ),
    # A report never replaces the project's settings, sources, output or git's files, as `--out`
    # and `--site` never take those folders: refused before the command runs.
    Case(
        "report onto the settings file",
        "names",
        nothing,
        ("check", "--report", "json:pyproject.toml"),
        2,
        "pyproject.toml: cannot write the json report: the project's settings file",
    ),
    Case(
        "report onto a source",
        "names",
        nothing,
        ("generate", "--report", f"json:{CONTRACT.as_posix()}/tools.yaml"),
        2,
        "cannot write the json report: in the sources folder schemas",
    ),
    Case(
        "report into the output",
        "names",
        nothing,
        ("check", "--report", "sarif:generated/README.md"),
        2,
        "cannot write the sarif report: in the output folder generated",
    ),
    Case(
        "report into git",
        "names",
        document(".git", b"gitdir: elsewhere\n"),  # a worktree's .git file
        ("lint", "--report", "json:.git"),
        2,
        ".git: cannot write the json report: in a .git folder",
    ),
    Case(
        "report through a link into the output",
        "names",
        lambda p: (p / "out-link").symlink_to("generated"),
        ("generate", "--report", "junit:out-link/new.xml"),
        2,
        "cannot write the junit report: in the output folder generated",
        extra={"gone": "generated/new.xml"},
    ),
]
