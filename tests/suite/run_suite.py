"""Runs the official JSON Schema Test Suite through the generator, in a process of its own.

Each group's schema becomes a contract (a `$schema` is added where the group has none,
so that the draft decides), generated into a temporary output folder; then each test
instance is judged by `validate`'s own path and by the root model's
`model_validate_json`. Remote references are served from the suite's `remotes/` folder
through `references:` in contract.yaml (a copy in WORKDIR: such a folder stays inside the
project), never a socket.

The project generates TypeScript too (`languages` in a pyproject.toml of WORKDIR), and the
runner writes `cases.json` beside the output folder for tests/ts/judge_suite.mjs, which
judges the same instances with the generated TypeScript modules.

Usage: run_suite.py SUITE WORKDIR [--formats] [--draft draft2020-12|draft7].
Prints one JSON report on standard output.
"""

from __future__ import annotations

import importlib
import json
import shutil
import sys
from pathlib import Path
from typing import Any

from mcp_contracts_generator import api, options
from mcp_contracts_generator.validate import load_judge
from pydantic import ValidationError

DRAFTS = {
    "draft2020-12": "https://json-schema.org/draft/2020-12/schema",
    "draft7": "http://json-schema.org/draft-07/schema#",
}
REMOTES = "http://localhost:1234/"
PACKAGE = "suite_contracts"


def groups(suite: Path, formats: bool, only: str | None = None) -> list[tuple[str, str, dict[str, Any]]]:
    """(draft, contract name, group) for every group of the required files, or of the format
    files, of every draft or of `only`."""
    found = []
    for draft in [only] if only else list(DRAFTS):
        folder = suite / "tests" / draft / ("optional/format" if formats else "")
        for path in sorted(folder.glob("*.json")):
            stem = "".join(c if c.isalnum() else "-" for c in path.stem.lower()).strip("-")
            for index, group in enumerate(json.loads(path.read_text(encoding="utf-8"))):
                name = f"{'a' if draft == 'draft7' else 'b'}{index}-{stem}".replace("--", "-")
                found.append((draft, name, group))
    return found


def write_contract(schemas: Path, draft: str, name: str, group: dict[str, Any], remotes: Path, formats: bool) -> None:
    folder = schemas / "contracts" / name
    folder.mkdir(parents=True)
    schema = group["schema"]
    if isinstance(schema, dict) and "$schema" not in schema:
        schema = {"$schema": DRAFTS[draft], **schema}
    (folder / "envelope.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    contract = {
        "name": name,
        "title": group["description"],
        "version": "1.0.0",
        "summary": group["description"],
        "module": name.replace("-", "_"),
        "formats": "assert" if formats else "annotate",
        "references": {REMOTES: str(remotes.resolve())},
    }
    (folder / "contract.yaml").write_text(json.dumps(contract), encoding="utf-8")
    (folder / "errors.yaml").write_text("errors: []\n", encoding="utf-8")
    (folder / "tools.yaml").write_text("tools: []\n", encoding="utf-8")


def model_verdict(module: Any, data: bytes) -> bool:
    try:
        module.Envelope.model_validate_json(data)
    except ValidationError:
        return False
    return True


def main() -> None:
    suite, work, formats = Path(sys.argv[1]), Path(sys.argv[2]), "--formats" in sys.argv
    only = sys.argv[sys.argv.index("--draft") + 1] if "--draft" in sys.argv else None
    schemas, out = work / "schemas", work / "generated"
    cases = groups(suite, formats, only)
    remotes = work / "remotes"  # a `references:` folder stays inside the project: a copy of the suite's
    shutil.copytree(suite / "remotes", remotes)
    for draft, name, group in cases:
        write_contract(schemas, draft, name, group, remotes, formats)
    (work / "pyproject.toml").write_text(
        '[tool.mcp-contracts]\nlanguages = ["python", "typescript"]\n', encoding="utf-8"
    )
    outcome = api.run(options.Generate(schemas=schemas, out=out, package=PACKAGE))
    report: dict[str, Any] = {"groups": len(cases), "instances": 0, "problems": [str(f) for f in outcome.findings]}
    wrong: list[str] = []
    typescript = [
        {"module": name.replace("-", "_"), "name": f"{draft} {group['description']}", "tests": group["tests"]}
        for draft, name, group in cases
    ]
    (work / "cases.json").write_text(json.dumps(typescript), encoding="utf-8")
    if outcome.loaded:
        sys.path.insert(0, str(out / "python"))
        for draft, name, group in cases:
            judge = load_judge(name, out, PACKAGE)
            module = importlib.import_module(f"{PACKAGE}.{name.replace('-', '_')}")
            for test in group["tests"]:
                data = json.dumps(test["data"]).encode()
                by_validate = judge.judge_bytes("instance", data).valid
                by_model = model_verdict(module, data)
                report["instances"] += 1
                if by_validate != test["valid"] or by_model != test["valid"]:
                    wrong.append(
                        f"{draft} {group['description']} / {test['description']}: suite {test['valid']},"
                        f" validate {by_validate}, model_validate_json {by_model}"
                    )
    report["wrong"] = wrong
    json.dump(report, sys.stdout, indent=2)


if __name__ == "__main__":
    main()
