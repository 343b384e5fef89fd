"""Generated Python as the pinned black writes it, so that the bytes are stable.

`CodeFormatter` is the same step as a datamodel-code-generator custom formatter (its
`custom_formatters` option names this module): models.py leaves it formatted, its
`MISSING` named `ABSENT` first, so that black formats the names it keeps.
"""

from __future__ import annotations

import ast
import io
import os
import re
import threading
import tokenize
from functools import lru_cache

import black
from black.mode import TargetVersion
from black.parsing import InvalidInput
from datamodel_code_generator.format import CustomCodeFormatter

BLACK_MODE = black.Mode(target_versions={TargetVersion.PY311}, line_length=88)

# From this size on, a module is formatted as two halves at once, one of them in a forked
# child: black takes about 6 s a megabyte, and a SchemaStore-sized schema (a 1.2 MB bundle of
# 200 definitions) makes 1.6 MB of models.py. Below it, the fork costs more than it saves.
HALVES_FROM = 256 * 1024
_LINE_END = re.compile(r"\r\n?|\n")


@lru_cache(maxsize=256)
def format_python(code: str) -> str:
    """`code` formatted by the pinned black. A pure function of `code`: a process that formats
    the same text again (a second `generate`, the test suite) takes the text it made."""
    halves = _halves(code) if len(code) >= HALVES_FROM and _may_fork() else None
    if halves is not None:
        try:
            return _format_first_here_second_in_a_child(*halves)
        except InvalidInput:
            pass  # black refuses a half: the whole says whether it is wrong, and where
    return black.format_str(code, mode=BLACK_MODE)


def _may_fork() -> bool:
    """Whether this process may fork: it can, and it runs one thread (a fork copies only the
    calling thread, and a lock another one held would stay held in the child)."""
    return hasattr(os, "fork") and threading.active_count() == 1


def _halves(code: str) -> tuple[str, str] | None:
    """`code` cut before the top-level class nearest its middle, where two blank lines lead
    to it: black writes each half as it writes it in the whole (a top-level class follows two
    blank lines, and nothing before them changes how it is written), so the halves, written
    apart and joined by those two lines, are the whole as black writes it (tested). None
    where no such class is, or `code` does not parse (black says why)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    # where each line begins, lines ended as the parser ends them (\n, \r\n or \r)
    offsets = [0, *(found.end() for found in _LINE_END.finditer(code))]
    classes = [node.lineno - 1 for node in tree.body[1:] if isinstance(node, ast.ClassDef) and not node.decorator_list]
    starts = [offsets[line] for line in classes if line < len(offsets)]
    cuts = [at for at in starts if code.startswith("class ", at) and code.endswith("\n\n\n", 0, at)]
    if not cuts:
        return None
    cut = min(cuts, key=lambda at: abs(at - len(code) // 2))
    return code[:cut], code[cut:]


def _format_first_here_second_in_a_child(first: str, second: str) -> str:
    """black's text of `first` + `second`, each half formatted apart: the second in a forked
    child while this process formats the first. Should the child fail, this process formats
    the second too (and raises black's error, where black refuses it)."""
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # the child: its half to the pipe, then out without any of the parent's cleanup
        status = 1
        try:
            os.close(read_end)
            text = black.format_str(second, mode=BLACK_MODE).encode("utf-8", "surrogatepass")
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(text)
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    try:
        formatted_first = black.format_str(first, mode=BLACK_MODE)
    finally:
        with os.fdopen(read_end, "rb") as pipe:
            answer = pipe.read()
        _, status = os.waitpid(child, 0)
    formatted_second = (
        answer.decode("utf-8", "surrogatepass") if status == 0 else black.format_str(second, mode=BLACK_MODE)
    )
    return formatted_first + "\n\n" + formatted_second


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
