"""Generated Python as the pinned black writes it, so that the bytes are stable.

`CodeFormatter` is the same step as a datamodel-code-generator custom formatter (its
`custom_formatters` option names this module): models.py leaves it formatted.
"""

from __future__ import annotations

import black
from black.mode import TargetVersion
from black.parsing import InvalidInput
from datamodel_code_generator.format import CustomCodeFormatter

BLACK_MODE = black.Mode(target_versions={TargetVersion.PY311}, line_length=88)


def format_python(code: str) -> str:
    """`code` formatted by the pinned black."""
    return black.format_str(code, mode=BLACK_MODE)


class FormatRefused(Exception):
    """black refused generated code: the code and black's message (which names a line), so
    that the caller can tell which class of the code it was."""

    def __init__(self, code: str, refusal: str) -> None:
        self.code = code
        self.refusal = refusal
        super().__init__(refusal)


class CodeFormatter(CustomCodeFormatter):
    """datamodel-code-generator's last formatter: the pinned black."""

    def apply(self, code: str) -> str:
        try:
            return format_python(code)
        except InvalidInput as exc:
            raise FormatRefused(code, str(exc)) from exc
