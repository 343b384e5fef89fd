"""Generated Python as the pinned black writes it, so that the bytes are stable.

`CodeFormatter` is the same step as a datamodel-code-generator custom formatter (its
`custom_formatters` option names this module): models.py leaves it formatted, its
`MISSING` named `ABSENT` first, so that black formats the names it keeps.
"""

from __future__ import annotations

import io
import tokenize
from functools import lru_cache

import black
from black.mode import TargetVersion
from black.parsing import InvalidInput
from datamodel_code_generator.format import CustomCodeFormatter

BLACK_MODE = black.Mode(target_versions={TargetVersion.PY311}, line_length=88)


@lru_cache(maxsize=256)
def format_python(code: str) -> str:
    """`code` formatted by the pinned black, in one piece (black's public `format_str`). A
    pure function of `code`: a process that formats the same text again (a second
    `generate`, the test suite) takes the text it made."""
    return black.format_str(code, mode=BLACK_MODE)


class FormatRefused(Exception):
    """black refused generated code: the code and black's message (which names a line), so
    that the caller can tell which class of the code it was."""

    def __init__(self, code: str, refusal: str) -> None:
        self.code = code
        self.refusal = refusal
        super().__init__(refusal)


def absent_named(code: str) -> str:
    """`code` with pydantic's `MISSING` sentinel under the runtime's name, `ABSENT`
    (runtime/absent.py): every name `MISSING` but a field's own (`MISSING: str`), which a
    property of that name keeps."""
    if "MISSING" not in code:
        return code
    lines = code.splitlines(keepends=True)
    tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    renamed = []
    for index, token in enumerate(tokens):
        if token.type != tokenize.NAME or token.string != "MISSING":
            continue
        before = tokens[index - 1].type if index else tokenize.NEWLINE
        after = tokens[index + 1].string if index + 1 < len(tokens) else ""
        if before in (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT) and after == ":":
            continue  # a field of that name
        renamed.append(token.start)
    for row, column in reversed(renamed):
        line = lines[row - 1]
        lines[row - 1] = line[:column] + "ABSENT" + line[column + len("MISSING") :]
    return "".join(lines)


class CodeFormatter(CustomCodeFormatter):
    """datamodel-code-generator's last formatter: `absent_named`, then the pinned black."""

    def apply(self, code: str) -> str:
        try:
            return format_python(absent_named(code))
        except InvalidInput as exc:
            raise FormatRefused(code, str(exc)) from exc
