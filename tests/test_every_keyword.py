"""A contract a user brings: every keyword of draft 2020-12, and `$ref`s across files.

`tests/contracts/every-keyword/` is generated into a temporary folder. Its envelope uses
every keyword a schema can use and refers to two more files, one by path and one by the
`$id` it declares (the way prov-spec's schemas refer to each other). python-jsonschema,
reading those files itself, is the reference; the generated models and `validate` must
give its verdict on every instance.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema_specifications
import pytest
from conftest import ROOT, generated_package, load_json, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp_contracts_generator import api
from mcp_contracts_generator.runtime import Judge
from mcp_contracts_generator.validate import ContractJudge
from pydantic import ValidationError
from reference_judge import reference_validator
from schema_strategies import from_schema, mutations

# One worker runs the module (one generated package for the module),
# not each worker again (`--dist loadgroup`).
pytestmark = pytest.mark.xdist_group("every-keyword")

FOLDER = ROOT / "tests" / "contracts" / "every-keyword"
ROOT_URI = "file:///envelope.schema.json"
EXAMPLES_DRAWN = 600
# Keywords whose value is one schema, a list of schemas, or a map of names to schemas.
ONE_SCHEMA = {
    "additionalProperties",
    "contains",
    "contentSchema",
    "else",
    "if",
    "items",
    "not",
    "propertyNames",
    "then",
    "unevaluatedItems",
    "unevaluatedProperties",
}
SCHEMA_LIST = {"allOf", "anyOf", "oneOf", "prefixItems"}
SCHEMA_MAP = {"$defs", "dependentSchemas", "patternProperties", "properties"}


def _keywords(schema: Any) -> set[str]:
    """The keywords a schema uses, its subschemas' included (property names are not keywords)."""
    if not isinstance(schema, dict):
        return set()
    found = set(schema)
    for keyword, value in schema.items():
        if keyword in ONE_SCHEMA:
            found |= _keywords(value)
        elif keyword in SCHEMA_LIST:
            found |= {k for sub in value for k in _keywords(sub)}
        elif keyword in SCHEMA_MAP:
            found |= {k for sub in value.values() for k in _keywords(sub)}
    return found


def _source_resources() -> dict[str, Any]:
    """The contract's schema files as the reference reads them: by path, and by declared `$id`."""
    found: dict[str, Any] = {}
    for path in sorted(FOLDER.rglob("*.schema.json")):
        contents = load_json(path)
        found["file:///" + path.relative_to(FOLDER).as_posix()] = contents
        if "$id" in contents:
            found[contents["$id"]] = contents
    return found


def _examples() -> list[Any]:
    return [load_json(p) for p in sorted((FOLDER / "examples").glob("*.json"))]


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("every-keyword")
    shutil.copytree(FOLDER, work / "schemas" / "contracts" / "every-keyword")
    result = run_cli("generate", "--schemas", str(work / "schemas"), "--out", str(work / "generated"))
    assert result.returncode == 0, result.stdout + result.stderr
    return work / "generated"


@pytest.fixture(scope="module")
def package(out: Path) -> Iterator[ModuleType]:
    with generated_package(out, "every_keyword") as module:
        yield module


def test_the_contract_uses_every_keyword_of_draft_2020_12() -> None:
    vocabularies = [
        resource.contents
        for uri, resource in jsonschema_specifications.REGISTRY.items()
        if uri.startswith("https://json-schema.org/draft/2020-12/meta/")
    ]
    defined = {keyword for meta in vocabularies for keyword in meta["properties"]}
    used = {keyword for schema in _source_resources().values() for keyword in _keywords(schema)}
    assert len(defined) > 50
    assert defined - used == {"$vocabulary"}  # it belongs to meta-schemas


def test_the_bundle_carries_every_file_it_refers_to(out: Path) -> None:
    bundle = load_json(out / "python" / "mcp_contracts" / "every_keyword" / "schema.json")
    assert {ROOT_URI, "file:///common/meta.schema.json", "https://example.test/schemas/provenance.schema.json"} <= set(
        bundle["resources"]
    )
    judge = Judge.from_bundle(bundle)  # offline: nothing but the bundle is read
    for example in _examples():
        assert judge.violations(example) == []
    wrong_owner = {**_examples()[0], "meta": {"owner": {"name": ""}}}  # `#named`, from another file
    assert [v.pointer for v in judge.violations(wrong_owner)] == ["/meta/owner/name"]


