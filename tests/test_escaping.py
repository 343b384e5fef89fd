"""A string from a source can never break or inject into generated code or a Markdown table."""

from __future__ import annotations

import ast
import json
import re
import shutil
import tomllib
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import markdown
import pytest
from conftest import SCHEMAS, generated_package, run_cli
from hostile.texts import HOSTILE
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from mcp_contracts_generator import api, options
from mcp_contracts_generator.render.escape import md, prose, py, toml, ts, ts_key, tsdoc
from mcp_contracts_generator.render.escape import yaml as yaml_scalar
from ruamel.yaml import YAML


@pytest.mark.parametrize("text", HOSTILE)
def test_py_literal_round_trips(text: str) -> None:
    literal = py(text)
    assert ast.literal_eval(literal) == text
    assert "\n" not in literal and "\r" not in literal


# JSON values; `__proto__` as a key is `ts_key`'s own case, below.
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner) | st.dictionaries(st.text().filter(lambda key: key != "__proto__"), inner),
    max_leaves=8,
)


@given(JSON_VALUES)
def test_ts_writes_json_values_as_json_dumps_does(value: Any) -> None:
    """`ts` writes a JSON value as `json.dumps` does, ASCII only: it writes strings and numbers
    without the encoder `json.dumps` makes for each call, and this holds it to that encoder."""
    assert ts(value) == json.dumps(value, separators=(", ", ": "))


@given(st.text())
def test_ts_key_is_a_json_string(name: str) -> None:
    assert ts_key(name) == (f"[{json.dumps(name)}]" if name == "__proto__" else json.dumps(name))


@pytest.mark.parametrize("text", HOSTILE)
def test_md_stays_one_inert_cell(text: str) -> None:
    cell = md(text)
    assert "\n" not in cell and "\r" not in cell
    assert "|" not in cell.replace("&#124;", "")
    assert "<" not in cell and ">" not in cell
    for char in "`*_[]":
        assert cell.count(char) == cell.count("\\" + char), char


@pytest.mark.parametrize(
    ("text", "expected"), [("- item", "\\- item"), ("1. item", "1\\. item"), ("= x", "&#61; x"), ("1.0", "1.0")]
)
def test_md_never_starts_a_block(text: str, expected: str) -> None:
    assert md(text) == expected


