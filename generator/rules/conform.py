"""The rules of `mcp-contracts conform`: how a live server departs from its contract.

Categories: `session` (the server cannot be talked to as MCP says), `listing` (what
`tools/list` publishes), `result` (what a call returns), `error` (an error result), `fuzz`
(what `--fuzz` finds with arguments drawn from each input schema, or breaking it), `resources`
(what `resources/*` and `prompts/*` answer).
"""

from __future__ import annotations

from . import Rule

C = ("conform",)

CONFORM_RULES = (
    Rule(
        "revision-unsupported",
        C,
        "error",
        "session",
        "The server speaks every protocol revision the contract declares (`protocol:`).",
    ),
    Rule("invalid-response", C, "error", "session", "Every answer is the result MCP defines for its request."),
    Rule("endless-tool-list", C, "error", "session", "Paging through `tools/list` ends."),
    Rule("call-timeout", C, "error", "session", "Every request is answered within `--timeout` seconds."),
    Rule("connection-lost", C, "error", "session", "The server keeps the connection open while it is asked."),
    Rule("call-failed", C, "error", "session", "An example call gets a result, not a JSON-RPC error."),
    Rule(
        "stdout-not-protocol",
        C,
        "error",
        "session",
        "A server over stdio writes nothing to its standard output but MCP messages, one a line.",
    ),
    Rule(
        "bound-exceeded",
        C,
        "error",
        "session",
        "The server can be read within the client's bounds: each answer holds at most `limits.message_bytes` and"
        " nests no deeper than the MCP SDK's JSON parser reads (200 levels), and a run reads at most"
        " `limits.server_bytes` of it in all, in at most `limits.server_seconds`. An answer past its bound is"
        " said of its request (the next gets a new session); a run past its own ends, what remained not asked.",
    ),
    Rule("duplicate-tool", C, "error", "listing", "No tool is listed twice."),
    Rule(
        "surface-unlisted",
        C,
        "error",
        "resources",
        "A server whose contract declares resources, templates or prompts answers their listing (`resources/list`,"
        " `resources/templates/list`, `prompts/list`).",
    ),
    Rule(
        "missing-resource",
        C,
        "error",
        "resources",
        "The server lists every resource (by URI) and every resource template (by name) of the contract.",
    ),
    Rule(
        "resource-differs",
        C,
        "error",
        "resources",
        "A listed resource or template, and what a read of one returns, has the contract's media type; a template"
        " has its URI template.",
    ),
    Rule("read-failed", C, "error", "resources", "Each resource whose contents the contract declares can be read."),
    Rule(
        "resource-contents-invalid",
        C,
        "error",
        "resources",
        "What a read of a JSON resource returns is JSON its `schema:` accepts.",
    ),
    Rule("missing-prompt", C, "error", "resources", "The server lists every prompt of the contract."),
    Rule(
        "prompt-differs",
        C,
        "error",
        "resources",
        "A listed prompt takes each argument of the contract's, required where the contract says, and requires"
        " no other.",
    ),
    Rule(
        "prompt-get-failed",
        C,
        "error",
        "resources",
        "Each prompt whose arguments may all be left out answers `prompts/get` without them.",
    ),
    Rule("missing-tool", C, "error", "listing", "The server lists every tool of the contract."),
    Rule(
        "extra-tool",
        C,
        "error",
        "listing",
        "The server lists no tool the contract lacks (`extra_tools:` in contract.yaml sets the level).",
    ),
    Rule(
        "output-schema-missing",
        C,
        "error",
        "listing",
        "A tool whose results are structured publishes its output schema.",
    ),
    Rule(
        "output-schema-unexpected",
        C,
        "warning",
        "listing",
        "A tool whose results are content publishes no output schema.",
    ),
    Rule(
        "output-schema-differs",
        C,
        "error",
        "listing",
        "A published output schema says what the contract's says: clients judge results by it.",
    ),
    Rule(
        "input-argument-missing",
        C,
        "error",
        "listing",
        "The published input schema names every argument the contract's declares, and requires each one the"
        " contract requires: clients and models send what the listing says.",
    ),
    Rule(
        "input-schema-wider",
        C,
        "note",
        "listing",
        "A published input schema that only accepts more than the contract's (open to other properties, looser"
        " bounds, `null` beside an optional argument) is said once, at its first difference.",
    ),
    Rule(
        "input-schema-differs",
        C,
        "warning",
        "listing",
        "A published input schema says what the contract's says (one that accepts less, or lacks an argument, is an"
        " error of its own; one shown to accept only more, a note).",
    ),
    Rule(
        "input-example-refused",
        C,
        "error",
        "listing",
        "The published input schema accepts the arguments of every example call of the contract.",
    ),
    Rule(
        "schema-unreadable",
        C,
        "error",
        "listing",
        "Every published schema compiles on its own, as a client compiles it.",
    ),
    Rule(
        "schema-not-compared",
        C,
        "note",
        "listing",
        "A published schema too large or too deep to bring to normal form is said not to be compared.",
    ),
    Rule("annotation-differs", C, "error", "listing", "Each hint the server publishes is the contract's."),
    Rule(
        "annotation-missing",
        C,
        "warning",
        "listing",
        "Each hint the contract gives is published, not left to the client's default.",
    ),
    Rule("title-missing", C, "warning", "listing", "A tool the contract gives a title is published with it."),
    Rule("title-differs", C, "warning", "listing", "A published title is the contract's."),
    Rule(
        "tool-field-differs",
        C,
        "error",
        "listing",
        "A tool's `execution`, `_meta` and every other field of its listing are the contract's, as written.",
    ),
    Rule(
        "no-document",
        C,
        "error",
        "result",
        "A structured result carries its document: `structuredContent`, or JSON text content.",
    ),
    Rule(
        "no-structured-content",
        C,
        "error",
        "result",
        "A result of a revision with output schemas carries `structuredContent`.",
    ),
    Rule(
        "structured-content-unexpected",
        C,
        "warning",
        "result",
        "A tool whose results are content sends no `structuredContent`.",
    ),
    Rule(
        "content-type-undeclared",
        C,
        "error",
        "result",
        "A content result holds only the block types the tool declares (`result.content`).",
    ),
    Rule("invalid-text", C, "error", "result", "Text content is JSON the tool's `text_schema` accepts."),
    Rule("invalid-result", C, "error", "result", "The contract accepts every result document."),
    Rule(
        "example-is-error",
        C,
        "error",
        "result",
        "An example call the contract expects to succeed (its `result` is no error document) is not answered"
        " `isError`, nor with an error envelope, whatever `error_results` says.",
    ),
    Rule(
        "example-not-error",
        C,
        "error",
        "result",
        "An example call whose `result` is an error document is answered with an error, not a success.",
    ),
    Rule(
        "example-code-differs",
        C,
        "error",
        "result",
        "An example call whose `result` is an error document is answered with that document's error code.",
    ),
    Rule(
        "example-error-unstructured",
        C,
        "error",
        "result",
        "An example call whose `result` is an error document is answered with an error envelope, not text"
        " (a crash's message), where the contract's errors are structured.",
    ),
    Rule(
        "example-document-differs",
        C,
        "error",
        "result",
        "An example call with `match:` is answered with the values of its `result` there (`exact`: all of them).",
    ),
    Rule(
        "is-error-mismatch",
        C,
        "error",
        "result",
        "`isError` is true exactly when the document is an error envelope.",
    ),
    Rule(
        "catalogue-contradicted",
        C,
        "error",
        "error",
        "An error envelope's fields agree with the catalogue's entry for its code.",
    ),
    Rule("unknown-error-code", C, "error", "error", "An error envelope's code is a code of the catalogue."),
    Rule(
        "undeclared-error-code",
        C,
        "error",
        "error",
        "An error envelope's code is among the `possible_error_codes` of its tool.",
    ),
    Rule(
        "error-not-structured",
        C,
        "warning",
        "error",
        "With `error_results.structured`, an error result carries its envelope in `structuredContent`.",
    ),
    Rule(
        "error-result-outside-schema",
        C,
        "error",
        "error",
        "A structured error result is accepted by the tool's own output schema: strict clients refuse it otherwise.",
    ),
    Rule(
        "error-code-missing",
        C,
        "error",
        "error",
        "A plain-text error names a catalogue code that `error_results.code_pattern` finds.",
    ),
    Rule(
        "error-echoes-argument",
        C,
        "error",
        "error",
        "An error answer carries no value of an argument the tool names in `secret_arguments` (code it was given,"
        " say): in its structuredContent, its text or a JSON-RPC error's message.",
    ),
    Rule(
        "probe-unsupported",
        C,
        "note",
        "error",
        "`--probe-errors` can ask only a tool that has an example call for an error.",
    ),
    Rule(
        "fuzz-crash",
        C,
        "error",
        "fuzz",
        "No fuzzed call ends the connection, and none with arguments the input schema accepts gets an error that"
        " stands for an exception the server did not handle (JSON-RPC's internal error -32603, the Python SDK's"
        " code 0, MCPServer's `Error executing tool NAME`).",
    ),
    Rule("fuzz-hang", C, "error", "fuzz", "Every fuzzed call is answered within `--timeout` seconds."),
    Rule(
        "fuzz-valid-refused",
        C,
        "error",
        "fuzz",
        "Arguments the input schema accepts are not refused as arguments: JSON-RPC -32602, or an error code of a"
        " column with `role: argument_error` (any other error is a domain answer, counted).",
    ),
    Rule(
        "fuzz-invalid-accepted",
        C,
        "error",
        "fuzz",
        "Arguments that break the input schema are refused: a JSON-RPC error of any code, or an `isError` result.",
    ),
    Rule(
        "fuzz-skipped",
        C,
        "note",
        "fuzz",
        "`--fuzz` calls a tool not read-only, destructive or open-world (`openWorldHint` true or not given) only"
        " when `--call-tool` names it; a tool skipped, cut short by `--fuzz-budget`, or left without invalid"
        " arguments though its schema can be broken, is said to be.",
    ),
    Rule(
        "fuzz-degraded",
        C,
        "warning",
        "fuzz",
        "`--fuzz` draws each tool's arguments with hypothesis-jsonschema; where it cannot (a schema it does not"
        " read, a hypothesis release it does not work with), the few synthesised argument sets used are said to be.",
    ),
)
