"""How deep the flow collections (`[...]`, `{...}`) of a YAML text nest, known before the
YAML parser runs.

ruamel's pure-Python scanner spends seconds on `[[[[...` a few thousand deep before it gives
up with a RecursionError, while a source nested deeper than `limits.source_depth` is refused
anyway. `flow_depth` is a lower bound of the depth of the value the text holds: it counts
brackets only where they surely open or close a flow collection. Inside one, plain scalars
cannot hold brackets, so the count is exact there (quoted scalars and comments skipped). In
block context a bracket opens one only where a node begins: after `key: `, after `- ` or
`? ` at the start of a line, or as the first thing in the text. Block scalars (`|`, `>`)
and the lines that may continue a plain scalar are skipped. What it cannot be sure of (a tag
or an anchor before a bracket, a collection on a line of its own) it does not count, and
the parser then decides.
"""

from __future__ import annotations

_OPEN = "[{"
_CLOSE = "]}"


def _skip_quoted(text: str, i: int) -> int:
    """The index after the quoted scalar that starts at `i` (a double-quoted one honours
    backslash escapes, a single-quoted one `''`); the text's end when it is not closed."""
    quote, i = text[i], i + 1
    while i < len(text):
        if quote == '"' and text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            if quote == "'" and text[i + 1 : i + 2] == "'":
                i += 2
                continue
            return i + 1
        i += 1
    return i


def _indent(text: str, i: int) -> int:
    """The number of spaces that start the line at `i`."""
    end = i
    while end < len(text) and text[end] == " ":
        end += 1
    return end - i


def _line_end(text: str, i: int) -> int:
    end = text.find("\n", i)
    return len(text) if end < 0 else end


def _skip_lines_indented_over(text: str, i: int, column: int) -> int:
    """From the line start `i`, the start of the first line that is neither blank nor
    indented more than `column` (the content of a block scalar or a plain scalar's
    continuation lines)."""
    while i < len(text):
        end = _line_end(text, i)
        if text[i:end].strip() and _indent(text, i) <= column:
            return i
        i = end + 1
    return len(text)


def _at(text: str, i: int, chars: str) -> bool:
    """Whether the text ends at `i` or holds one of `chars` there."""
    return i >= len(text) or text[i] in chars


def flow_depth(text: str) -> int:  # one pass over the text; each branch is a YAML rule
    """A lower bound of how deep the flow collections of a YAML text nest (see the module)."""
    deepest = depth = 0
    i, n, line_start = 0, len(text), 0
    may_start = True  # a node may begin here
    skip_over: int | None = None  # the column a block or plain scalar being read is nested under
    node_column = key_column = dash_column = -1
    while i < n:
        char = text[i]
        if char == "\n":
            i += 1
            line_start = i
            if depth == 0:
                if skip_over is not None:
                    i = line_start = _skip_lines_indented_over(text, i, skip_over)
                    skip_over = None
                may_start, node_column, key_column, dash_column = True, -1, -1, -1
            continue
        if char in " \t":
            i += 1
            continue
        if char == "#" and (i == 0 or text[i - 1] in " \t\n"):
            i = _line_end(text, i)
            continue
        if char in _OPEN and may_start:
            depth += 1
            deepest = max(deepest, depth)
            i += 1
            continue
        if char in "\"'" and may_start:
            node_column = i - line_start
            i = _skip_quoted(text, i)
            line_start = text.rfind("\n", 0, i) + 1
            may_start = False
            continue
        if depth > 0:
            if char in _CLOSE:
                depth -= 1
            # a node may begin after `,`, after a `:` that ends a key, and after `? `, the
            # indicator of an explicit key (`{? "a": 1}`)
            may_start = (
                char == ","
                or (char == ":" and _at(text, i + 1, " \t\n,[]{}"))
                or (char == "?" and may_start and _at(text, i + 1, " \t\n"))
            )
            i += 1
            continue
        # block context
        column = i - line_start
        at_line_start = text[line_start:i].strip(" -?") == ""
        if at_line_start and text[i : i + 3] in ("---", "...") and _at(text, i + 3, " \t\n"):
            i += 3
            continue
        if char in "-?" and at_line_start and _at(text, i + 1, " \t\n"):
            dash_column, may_start = column, True
            i += 1
            continue
        if char == ":" and _at(text, i + 1, " \t\n"):
            key_column, may_start = node_column, True
            i += 1
            continue
        if char in "|>" and may_start:
            skip_over = _indent(text, line_start)
            i = _line_end(text, i)
            continue
        # a plain scalar: a key (a `: ` follows on its line) or a value that may go on over
        # the lines indented more than what holds it
        node_column = column
        end = _line_end(text, i)
        separator = text.find(": ", i, end)
        if separator < 0 and text[i:end].endswith(":"):
            separator = end - 1
        comment = text.find(" #", i, end)
        if separator >= 0 and (comment < 0 or separator < comment):
            i = separator
            continue
        skip_over = key_column if may_start and 0 <= key_column < column else dash_column
        may_start = False
        i = end
    return deepest