class _Cells(HTMLParser):
    """The cells of a rendered table row: each cell's shown text, the text of its code
    elements, and every tag inside it that is not `code`."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.cells: list[dict[str, Any]] = []
        self.in_cell = self.in_code = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "td":
            self.in_cell = True
            self.cells.append({"text": "", "code": [], "tags": []})
        elif self.in_cell and tag == "code":
            self.in_code = True
            self.cells[-1]["code"].append("")
        elif self.in_cell:
            self.cells[-1]["tags"].append(tag)

    def handle_endtag(self, tag: str) -> None:
        self.in_cell = self.in_cell and tag != "td"
        self.in_code = self.in_code and tag != "code"

    def handle_data(self, data: str) -> None:
        if self.in_cell:
            self.cells[-1]["text"] += data
            if self.in_code:
                self.cells[-1]["code"][-1] += data


# The two renderers a generated page meets: Python-Markdown as mkdocs runs it, and CommonMark
# with GitHub's tables (markdown-it), as a repository host shows the page.
RENDERERS = {
    "mkdocs": lambda page: markdown.markdown(page, extensions=["toc", "tables", "fenced_code"]),
    "commonmark": lambda page: MarkdownIt("commonmark").enable("table").render(page),
}


def _rendered_cells(cell: str, renderer: str) -> list[dict[str, Any]]:
    page = f"| a | b | c |\n| --- | --- | --- |\n| x | {cell} | y |\n"
    parser = _Cells()
    parser.feed(RENDERERS[renderer](page))
    return parser.cells


def _spans(text: str) -> list[str]:
    """The code spans a description holds in the subset `prose` lets through."""
    return re.findall(r"(?<!`)`([^`|\s](?:[^`|]*[^`|\s])?)`(?!`)", " ".join(text.split()))


PROSE = [
    *HOSTILE[:-1],
    "see `upgrade_hints`, `sha256:<hex>` and `plan[0]`",
    "`<script>alert(1)</script>` and `[x](javascript:alert(1))` and `**not bold**`",
    "`a | b` is not code: a pipe would split the cell",
    "`` `x` `` and ` spaced ` and `trailing ` and `",
    "a\\`b` and `c\\` then `&amp;` and `&#124;`",
    "- `list`",
    "`x`` y`",
]


@pytest.mark.parametrize("renderer", RENDERERS)
@pytest.mark.parametrize("text", PROSE)
def test_prose_shows_its_code_spans_as_code_and_nothing_else_as_markup(text: str, renderer: str) -> None:
    _prose_renders_as_written(text, renderer)


@pytest.mark.parametrize("renderer", RENDERERS)
def test_any_drawn_description_renders_as_written(renderer: str) -> None:
    hazards = st.sampled_from(list("`|\\<>&*_[]()!#-+=.:;'\" a1é😀\t\n"))

    @settings(max_examples=300, deadline=None, derandomize=True)
    @given(st.lists(hazards | st.sampled_from(["`x`", "``", "&amp;", "&#124;", "<b>", "](", "http://x"])).map("".join))
    def drawn(text: str) -> None:
        _prose_renders_as_written(text, renderer)

    drawn()


@pytest.mark.parametrize("renderer", RENDERERS)
@pytest.mark.parametrize("text", PROSE)
def test_md_shows_any_text_as_written(text: str, renderer: str) -> None:
    _prose_renders_as_written(text, renderer, code=False)


@pytest.mark.parametrize("renderer", RENDERERS)
@pytest.mark.parametrize("char", ["\x00", "\x07", "\x1b", "\x1f", "\x7f", "\x85", "\x9b"])
def test_md_and_prose_show_a_control_character_as_its_escape(char: str, renderer: str) -> None:
    """A control character (ESC, NUL, DEL, C1) from a source is shown as `\\u001b`, in a code
    span or not; none reaches the page raw."""
    shown = f"\\u{ord(char):04x}"
    cell = md(f"a{char}[31m b")
    assert not RAW_CONTROL.search(cell)
    assert _rendered_cells(cell, renderer)[1]["text"].strip() == f"a{shown}[31m b"
    cell = prose(f"a{char}b `c{char}d`")
    assert not RAW_CONTROL.search(cell)
    (rendered,) = _rendered_cells(cell, renderer)[1:2]
    assert rendered["code"] == [f"c{shown}d"] and rendered["text"].strip() == f"a{shown}b c{shown}d"


def _prose_renders_as_written(text: str, renderer: str, *, code: bool = True) -> None:
    """In a table cell, `prose(text)` keeps the row's three cells; its code elements are the
    spans of `text`, as written; it makes no other element; the cell shows `text` (its
    whitespace collapsed) without the backticks around those spans. `md(text)` (not `code`)
    makes no element at all, and shows `text` whole."""
    cell = prose(text) if code else md(text)
    assert "\n" not in cell and "|" not in cell.replace("&#124;", "")
    cells = _rendered_cells(cell, renderer)
    assert [c["text"] for c in cells[::2]] == ["x", "y"], cells
    (shown,) = cells[1:2]
    assert shown["tags"] == [] and shown["code"] == (_spans(text) if code else []), shown
    expected = re.sub(r"(?<!`)`([^`|\s](?:[^`|]*[^`|\s])?)`(?!`)", r"\1", text) if code else text
    assert shown["text"].strip() == re.sub(r"\s+", " ", expected).strip(), shown


def test_hostile_strings_from_sources_cannot_break_outputs(tmp_path: Path) -> None:
    schemas = tmp_path / "schemas"
    folder = schemas / "contracts" / "jsonrpc"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", folder)
    hostile = " ".join(HOSTILE[:-1]) + " emoji 😀 accent é"  # YAML forbids NUL and BEL, folds U+2028
    errors = _read_yaml(folder / "errors.yaml")
    for entry in errors["errors"]:
        entry["message"] = hostile
        entry["description"] = hostile
    _write_yaml(folder / "errors.yaml", errors)
    tools = _read_yaml(folder / "tools.yaml")
    tools["tools"][0]["description"] = hostile
    _write_yaml(folder / "tools.yaml", tools)
    identity = _read_yaml(folder / "contract.yaml")
    # A version is a semantic version, refused otherwise (tests/hostile/cases.py): the most a
    # source may put there is a pre-release and build metadata.
    identity.update(title=hostile, summary=hostile, version="1.0.0-rc.1+build-7")
    _write_yaml(folder / "contract.yaml", identity)
    schema = json.loads((folder / "envelope.schema.json").read_text(encoding="utf-8"))
    schema["description"] = hostile
    schema["properties"]["method"]["description"] = hostile
    (folder / "envelope.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    example = {"id": "1", "jsonrpc": "2.0", "method": "m", "params": {"note": hostile, "fence": "````"}}
    (folder / "examples" / "hostile.json").write_text(json.dumps(example), encoding="utf-8")

    out = tmp_path / "generated"
    outcome = api.run(options.Generate(schemas=schemas, out=out, package="hostile"))
    assert (outcome.findings, outcome.exit_code) == ((), 0)

    package = out / "python" / "hostile" / "jsonrpc"
    for name in ("errors.py", "models.py", "__init__.py"):
        ast.parse((package / name).read_text(encoding="utf-8"))
    with generated_package(out, "jsonrpc", package="hostile") as module:
        assert all(info.message == hostile and info.description == hostile for info in module.ERRORS.values())
        assert module.models.JsonRpcEnvelope.model_fields["method"].description == hostile

    manifest = json.loads((out / "manifests" / "jsonrpc.json").read_text(encoding="utf-8"))
    assert manifest["tools"][0]["description"] == hostile

    page = (out / "docs" / "jsonrpc.md").read_text(encoding="utf-8")
    prose = page.split("## Examples", 1)[0]  # inside a fenced block, a tag is shown, not run
    assert "<script>" not in prose and "<b>" not in prose
    header_pipes = None
    for line in page.splitlines():
        if not line.startswith("|"):
            header_pipes = None
            continue
        header_pipes = header_pipes or line.count("|")
        assert line.count("|") == header_pipes, f"a cell was split: {line}"
    assert "`````json\n" in page, "the example's fence is longer than any backtick run inside"

    site = tmp_path / "site"
    built = run_cli("docs", "--out", str(out), "--site", str(site))
    assert built.returncode == 0, built.stderr
    html = (site / "jsonrpc" / "index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in html and "<b>bold</b>" not in html


def _read_yaml(path: Path) -> dict[str, Any]:
    return json.loads(json.dumps(YAML(typ="safe").load(path)))  # type: ignore[no-any-return]


def _write_yaml(path: Path, data: dict[str, Any]) -> None:
    """JSON is YAML: this writes any string without depending on a YAML emitter's quoting."""
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")


