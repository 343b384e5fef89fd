"""ECMA-262 patterns the Python judge's engine refused as "not a regex" (`\\k<name>`, `\\0`, a
surrogate pair, `[^]`, `[]`, `[\\b]`): accepted at load, and judged as ECMA-262 judges them
(regress, and node's `RegExp` with the `u` flag, as the TypeScript judge compiles them) by the
judge load builds, the generated package's judge and a tool schema's judge. What no judge
can read alike is refused, named: rows of tests/hostile/cases.py."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import regress
from conftest import SCHEMAS, run_cli
from mcp_contracts_generator import api
from mcp_contracts_generator.schema.engine import standalone_validator
from mcp_contracts_generator.schema.patterns import for_rust, unsupported
from mcp_contracts_generator.validate import load_judge

REQUEST = {"id": "1", "jsonrpc": "2.0", "method": "m", "params": {}}

ACCEPTED = [
    pytest.param(r"^(?<y>ab)\k<y>$", ["abab", "abba", "ab"], id="named backreference"),
    pytest.param(r"^(?<y>a)\k<y>0$", ["aa0", "a0"], id="named backreference then a digit"),
    pytest.param(r"^(a)\1$", ["aa", "a"], id="numbered backreference"),
    pytest.param(r"^(?:(?<y>a|b)\k<y>|c)+$", ["aabb", "abc", "cc", "c"], id="backreference in its own branch"),
    pytest.param(r"^(?<a>x)|(?<b>y)$", ["x", "y", "z"], id="named groups"),
    pytest.param(r"^\0$", ["\x00", "0", ""], id="NUL escape"),
    pytest.param(r"^[\0-\x1f]+$", ["\x00\x01", "a"], id="NUL escape in a class"),
    pytest.param(r"^\ud83d\ude00$", ["😀", "x", "d"], id="surrogate pair"),
    pytest.param(r"^[\ud83d\ude00-\ud83d\ude4f]$", ["😀", "🙏", "🚀", "x"], id="surrogate pairs in a class"),
    pytest.param(r"^[^]$", ["\n", "a", "", "ab"], id="any character class"),
    pytest.param(r"^a[]?$", ["a", "ab"], id="empty class"),
    pytest.param(r"^[\b]$", ["\x08", "b"], id="backspace in a class"),
]


def _ecma(pattern: str, text: str) -> bool:
    return regress.Regex(pattern, "u").find(text) is not None


def _node(pattern: str, texts: list[str]) -> list[bool] | None:
    """What node's `new RegExp(pattern, "u")` says of each text; None without node."""
    node = shutil.which("node")
    if node is None:
        return None
    script = (
        "const [p, t] = JSON.parse(process.argv[1]);"
        " console.log(JSON.stringify(t.map((s) => new RegExp(p, 'u').test(s))))"
    )
    done = subprocess.run(
        [node, "-e", script, json.dumps([pattern, texts])], capture_output=True, text=True, timeout=60, check=True
    )
    result: list[bool] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize(("pattern", "texts"), ACCEPTED)
def test_an_ecma_262_pattern_is_accepted_and_judged_as_ecma_262_judges_it(
    pattern: str, texts: list[str], tmp_path: Path
) -> None:
    expected = [_ecma(pattern, text) for text in texts]
    assert _node(pattern, texts) in (None, expected)  # the TypeScript judge's engine agrees
    assert unsupported(pattern) is None and for_rust(pattern) != pattern

    folder = tmp_path / "schemas" / "contracts" / "jsonrpc"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", folder)
    envelope = json.loads((folder / "envelope.schema.json").read_text(encoding="utf-8"))
    envelope["properties"]["word"] = {"type": "string", "pattern": pattern}
    envelope["properties"]["named"] = {"type": "object", "patternProperties": {pattern: {"type": "integer"}}}
    (folder / "envelope.schema.json").write_text(json.dumps(envelope), encoding="utf-8")
    tools = folder / "tools.yaml"
    word = f"minLength: 1}}\n        word: {{type: string, pattern: {json.dumps(pattern)}}}"
    text = tools.read_text(encoding="utf-8").replace("minLength: 1}", word)
    tools.write_text(text, encoding="utf-8")

    loaded = api.load(tmp_path / "schemas")
    assert loaded.project is not None, loaded.diagnostics
    at_load = loaded.project.contracts[0].judge
    out = tmp_path / "out"
    assert run_cli("generate", "--schemas", str(tmp_path / "schemas"), "--out", str(out)).returncode == 0
    generated = load_judge("jsonrpc", out, "mcp_contracts").judge
    tool = standalone_validator(loaded.project.contracts[0].manifest.tools.entries[0].get("inputSchema"))
    for text, verdict in zip(texts, expected, strict=True):
        document = {**REQUEST, "word": text}
        keyed = {**REQUEST, "named": {text: "not an integer"}}
        assert at_load.is_valid(document) is verdict, (text, verdict)
        assert generated.is_valid(document) is verdict, (text, verdict)
        assert at_load.is_valid(keyed) is not verdict, (text, verdict)  # a key it matches holds an integer
        assert tool.is_valid({"path": "p", "word": text}) is verdict, (text, verdict)
    package = out / "python" / "mcp_contracts" / "jsonrpc"
    published = json.loads((package / "published.json").read_text(encoding="utf-8"))
    assert published["schema"]["properties"]["word"]["pattern"] == pattern  # what clients read: as written
    bundle = json.loads((package / "schema.json").read_text(encoding="utf-8"))
    assert bundle["resources"][bundle["root"]]["properties"]["word"]["pattern"] == for_rust(pattern)


NOT_SET = "to a group a match may not have set there is not supported"
REFUSED = [
    (r"^\1(a)$", rf"the backreference \1 {NOT_SET}"),
    (r"^(a\1)$", rf"the backreference \1 {NOT_SET}"),
    (r"^\k<a>(?<a>x)$", rf"the backreference \k<a> {NOT_SET}"),
    (r"^(a)?\1$", rf"the backreference \1 {NOT_SET}"),
    (r"^(a)*\1$", rf"the backreference \1 {NOT_SET}"),
    (r"^(?:(a)|b)\1$", rf"the backreference \1 {NOT_SET}"),
    (r"^(?:(?<a>a)|b)+\k<a>$", rf"the backreference \k<a> {NOT_SET}"),
    (r"^(?!(a))\1$", rf"the backreference \1 {NOT_SET}"),
    (r"^(?<a>x)|(?<a>y)$", "the group name <a> written twice is not supported"),
    (r"^(?i:a)b$", "the modifier group (?i:...) is not supported: ECMAScript 2025"),
    (r"^\ud800$", r"the lone surrogate escape \ud800 is not supported"),
    (r"^[\u{DC00}]$", r"the lone surrogate escape \u{DC00} is not supported"),
]


@pytest.mark.parametrize(("pattern", "message"), REFUSED)
def test_what_the_judges_cannot_read_alike_is_named(pattern: str, message: str) -> None:
    assert regress.Regex(pattern, "u") is not None  # ECMA-262 all the same
    said = unsupported(pattern)
    assert said is not None and said.startswith(message), said
