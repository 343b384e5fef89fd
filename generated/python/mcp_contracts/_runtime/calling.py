# Copied by mcp-contracts from its generator/runtime/calling.py. Do not edit.
# Needs at run time: pydantic>=2.14, jsonschema-rs>=0.60, msgspec>=0.19.
"""The client half of a generated contract package: `ContractClient`, the base of each
contract's `tools.Client`, calls the contract's tools, resources and prompts over the MCP
SDK's `ClientSession` and holds both sides of each call to the contract.

Arguments are judged by the tool's `<Name>Arguments` model before anything is sent: a refusal
is pydantic's `ValidationError`, raised before any request. An answer's document is its
`structuredContent`, else the JSON of its first text block that holds some (a revision before
2025-06-18 has no `structuredContent`, and a contract may keep its errors out of it). It is
judged as `conform` judges it: by the envelope's schema (a tool with its own `outputSchema`
by that), `isError` true exactly when the document is an error envelope, and an error's code
one the tool declares. A document the contract refuses raises `AnswerRefused`; an error
answer that holds no document (a crash's text) raises `ToolCallFailed`. An error envelope is
an answer like any other: `_call` returns it as the envelope model, `isError` or not, for the
caller to branch on (`if not answer.root.success: ...`). What the client knows beyond the
binding's models is the package's `serving.json` (`ContractBinding.data()`).

The runtime imports the SDK (`mcp`) only inside functions: tools.py imports without it.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from .absent import ABSENT
from .json_text import NotJson, json_path, parse_json
from .judge import Violation, schema_violations
from .serving_json import MISSING, value_at
from .uri_template import UriTemplate

if TYPE_CHECKING:
    import jsonschema_rs
    from mcp import ClientSession
    from mcp.types import CallToolResult, GetPromptResult

    from .serving_binding import ContractBinding

__all__ = ["AnswerRefused", "ContractClient", "ToolCallFailed"]

_MISSING = MISSING
E = TypeVar("E", bound=BaseModel)
"""The contract's envelope model (`Envelope`), what `_call` returns."""


class ToolCallFailed(Exception):
    """An error answer (`isError: true`) that holds no document: its text is the message
    (`.text`); `.tool` the tool called, `.result` the SDK's `CallToolResult`."""

    def __init__(self, tool: str, text: str, result: Any = None) -> None:
        super().__init__(text)
        self.tool = tool
        self.text = text
        self.result = result


class AnswerRefused(ValueError):
    """An answer the contract refuses: `.what` is the tool (or the resource's URI), `.violations`
    each way the answer breaks the contract, `.document` the answer's document, if any.
    """

    def __init__(
        self, what: str, violations: Sequence[Violation], document: Any = None
    ) -> None:
        said = "; ".join(f"{v.pointer or '/'}: {v.message}" for v in violations)
        super().__init__(f"{what}: the contract refuses the answer: {said}")
        self.what = what
        self.violations = tuple(violations)
        self.document = document

    @property
    def tool(self) -> str:
        return self.what


def _plain(value: Any) -> Any:
    """`value` as JSON values: a model by its dump (by the schema's names), inside lists and
    objects too; `ABSENT` members left out. Everything else is left for the judge to refuse.
    """
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True)
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items() if v is not ABSENT}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _text(block: Any) -> str | None:
    """The text of a text content block; None for a block of another type."""
    text = getattr(block, "text", None)
    return (
        text
        if getattr(block, "type", None) == "text" and isinstance(text, str)
        else None
    )


def _violations(error: ValidationError) -> list[Violation]:
    return [Violation(tuple(e["loc"]), e["msg"]) for e in error.errors()]


