"""Generated Python as the pinned black writes it, so that the bytes are stable.

`CodeFormatter` is the same step as a datamodel-code-generator custom formatter (its
`custom_formatters` option names this module): models.py leaves it formatted.
"""

from __future__ import annotations

import black
from black.mode import TargetVersion
from datamodel_code_generator.format import CustomCodeFormatter

BLACK_MODE = black.Mode(target_versions={TargetVersion.PY311}, line_length=88)


def format_python(code: str) -> str:
    """`code` formatted by the pinned black."""
    return black.format_str(code, mode=BLACK_MODE)


class CodeFormatter(CustomCodeFormatter):
    """datamodel-code-generator's last formatter: the pinned black."""

    def apply(self, code: str) -> str:
        return format_python(code)
