"""A contract package's `serving.json`, read: what the generated server and client both ask
of it (the revision a negotiated version is served at, whether a document is an error and
its code), answered one way for both.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from .json_text import json_path, package_json

MISSING: Any = object()
"""What `value_at` gives for a pointer that names nothing."""


@cache
def serving_data(package: str) -> ServingData:
    """The `serving.json` of the contract package `package`, read once."""
    return ServingData(package_json(package, "serving.json"))


class ServingData:
    """`serving.json` (render/serving_data.py of the generator says what each member holds)."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        outputs = data.get("outputs") or []
        listing = [dict(tool) for tool in data["tools"]]
        for tool in listing:  # a shared outputSchema, said once in `outputs`
            if isinstance(tool.get("outputSchema"), int):
                tool["outputSchema"] = outputs[tool["outputSchema"]]
        self.raw: Mapping[str, Any] = {**data, "tools": listing}
        self.tools: dict[str, dict[str, Any]] = {tool["name"]: tool for tool in listing}
        self._versions: list[str] = sorted(data["at"])

    def served_as(self, version: str | None) -> str:
        """The data's revision for a negotiated `version`: the greatest known one not after
        it, else the oldest (as the generator's `protocol.served_as`)."""
        before = [known for known in self._versions if known <= (version or "")]
        served: str = before[-1] if before else self._versions[0]
        return served

    def at(self, version: str | None) -> Mapping[str, Any]:
        """What the data says of the revision a client of `version` is served at."""
        found: Mapping[str, Any] = self.raw["at"][self.served_as(version)]
        return found

    @property
    def errors(self) -> Mapping[str, Any]:
        found: Mapping[str, Any] = self.raw["errors"]
        return found

    def tells_errors(self) -> bool:
        """Whether the contract says how an error document is told from a success."""
        return self.errors["code_at"] is not None or bool(self.errors["constants"])

    def error_code(self, document: Any) -> str | None:
        """The error code `document` carries where the builders put one (a string), or None."""
        pointer = self.errors["code_at"]
        value = value_at(document, pointer) if pointer is not None else MISSING
        return value if isinstance(value, str) else None

    def contradictions(self, document: Any) -> list[tuple[str, str]]:
        """(pointer, message) of each value of an error document that contradicts what the
        catalogue says of its code (`errors.derived`: `retryable`, an error type...)."""
        code = self.error_code(document)
        expected = self.errors.get("derived", {}).get(code, ()) if code is not None else ()
        found = []
        for pointer, value in expected:
            held = value_at(document, pointer)
            if held is MISSING or not same_json(held, value):
                said = "missing" if held is MISSING else repr(held)
                found.append((pointer, f"{said}, where the catalogue gives {code!r} {value!r}"))
        return found

    def is_error(self, document: Any) -> bool:
        """Whether `document` is an error by the contract's marks: a code where the builders
        put one, or every constant that tells an error from a success."""
        if self.error_code(document) is not None:
            return True
        constants = self.errors["constants"]
        return bool(constants) and all(same_json(value_at(document, p), value) for p, value in constants)


def value_at(document: Any, pointer: str) -> Any:
    """The value an RFC 6901 pointer names in `document`, or `MISSING`."""
    value = document
    for key in json_path(pointer):
        if isinstance(value, dict) and key in value:
            value = value[key]
        elif isinstance(value, list) and key.isdigit() and (key == "0" or not key.startswith("0")):
            if int(key) >= len(value):
                return MISSING
            value = value[int(key)]
        else:
            return MISSING
    return value


def same_json(a: Any, b: Any) -> bool:
    """JSON equality: `false` is not `0`, `1` is `1.0`, objects by keys, arrays in order."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return type(a) is type(b) and bool(a == b)
