# Copied by mcp-contracts from its generator/runtime/__init__.py. Do not edit.
# Needs at run time: pydantic>=2.14, jsonschema-rs>=0.60, msgspec>=0.19.
"""The runtime of generated contracts: the schema as the judge, models as typed views.

A contract's schema, bundled with every resource it refers to, is compiled by jsonschema-rs
into a `Judge` (judge.py). The generated models inherit `JudgedModel` or `JudgedRootModel`
(models.py, root.py): `model_validate` and `model_validate_json` ask the judge first, so they accept
exactly what the schema accepts, then build the typed view, which is never stricter than the
schema. The view of a judged document is built without validating again, by functions
written once per class from its core schema (view.py), trusted once they build a class's first
document as pydantic does (canary.py). Their JSON Schema (`model_json_schema()`, pydantic's
`TypeAdapter`, what the MCP SDK publishes as a tool's `outputSchema`) is the contract's own,
from the package's `published.json` (published.py). The builders fill documents from paths
compiled once (builders.py), and return the model or, for a server that only sends it, the
judged document (`judged`, `dump_json`); JSON text is read and written by msgspec (json_text.py).
A member a document leaves out is `ABSENT` in a model or a builder's call (absent.py).
A resource template (RFC 6570 Levels 1 to 3) is parsed, expanded and matched back to its values
by `UriTemplate` (uri_template.py, the standard library only).

Its private paths into pydantic (view.py, published.py) are taken behind one bar (canary.py).

This package is the generator's own and is copied (black-formatted) into every generated
package as `_runtime/`: generated code needs pydantic, jsonschema-rs and msgspec, and not the
generator. It must import nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .absent import ABSENT
from .builders import Filling, Path, Placements, catalogue_values, json_form, plain
from .json_text import (
    NOT_A_JSON_VALUE,
    NotJson,
    dump_json,
    json_pointer,
    lone_surrogate,
    parse_json,
    short,
)
from .judge import CONTENT_ANNOTATIONS, Judge, Violation, dialect
from .models import JudgedModel, bind, judged
from .published import Published
from .uri_template import TemplateError, UriTemplate
from .view import Integer

if TYPE_CHECKING:
    from .root import JudgedRootModel

__all__ = [
    "ABSENT",
    "CONTENT_ANNOTATIONS",
    "NOT_A_JSON_VALUE",
    "Filling",
    "Integer",
    "Judge",
    "JudgedModel",
    "JudgedRootModel",
    "NotJson",
    "Path",
    "Placements",
    "Published",
    "TemplateError",
    "UriTemplate",
    "Violation",
    "bind",
    "catalogue_values",
    "dialect",
    "dump_json",
    "json_form",
    "json_pointer",
    "judged",
    "lone_surrogate",
    "parse_json",
    "plain",
    "short",
]


def __getattr__(name: str) -> Any:
    """`JudgedRootModel`, imported when a contract first names it (root.py says why)."""
    if name == "JudgedRootModel":
        from .root import JudgedRootModel

        return JudgedRootModel
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
