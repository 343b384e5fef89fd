"""A large module is formatted in two halves at once (render/python_format.py): the result is
black's text of the whole, byte for byte, and a cut never falls anywhere but before a top-level
class. The formatting runs in a process of its own: the fork needs a process of one thread,
which a pytest-xdist worker is not."""

from __future__ import annotations

import subprocess
import sys

import black
import pytest
from mcp_contracts_generator.render.python_format import BLACK_MODE, _halves

# Strings that black must keep as they are, in docstrings and in arguments; one holds what a
# cut looks for (two blank lines, then `class `) inside a string.
HOSTILE = [
    'say "hi" and \\"escaped\\"',
    "a real\nnewline, a\ttab, unicode é 中文 🎉",
    "\n\n\nclass NotAClass(Base):\n    inside: a string\n",
    " ".join(["a long description that goes on"] * 12),
]


def _module(classes: int) -> str:
    """A module of `classes` models in the form datamodel-code-generator leaves them before
    black (long lines, a class in a string), about 1 KB each."""
    parts = ['"""A module."""\n\nfrom __future__ import annotations\n\nfrom pydantic import BaseModel, Field\n']
    for index in range(classes):
        text = HOSTILE[index % len(HOSTILE)]
        parts.append(
            f"class Model{index}(BaseModel):\n"
            f"    {text!r}\n"
            f"    name: str = Field(..., description={text!r}, title='Name {index}', examples=['a', 'b', 'c', 'd'])\n"
            f"    size: int | None = Field(None, description={HOSTILE[(index + 1) % len(HOSTILE)]!r}, ge=0)\n"
            f"    tags: list[str] = Field(default_factory=list, description='tags', max_length={index % 9 + 1})\n"
        )
    parts.append("Model0.model_rebuild()\n")
    return "\n\n".join(parts)


FORMAT = """
import os, sys
import black
from mcp_contracts_generator.render import python_format

if sys.argv[1] == "child-fails":  # black raises in the forked child only: the parent does its half
    parent, format_str = os.getpid(), black.format_str

    def in_parent_only(code, mode):
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        return format_str(code, mode=mode)

    black.format_str = in_parent_only
assert python_format._may_fork()
python_format.HALVES_FROM = 0  # in halves at any size: the test's module is small, to be quick
sys.stdout.buffer.write(python_format.format_python(sys.stdin.read()).encode("utf-8", "surrogatepass"))
"""


@pytest.mark.parametrize("child", ["child-formats", "child-fails"])
def test_a_large_module_in_halves_is_what_black_writes_of_the_whole(child: str) -> None:
    code = _module(60)
    first, second = _halves(code) or ("", "")
    assert second.startswith("class Model") and first.endswith("\n\n\n")
    assert 0.3 < len(first) / len(code) < 0.7
    done = subprocess.run(
        [sys.executable, "-c", FORMAT, child], input=code.encode("utf-8"), capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    assert done.stdout.decode("utf-8") == black.format_str(code, mode=BLACK_MODE)


def test_a_cut_falls_only_before_a_class_of_the_module() -> None:
    """The middle of this module is a string that holds two blank lines and `class `, and
    lines the parser ends with a lone carriage return: the cut is before the real class
    nearest the middle, and where there is none, there is no cut."""
    head = "from pydantic import BaseModel\n\n\nclass First(BaseModel):\n    x: int\n\n\n"
    string = "TEXT = '''" + "filler\r" * 2000 + "\n\n\nclass Fake(BaseModel):\n" + "filler\n" * 2000 + "'''\n\n\n"
    last = "class Last(BaseModel):\n" + "    y: int\n" * 2000
    code = head + string + last
    assert _halves(code) == (head + string, last)
    assert _halves("from pydantic import BaseModel\n\n\n" + string) is None  # no class: no cut
    assert _halves("class Broken(:\n") is None  # black says what is wrong, not the cut
