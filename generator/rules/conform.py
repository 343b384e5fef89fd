"""The rules of `mcp-contracts conform`: how a live server departs from its contract.

Categories: `session` (the server cannot be talked to as MCP says), `listing` (what
`tools/list` publishes), `result` (what a call returns), `error` (an error result), `fuzz`
(what `--fuzz` finds with arguments drawn from each input schema, or breaking it), `resources`
(what `resources/*` and `prompts/*` answer).
"""

from __future__ import annotations

from . import Level, Rule, declared

C = ("conform",)


def _error(rule_id: str, category: str, purpose: str) -> Rule:
    return Rule(rule_id, C, Level.ERROR, category, purpose)


def _warning(rule_id: str, category: str, purpose: str) -> Rule:
    return Rule(rule_id, C, Level.WARNING, category, purpose)


def _note(rule_id: str, category: str, purpose: str) -> Rule:
    return Rule(rule_id, C, Level.NOTE, category, purpose)


REVISION_UNSUPPORTED = _error(
    "revision-unsupported", "session", "The server speaks every protocol revision the contract declares (`protocol:`)."
)
INVALID_RESPONSE = _error("invalid-response", "session", "Every answer is the result MCP defines for its request.")
ENDLESS_TOOL_LIST = _error("endless-tool-list", "session", "Paging through `tools/list` ends.")
CALL_TIMEOUT = _error("call-timeout", "session", "Every request is answered within `--timeout` seconds.")
CONNECTION_LOST = _error("connection-lost", "session", "The server keeps the connection open while it is asked.")
CALL_FAILED = _error("call-failed", "session", "An example call gets a result, not a JSON-RPC error.")
STDOUT_NOT_PROTOCOL = _error(
    "stdout-not-protocol",
    "session",
    "A server over stdio writes nothing to its standard output but MCP messages, one a line.",
)
BOUND_EXCEEDED = _error(
    "bound-exceeded",
    "session",
    "The server can be read within the client's bounds: each answer holds at most `limits.message_bytes` and"
    " nests no deeper than the MCP SDK's JSON parser reads (200 levels), and a run reads at most"
    " `limits.server_bytes` of it in all, in at most `limits.server_seconds`. An answer past its bound is"
    " said of its request (the next gets a new session); a run past its own ends, what remained not asked.",
)
DUPLICATE_TOOL = _error("duplicate-tool", "listing", "No tool is listed twice.")
SURFACE_UNLISTED = _error(
    "surface-unlisted",
    "resources",
    "A server whose contract declares resources, templates or prompts answers their listing (`resources/list`,"
    " `resources/templates/list`, `prompts/list`).",
)
MISSING_RESOURCE = _error(
    "missing-resource",
    "resources",
    "The server lists every resource (by URI) and every resource template (by name) of the contract.",
)
RESOURCE_DIFFERS = _error(
    "resource-differs",
    "resources",
    "A listed resource or template, and what a read of one returns, has the contract's media type; a template"
    " has its URI template.",
)
READ_FAILED = _error("read-failed", "resources", "Each resource whose contents the contract declares can be read.")
RESOURCE_CONTENTS_INVALID = _error(
    "resource-contents-invalid", "resources", "What a read of a JSON resource returns is JSON its `schema:` accepts."
)
MISSING_PROMPT = _error("missing-prompt", "resources", "The server lists every prompt of the contract.")
PROMPT_DIFFERS = _error(
    "prompt-differs",
    "resources",
    "A listed prompt takes each argument of the contract's, required where the contract says, and requires"
    " no other.",
)
PROMPT_GET_FAILED = _error(
    "prompt-get-failed",
    "resources",
    "Each prompt whose arguments may all be left out answers `prompts/get` without them.",
)
MISSING_TOOL = _error("missing-tool", "listing", "The server lists every tool of the contract.")
EXTRA_TOOL = _error(
    "extra-tool",
    "listing",
    "The server lists no tool the contract lacks (`extra_tools:` in contract.yaml sets the level).",
)
OUTPUT_SCHEMA_MISSING = _error(
    "output-schema-missing", "listing", "A tool whose results are structured publishes its output schema."
)
OUTPUT_SCHEMA_UNEXPECTED = _warning(
    "output-schema-unexpected", "listing", "A tool whose results are content publishes no output schema."
)
OUTPUT_SCHEMA_DIFFERS = _error(
    "output-schema-differs",
    "listing",
    "A published output schema says what the contract's says: clients judge results by it.",
)
INPUT_ARGUMENT_MISSING = _error(
    "input-argument-missing",
    "listing",
    "The published input schema names every argument the contract's declares, and requires each one the"
    " contract requires: clients and models send what the listing says.",
)
INPUT_SCHEMA_WIDER = _note(
    "input-schema-wider",
    "listing",
    "A published input schema that only accepts more than the contract's (open to other properties, looser"
    " bounds, `null` beside an optional argument) is said once, at its first difference.",
)
INPUT_SCHEMA_DIFFERS = _warning(
    "input-schema-differs",
    "listing",
    "A published input schema says what the contract's says (one that accepts less, or lacks an argument, is an"
    " error of its own; one shown to accept only more, a note).",
)
INPUT_EXAMPLE_REFUSED = _error(
    "input-example-refused",
    "listing",
    "The published input schema accepts the arguments of every example call of the contract.",
)
SCHEMA_UNREADABLE = _error(
    "schema-unreadable", "listing", "Every published schema compiles on its own, as a client compiles it."
)
SCHEMA_NOT_COMPARED = _note(
    "schema-not-compared",
    "listing",
    "A published schema too large or too deep to bring to normal form is said not to be compared.",
)
ANNOTATION_DIFFERS = _error("annotation-differs", "listing", "Each hint the server publishes is the contract's.")
ANNOTATION_MISSING = _warning(
    "annotation-missing", "listing", "Each hint the contract gives is published, not left to the client's default."
)
TITLE_MISSING = _warning("title-missing", "listing", "A tool the contract gives a title is published with it.")
TITLE_DIFFERS = _warning("title-differs", "listing", "A published title is the contract's.")
TOOL_FIELD_DIFFERS = _error(
    "tool-field-differs",
    "listing",
    "A tool's `execution`, `_meta` and every other field of its listing are the contract's, as written.",
)
NO_DOCUMENT = _error(
    "no-document", "result", "A structured result carries its document: `structuredContent`, or JSON text content."
)
NO_STRUCTURED_CONTENT = _error(
    "no-structured-content", "result", "A result of a revision with output schemas carries `structuredContent`."
)
STRUCTURED_CONTENT_UNEXPECTED = _warning(
    "structured-content-unexpected", "result", "A tool whose results are content sends no `structuredContent`."
)
CONTENT_TYPE_UNDECLARED = _error(
    "content-type-undeclared",
    "result",
    "A content result holds only the block types the tool declares (`result.content`).",
)
INVALID_TEXT = _error("invalid-text", "result", "Text content is JSON the tool's `text_schema` accepts.")
INVALID_RESULT = _error("invalid-result", "result", "The contract accepts every result document.")
EXAMPLE_IS_ERROR = _error(
    "example-is-error",
    "result",
    "An example call the contract expects to succeed (its `result` is no error document) is not answered"
    " `isError`, nor with an error envelope, whatever `error_results` says.",
)
EXAMPLE_NOT_ERROR = _error(
    "example-not-error",
    "result",
    "An example call whose `result` is an error document is answered with an error, not a success.",
)
EXAMPLE_CODE_DIFFERS = _error(
    "example-code-differs",
    "result",
    "An example call whose `result` is an error document is answered with that document's error code.",
)
EXAMPLE_ERROR_UNSTRUCTURED = _error(
    "example-error-unstructured",
    "result",
    "An example call whose `result` is an error document is answered with an error envelope, not text"
    " (a crash's message), where the contract's errors are structured.",
)
EXAMPLE_DOCUMENT_DIFFERS = _error(
    "example-document-differs",
    "result",
    "An example call with `match:` is answered with the values of its `result` there (`exact`: all of them).",
)
IS_ERROR_MISMATCH = _error(
    "is-error-mismatch", "result", "`isError` is true exactly when the document is an error envelope."
)
CATALOGUE_CONTRADICTED = _error(
    "catalogue-contradicted", "error", "An error envelope's fields agree with the catalogue's entry for its code."
)
UNKNOWN_ERROR_CODE = _error("unknown-error-code", "error", "An error envelope's code is a code of the catalogue.")
UNDECLARED_ERROR_CODE = _error(
    "undeclared-error-code", "error", "An error envelope's code is among the `possible_error_codes` of its tool."
)
ERROR_NOT_STRUCTURED = _warning(
    "error-not-structured",
    "error",
    "With `error_results.structured`, an error result carries its envelope in `structuredContent`.",
)
ERROR_RESULT_OUTSIDE_SCHEMA = _error(
    "error-result-outside-schema",
    "error",
    "A structured error result is accepted by the tool's own output schema: strict clients refuse it otherwise.",
)
ERROR_CODE_MISSING = _error(
    "error-code-missing", "error", "A plain-text error names a catalogue code that `error_results.code_pattern` finds."
)
ERROR_ECHOES_ARGUMENT = _error(
    "error-echoes-argument",
    "error",
    "An error answer carries no value of an argument the tool names in `secret_arguments` (code it was given,"
    " say): in its structuredContent, its text or a JSON-RPC error's message.",
)
PROBE_UNSUPPORTED = _note(
    "probe-unsupported", "error", "`--probe-errors` can ask only a tool that has an example call for an error."
)
FUZZ_CRASH = _error(
    "fuzz-crash",
    "fuzz",
    "No fuzzed call ends the connection, and none with arguments the input schema accepts gets an error that"
    " stands for an exception the server did not handle (JSON-RPC's internal error -32603, the Python SDK's"
    " code 0, MCPServer's `Error executing tool NAME`).",
)
FUZZ_HANG = _error("fuzz-hang", "fuzz", "Every fuzzed call is answered within `--timeout` seconds.")
FUZZ_VALID_REFUSED = _error(
    "fuzz-valid-refused",
    "fuzz",
    "Arguments the input schema accepts are not refused as arguments: JSON-RPC -32602, or an error code of a"
    " column with `role: argument_error` (any other error is a domain answer, counted).",
)
FUZZ_INVALID_ACCEPTED = _error(
    "fuzz-invalid-accepted",
    "fuzz",
    "Arguments that break the input schema are refused: a JSON-RPC error of any code, or an `isError` result.",
)
FUZZ_SKIPPED = _note(
    "fuzz-skipped",
    "fuzz",
    "`--fuzz` calls a tool not read-only, destructive or open-world (`openWorldHint` true or not given) only"
    " when `--call-tool` names it; a tool skipped, cut short by `--fuzz-budget`, or left without invalid"
    " arguments though its schema can be broken, is said to be.",
)
FUZZ_DEGRADED = _warning(
    "fuzz-degraded",
    "fuzz",
    "`--fuzz` draws each tool's arguments with hypothesis-jsonschema; where it cannot (a schema it does not"
    " read, a hypothesis release it does not work with), the few synthesised argument sets used are said to be.",
)

CONFORM_RULES = declared(globals())
