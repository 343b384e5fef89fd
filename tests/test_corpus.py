"""Schemas in the shapes real catalogues publish (tests/corpus/) generate, and their models
are never stricter than the judge.

Each folder of tests/corpus/ holds an `envelope.schema.json`, the other schema files it
refers to, and `documents.json`: documents written by hand, `valid` and `invalid`. Each
becomes a contract as a user makes one (`mcp-contracts init`, then the envelope replaced,
the bindings, builders and example that pointed into the scaffold's envelope removed); all
of them are generated in one project by one `generate`. Then, for every document and for
hypothesis-drawn mutations of them: the judge (`validate`'s own path) gives
python-jsonschema's verdict (and the hand-written one), and the generated root model accepts
every document the judge accepts.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import load_json
from corpus_project import CORPUS, DRAWS_PER_SCHEMA, NAMES, PACKAGE, hand_written, module_name
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp_contracts_generator.validate import load_judge
from pydantic import ValidationError
from reference_judge import reference_validator
from schema_strategies import JSON_VALUES, mutations

# One worker runs the module (one generate of the corpus for the module),
# not each worker again (`--dist loadgroup`).
pytestmark = pytest.mark.xdist_group("corpus")

ROOT_URI = "file:///envelope.schema.json"


class Judges:
    """The three verdicts on one corpus schema: the generated judge, python-jsonschema, the models."""

    def __init__(self, out: Path, name: str) -> None:
        folder = CORPUS / name
        schema = load_json(folder / "envelope.schema.json")
        others = {
            f"file:///{p.relative_to(folder).as_posix()}": load_json(p)
            for p in sorted(folder.rglob("*.json"))
            if p.name not in ("envelope.schema.json", "documents.json")
        }
        self.reference = reference_validator(schema, others, ROOT_URI) if others else reference_validator(schema)
        self.judge = load_judge(name, out, PACKAGE)
        self.model = importlib.import_module(f"{PACKAGE}.{module_name(name)}").Envelope

    def verdicts(self, document: Any) -> tuple[bool, bool, bool]:
        text = json.dumps(document, ensure_ascii=False)
        by_judge = self.judge.judge_bytes("document", text.encode()).valid
        try:
            self.model.model_validate_json(text)
            by_model = True
        except ValidationError:
            by_model = False
        return by_judge, self.reference.is_valid(json.loads(text)), by_model


def test_the_corpus_has_the_shapes_it_promises() -> None:
    assert len(NAMES) >= 50
    drafts = {load_json(CORPUS / n / "envelope.schema.json")["$schema"] for n in NAMES}
    assert drafts == {"http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema"}
    for name in NAMES:
        documents = hand_written(name)
        assert documents["valid"] and documents["invalid"], name


@pytest.mark.parametrize("name", NAMES)
def test_documents_get_the_judges_verdict_and_the_models_accept_the_valid(generated_corpus: Path, name: str) -> None:
    judges = Judges(generated_corpus, name)
    for expected, documents in ((True, hand_written(name)["valid"]), (False, hand_written(name)["invalid"])):
        for document in documents:
            by_judge, by_reference, by_model = judges.verdicts(document)
            text = json.dumps(document, ensure_ascii=False)
            assert by_judge == by_reference == expected, f"{text}: judge {by_judge}, jsonschema {by_reference}"
            assert by_model == by_judge, f"{text}: judge {by_judge}, models {by_model}"


@pytest.mark.parametrize("name", NAMES)
def test_drawn_documents_the_judge_accepts_the_models_accept(generated_corpus: Path, name: str) -> None:
    judges = Judges(generated_corpus, name)
    documents = hand_written(name)
    seeds = st.sampled_from(documents["valid"] + documents["invalid"])

    @settings(max_examples=DRAWS_PER_SCHEMA, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(st.one_of(mutations(seeds), mutations(mutations(seeds)), JSON_VALUES))
    def agree(document: Any) -> None:
        by_judge, by_reference, by_model = judges.verdicts(document)
        text = json.dumps(document, ensure_ascii=False)
        assert by_judge == by_reference, f"{text}: judge {by_judge}, jsonschema {by_reference}"
        assert by_model or not by_judge, f"{text}: the judge accepts it, the models refuse it"

    agree()