def test_models_validate_and_the_published_schema_give_the_reference_verdict(package: ModuleType, out: Path) -> None:
    """The models, `validate`, and the standalone `outputSchema` that `tools.json` publishes
    (read by python-jsonschema with no registry, as the MCP SDK's client reads it)."""
    resources = _source_resources()
    root = resources.pop(ROOT_URI)
    reference = reference_validator(root, resources, base_uri=ROOT_URI)
    by_validate = ContractJudge("every-keyword", package.JUDGE)
    loaded = api.load(out.parent / "schemas").project
    assert loaded is not None
    published = reference_validator(loaded.contracts[0].bundle.as_written)  # nothing else: it stands alone
    seeds = st.sampled_from(_examples())
    verdicts = {True: 0, False: 0}

    def model_accepts(text: bytes) -> bool:
        try:
            package.Envelope.model_validate_json(text)
        except ValidationError:
            return False
        return True

    @settings(max_examples=EXAMPLES_DRAWN, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(st.one_of(seeds, mutations(seeds), mutations(mutations(seeds)), from_schema(root)))
    def agree(instance: Any) -> None:
        text = json.dumps(instance).encode()
        expected = reference.is_valid(json.loads(text))
        assert by_validate.judge_bytes("-", text).valid == expected, text
        assert model_accepts(text) == expected, text
        assert published.is_valid(json.loads(text)) == expected, text
        verdicts[expected] += 1

    agree()
    # Both verdicts must be well represented (most mutations of a strict envelope break it).
    assert min(verdicts.values()) >= EXAMPLES_DRAWN // 20, verdicts


def _error_locations(model: Any, value: Any) -> list[tuple[Any, ...]]:
    with pytest.raises(ValidationError) as caught:
        model.model_validate(value)
    return [error["loc"] for error in caught.value.errors()]


def test_each_class_judges_by_its_own_schema(package: ModuleType) -> None:
    models = package.models
    assert models.Signature.model_validate({"algorithm": "ed25519", "value": "12345678"}).value == "12345678"
    assert _error_locations(models.Signature, {"algorithm": "ed25519", "value": "short"}) == [("value",)]
    # oneOf: a rate limit must say when to retry, and nothing else may.
    assert models.Failure.model_validate({"code": "RATE_LIMITED", "retry_after": 1}).retry_after == 1
    assert _error_locations(models.Failure, {"code": "RATE_LIMITED"}) == [("retry_after",)]
    assert _error_locations(models.Failure, {"code": "NOT_FOUND", "retry_after": 1}) != []
    # prefixItems with unevaluatedItems, and contains with minContains and maxContains.
    assert models.Results.model_validate({"hits": [], "score_range": [0, 1]}).score_range == [0, 1]
    assert _error_locations(models.Results, {"hits": [], "score_range": [0, 1, 2]}) == [("score_range",)]
    assert _error_locations(models.Results, {"hits": [], "tags": ["top:a", "top:b", "top:c"]}) == [("tags",)]
    # `$anchor` in another file, and `$dynamicRef` through a recursive outline.
    assert _error_locations(models.Meta, {"owner": {"name": ""}}) == [("owner", "name")]
    assert _error_locations(models.Outline, {"title": "a", "children": [{"title": 1}]}) == [("children", 0, "title")]
    with pytest.raises(ValidationError, match="Invalid JSON"):
        models.Hit.model_validate_json(b'{"id": "a", "score": NaN}')


def test_validate_definition_judges_one_entry(out: Path, tmp_path: Path) -> None:
    rate_limited = tmp_path / "rate-limited.json"
    rate_limited.write_text('{"code": "RATE_LIMITED", "retry_after": 2}', encoding="utf-8")
    no_retry = tmp_path / "no-retry.json"
    no_retry.write_text('{"code": "RATE_LIMITED"}', encoding="utf-8")
    schemas = str(out.parent / "schemas")
    base = ("validate", "--contract", "every-keyword", "--schemas", schemas, "--definition")

    accepted = run_cli(*base, "Failure", str(rate_limited))
    assert (accepted.returncode, accepted.stdout) == (0, f"{rate_limited}: valid\n"), accepted.stderr
    refused = run_cli(*base, "Failure", str(no_retry))
    assert refused.returncode == 1, refused.stderr
    assert refused.stdout.startswith(f"{no_retry}: invalid\n  /retry_after: ")
    # The whole envelope refuses what its `Failure` definition accepts.
    as_envelope = run_cli("validate", "--contract", "every-keyword", "--schemas", schemas, str(rate_limited))
    assert as_envelope.returncode == 1
    unknown = run_cli(*base, "Nope", str(rate_limited))
    assert unknown.returncode == 2
    assert "Nope" in unknown.stderr and "Failure" in unknown.stderr
    assert "Traceback" not in unknown.stderr


def test_the_docs_page_describes_every_definition_and_builds_strictly(out: Path, tmp_path: Path) -> None:
    page = (out / "docs" / "every-keyword.md").read_text(encoding="utf-8")
    for linked in ("Results", "Hit", "Failure", "Outline", "Named", "Meta", "Provenance", "Signature"):
        assert f'<a id="def-{linked.lower()}"></a>' in page  # documented, from whichever file
        assert f"[{linked}](#def-{linked.lower()})" in page  # and linked where a `$ref` names it
    for words in (
        "Rules: if ok: false then requires error, otherwise requires data",  # if/then/else
        "properties no other keyword covers: not allowed",  # unevaluatedProperties
        "Exactly one of: (code: ",  # oneOf branches that are not references
        "at least one of: (requires code)",  # anyOf beside oneOf
        "items in order: number, number",  # prefixItems
        "contains an item: matches ^top:",
        "at most 2 matching items",
        "property names: matches",
        "with card, also requires cvv, with iban: requires bic",
        "must not match: string",
        "content: object",
        "deprecated, read-only, for example",
    ):
        assert words.replace("_", "\\_") in page, words
    result = run_cli("docs", "--out", str(out), "--site", str(tmp_path / "site"))
    assert result.returncode == 0, result.stdout + result.stderr


def test_declared_columns_flow_into_code_docs_and_manifest(out: Path, package: ModuleType) -> None:
    manifest = load_json(out / "manifests" / "every-keyword.json")
    [tool] = manifest["tools"]
    assert list(tool) == ["name", "requires_auth", "possible_error_codes", "inputSchema", "outputSchema", "description"]
    assert tool["inputSchema"]["required"] == ["query"]
    assert {code.value for code in package.errors.RETRYABLE_CODES} == {"RATE_LIMITED", "INTERNAL"}
    assert package.error_info("NOT_FOUND").retryable is False
    page = (out / "docs" / "every-keyword.md").read_text(encoding="utf-8")
    assert "| Tool | Details |" in page  # five columns and more: a line each, titled, in one cell
    assert "search | **Requires auth:** yes<br> **Possible error codes:** [NOT\\_FOUND](#error-not_found)" in page
    assert "- Requires auth: Whether the caller must be signed in." in page


def test_an_undeclared_column_is_reported_at_its_own_line(tmp_path: Path) -> None:
    schemas = tmp_path / "schemas" / "contracts" / "every-keyword"
    shutil.copytree(FOLDER, schemas)
    tools = schemas / "tools.yaml"
    text = tools.read_text(encoding="utf-8").replace("requires_auth: true", "requires_auht: true")
    tools.write_text(text, encoding="utf-8")
    result = run_cli("generate", "--schemas", str(tmp_path / "schemas"), "--out", str(tmp_path / "generated"))
    assert result.returncode == 2
    line = text.splitlines().index("    requires_auht: true") + 1
    assert f"tools.yaml:{line}: 'requires_auht' is not allowed here (additional property)" in result.stderr