@given(st.text())
def test_toml_gives_a_basic_string_that_reads_back_as_the_text(text: str) -> None:
    """The `toml` filter (the generated pyproject.toml): every text, control characters, DEL,
    quotes and backslashes included, is one basic string that reads back as written; a lone
    surrogate, which no TOML (or UTF-8) string holds, reads back as U+FFFD."""
    expected = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)
    line = f"key = {toml(text)}\n"
    assert "\n" not in line[:-1]
    assert tomllib.loads(line) == {"key": expected}


@pytest.mark.parametrize("text", HOSTILE)
def test_toml_keeps_each_hostile_text(text: str) -> None:
    assert tomllib.loads(f"key = {toml(text)}") == {"key": text.replace("\ud800", "\ufffd")}


# Control characters a terminal or an editor acts on: C0 but newline and tab, DEL, and C1 (NEL
# among them). No generated file holds one raw.
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
CONTROLS = "esc \x1b[31m red nul \x00 del \x7f nel \x85 csi \x9b bel \x07 `code\x1bspan\x00`"


def _yaml_text(data: Any) -> str:
    """JSON is YAML; ASCII only, for YAML refuses a raw NUL, ESC or DEL but reads `\\u001b`."""
    return json.dumps(data, indent=2)


def _controls_everywhere(project: Path) -> None:
    """CONTROLS in the names, titles and descriptions of a contract (what `import` records of
    a server: its name, a tool's title and description), its catalogue, schema and example."""
    folder = project / "schemas" / "contracts" / "jsonrpc"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", folder)
    (project / "pyproject.toml").write_text(
        '[tool.mcp-contracts]\nlanguages = ["python", "typescript"]\nrules_page = true\n', encoding="utf-8"
    )
    identity = _read_yaml(folder / "contract.yaml")
    identity.update(title=f"title {CONTROLS}", summary=f"summary {CONTROLS}")
    identity["columns"]["errors"]["http_status"].update(title=f"column {CONTROLS}", description=CONTROLS)
    (folder / "contract.yaml").write_text(_yaml_text(identity), encoding="utf-8")
    errors = _read_yaml(folder / "errors.yaml")
    for entry in errors["errors"]:
        entry.update(message=f"message {CONTROLS}", description=f"error {CONTROLS}")
    (folder / "errors.yaml").write_text(_yaml_text(errors), encoding="utf-8")
    tools = _read_yaml(folder / "tools.yaml")
    tools["tools"][0].update(name="fetch\x1b[31m\x00\x7f\x85", title=f"tool {CONTROLS}", description=CONTROLS)
    (folder / "tools.yaml").write_text(_yaml_text(tools), encoding="utf-8")
    schema = json.loads((folder / "envelope.schema.json").read_text(encoding="utf-8"))
    schema.update(title=f"Envelope {CONTROLS}", description=f"envelope {CONTROLS}")
    schema["properties"]["method"].update(title=f"method {CONTROLS}", description=f"method {CONTROLS}")
    schema["properties"]["method"]["examples"] = [f"m {CONTROLS}"]
    (folder / "envelope.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    example = {"id": "1", "jsonrpc": "2.0", "method": f"m {CONTROLS}", "params": {}}
    (folder / "examples" / "controls.json").write_text(json.dumps(example), encoding="utf-8")


def _raw_controls(out: Path, *, suffixes: tuple[str, ...] = ()) -> dict[str, list[str]]:
    """Each file under `out` (but those ending in `suffixes`) that holds a raw control
    character, with the characters it holds."""
    found = {}
    for path in sorted(out.rglob("*")):
        if path.is_file() and not path.name.endswith(suffixes):
            held = sorted(set(RAW_CONTROL.findall(path.read_bytes().decode("utf-8"))))
            if held:
                found[path.relative_to(out).as_posix()] = held
    return found


def test_no_generated_file_holds_a_raw_control_character(tmp_path: Path) -> None:
    """ESC, NUL, DEL and C1 controls (NEL, CSI) from the sources reach no generated file raw:
    Markdown shows each as `\\u001b` (in code spans and out), code escapes it, a doc comment
    writes a space. JSON files are held to the same apart from DEL and C1 (next test)."""
    _controls_everywhere(tmp_path)
    result = run_cli("generate", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert _raw_controls(tmp_path / "generated", suffixes=(".json",)) == {}
    in_json = _raw_controls(tmp_path / "generated")
    assert all(char >= "\x7f" for held in in_json.values() for char in held), in_json  # JSON escapes C0
    page = (tmp_path / "generated" / "docs" / "jsonrpc.md").read_text(encoding="utf-8")
    assert "esc \\\\u001b\\[31m red nul \\\\u0000 del \\\\u007f nel \\\\u0085 csi \\\\u009b" in page
    assert "`code\\u001bspan\\u0000`" in page  # a code span shows the escape as written
    assert '"method": "m esc \\u001b[31m red nul \\u0000 del \\u007f nel \\u0085' in page  # the example's JSON


def test_no_generated_json_file_holds_a_raw_del_or_c1_control(tmp_path: Path) -> None:
    """JSON writes DEL and the C1 controls as `\\u` escapes too (`render/json_text.py`): the
    same values, no raw control character in a listing, a manifest or a bundle."""
    _controls_everywhere(tmp_path)
    assert run_cli("generate", cwd=tmp_path).returncode == 0
    assert _raw_controls(tmp_path / "generated") == {}


@pytest.mark.parametrize("text", ["\x7f", "\x85", "\x9b", "a\x1b[31m\x00b", "\x9f\x80"])
def test_yaml_toml_and_doc_comments_hold_no_raw_control_character(text: str) -> None:
    """mkdocs.yml's scalars (YAML refuses DEL and C1 raw) and pyproject.toml's strings read back
    as the text; a TypeScript doc comment writes a space for each."""
    scalar = yaml_scalar(text)
    assert not RAW_CONTROL.search(scalar) and YAML(typ="safe").load(f"key: {scalar}\n") == {"key": text}
    string = toml(text)
    assert not RAW_CONTROL.search(string) and tomllib.loads(f"key = {string}") == {"key": text}
    assert not RAW_CONTROL.search(tsdoc(f"x {text} y"))