class ContractClient(Generic[E]):
    """Calls a contract's tools, resources and prompts over an initialized `ClientSession`
    (see the module). The generated `tools.Client` gives it a typed method each; its own
    attributes all begin with `_`, so that no tool's method (a tool named `session`) meets one.
    """

    def __init__(self, session: ClientSession, binding: ContractBinding) -> None:
        self._session = session
        self._binding = binding
        self._validators: dict[str, jsonschema_rs.Validator] = {}

    # ------------------------------------------------------------ what the contract says

    @property
    def _revision(self) -> str:
        """The revision of `serving.json`'s `at` the session speaks: the newest one not after
        the version it negotiated, else the oldest (the newest before it negotiated one).
        """
        version = getattr(self._session, "protocol_version", None)
        serving = self._binding.serving()
        return (
            serving.served_as(version)
            if isinstance(version, str)
            else max(serving.raw["at"])
        )

    def _facts(self, tool: str) -> Mapping[str, Any]:
        results: Mapping[str, Any] = self._binding.data()["results"][tool]
        return results

    # ------------------------------------------------------------ tools

    async def _call(self, tool: str, arguments: Mapping[str, Any] | BaseModel) -> E:
        """Call `tool` with `arguments` (`ABSENT` ones left out), judged first: its answer as
        the envelope model, an error envelope too (`isError` or not)."""
        if self._facts(tool)["own_output"]:
            raise TypeError(
                f"{tool} answers its own outputSchema: call it with `_call_document`"
            )
        result = await self._answer(tool, arguments)
        envelope: E = self._judged(
            tool, self._document_or_fail(tool, result), bool(result.is_error)
        )
        return envelope

    async def _call_document(
        self, tool: str, arguments: Mapping[str, Any] | BaseModel
    ) -> Any:
        """`_call`, for a tool with an `outputSchema` of its own (or any tool): the answer's
        document as the contract accepts it, not a model."""
        result = await self._answer(tool, arguments)
        document = self._document_or_fail(tool, result)
        self._judged(tool, document, bool(result.is_error))
        return document

    async def _call_content(
        self, tool: str, arguments: Mapping[str, Any] | BaseModel
    ) -> CallToolResult:
        """`_call`, for a tool whose results are content (`result.structured: false`): the
        SDK's result, judged: a success's blocks each of a type the tool declares, the JSON of
        each text block met by its `text_schema`; an error's envelope, if it holds one.
        """
        result = await self._answer(tool, arguments)
        if not result.is_error:
            self._content(tool, result)
            return result
        document = self._document(tool, result)
        if document is not _MISSING:
            self._judged(tool, document, True)
        return result

    async def _answer(
        self, tool: str, arguments: Mapping[str, Any] | BaseModel
    ) -> CallToolResult:
        """The SDK's result of calling `tool` with the judged `arguments`; a refusal is
        pydantic's `ValidationError`, raised before anything is sent."""
        model = self._binding.arguments.get(tool)
        if model is None:
            raise ValueError(f"the contract has no tool {tool!r}")
        document = _plain(arguments)
        model.model_validate(document)
        from mcp.types import CallToolResult

        result = await self._session.call_tool(tool, document)
        if not isinstance(result, CallToolResult):
            raise ToolCallFailed(
                tool,
                f"{tool}: the server answered a {type(result).__name__}, not a result",
                result,
            )
        return result

    def _document_or_fail(self, tool: str, result: CallToolResult) -> Any:
        """The answer's document; ToolCallFailed for an error answer without one."""
        document = self._document(tool, result)
        if document is not _MISSING:
            return document
        if result.is_error:
            texts = [text for text in map(_text, result.content) if text is not None]
            raise ToolCallFailed(
                tool, " ".join(texts) or f"{tool}: an error answer with no text", result
            )
        raise AnswerRefused(
            tool, [Violation((), "no structuredContent and no JSON text")]
        )

    def _document(self, tool: str, result: CallToolResult) -> Any:
        """The answer's document: its `structuredContent` where the contract puts it there at
        the session's revision (`at[revision].structured`, and `errors.structured` for an
        error), else the JSON of its first text block that holds some (an object, for an error:
        a crash's text such as `404` is no envelope); the other where the one is missing.
        """
        data = self._binding.data()
        carried = tool in data["at"][self._revision]["structured"]
        structured_first = carried and (
            not result.is_error or data["errors"]["structured"]
        )
        text = self._text_document(result)
        found = (
            (result.structured_content, text)
            if structured_first
            else (text, result.structured_content)
        )
        return next((d for d in found if d is not None and d is not _MISSING), _MISSING)

    @staticmethod
    def _text_document(result: CallToolResult) -> Any:
        for text in map(_text, result.content):
            if text is None:
                continue
            try:
                document = parse_json(text)
            except NotJson:
                continue
            if not result.is_error or isinstance(document, dict):
                return document
        return _MISSING

    def _judged(self, tool: str, document: Any, is_error: bool) -> Any:
        """The document as the contract accepts it (see the module), or AnswerRefused."""
        own = bool(self._facts(tool)["own_output"])
        model: Any = None
        if own:
            schema = self._binding.serving().tools[tool]["outputSchema"]
            violations = schema_violations(
                self._validators, f"output:{tool}", schema, document
            )
        else:
            try:
                model = self._binding.envelope.model_validate(document)
                violations = []
            except ValidationError as error:
                violations = _violations(error)
        if not violations:
            violations = self._error_violations(tool, document, is_error)
        if violations:
            raise AnswerRefused(tool, violations, document)
        return document if own else model

    def _error_violations(
        self, tool: str, document: Any, is_error: bool
    ) -> list[Violation]:
        """`isError` against the document's kind, and an error's code against the tool's
        declared codes (`conform`'s is-error-mismatch and undeclared-error-code)."""
        serving = self._binding.serving()
        code_at = serving.errors["code_at"]
        if code_at is None:
            return []  # the contract says not where a document's code is
        code = value_at(document, code_at)
        error = serving.is_error(document)
        if error != is_error:
            kind = "an error envelope" if error else "a success"
            return [
                Violation(
                    (),
                    f"isError is {str(is_error).lower()}, but the document is {kind}",
                )
            ]
        contradicted = serving.contradictions(document)
        if contradicted:
            return [
                Violation(json_path(pointer), message)
                for pointer, message in contradicted
            ]
        declared = self._facts(tool)["codes"]
        if isinstance(code, str) and declared is not None and code not in declared:
            listed = ", ".join(declared) or "none"
            return [
                Violation(
                    json_path(code_at),
                    f"{code!r} is not among the codes the tool declares ({listed})",
                )
            ]
        return []

    def _content(self, tool: str, result: CallToolResult) -> None:
        """A success of a tool whose results are content: its blocks, each of a type the tool
        declares, the JSON of each text block met by the tool's `text_schema`."""
        facts = self._facts(tool)
        declared, text_schema = facts["content"], facts["text_schema"]
        violations: list[Violation] = []
        for index, block in enumerate(result.content):
            kind = getattr(block, "type", None)
            if declared is not None and kind not in declared:
                violations.append(
                    Violation(
                        ("content", index),
                        f"{kind!r} is a type the tool does not declare",
                    )
                )
            text = _text(block)
            if text is None or text_schema is None:
                continue
            try:
                found = schema_violations(
                    self._validators, f"text:{tool}", text_schema, parse_json(text)
                )
            except NotJson:
                found = [Violation((), "not JSON, which the tool's text_schema wants")]
            violations += [
                Violation(("content", index, *v.path), v.message) for v in found
            ]
        if violations:
            raise AnswerRefused(tool, violations)

    # ------------------------------------------------------------ resources and prompts

    async def _read(self, uri: str) -> str | bytes:
        """The contents of the resource at `uri`: its text, or its blob's bytes."""
        if uri not in self._binding.resources and not any(
            UriTemplate.parse(template).match(uri) is not None
            for template in self._binding.templates
        ):
            raise ValueError(
                f"{uri!r} is no resource of the contract, nor matches any of its templates"
            )
        result = await self._session.read_resource(uri)
        contents = getattr(result, "contents", None)
        if not contents:
            raise AnswerRefused(uri, [Violation(("contents",), "no contents")])
        first = contents[0]
        text = getattr(first, "text", None)
        if isinstance(text, str):
            return text
        blob = getattr(first, "blob", None)
        if not isinstance(blob, str):
            raise AnswerRefused(
                uri, [Violation(("contents", 0), "neither text nor a blob")]
            )
        try:
            return base64.b64decode(blob, validate=True)
        except ValueError:
            raise AnswerRefused(
                uri, [Violation(("contents", 0, "blob"), "not base64")]
            ) from None

    async def _read_template(
        self, template: str, values: Mapping[str, Any]
    ) -> str | bytes:
        """The contents of the resource `template` expands to with `values` (None and `ABSENT`
        leave a variable undefined)."""
        if template not in self._binding.templates:
            raise ValueError(f"{template!r} is no resource template of the contract")
        parsed = UriTemplate.parse(template)
        unknown = sorted(set(values) - set(parsed.variables))
        if unknown:
            raise ValueError(
                f"{template!r} has no variable {', '.join(map(repr, unknown))}"
            )
        given = {
            k: (None if v is ABSENT or v is None else str(v)) for k, v in values.items()
        }
        return await self._read(parsed.expand(given))

    async def _prompt(self, name: str, arguments: Mapping[str, Any]) -> GetPromptResult:
        """The prompt `name` got with `arguments` (None and `ABSENT` left out), judged first by
        the prompt's arguments model (pydantic's ValidationError: nothing is sent)."""
        if name not in self._binding.prompts:
            raise ValueError(f"the contract has no prompt {name!r}")
        model = self._binding.prompts[name][1]
        given = {
            k: v for k, v in arguments.items() if v is not ABSENT and v is not None
        }
        if model is None:
            if given:
                raise ValueError(
                    f"the prompt {name!r} takes no arguments: {', '.join(sorted(given))}"
                )
            sent: dict[str, str] | None = None
        else:
            sent = model.model_validate(given).model_dump(exclude_none=True)
        from mcp.types import GetPromptResult

        result = await self._session.get_prompt(name, sent)
        if not isinstance(result, GetPromptResult):
            raise AnswerRefused(
                name, [Violation((), f"a {type(result).__name__}, not a prompt")]
            )
        return result
