"""Strings that break what is not escaped: quotes, backslashes, newlines, Markdown, HTML, Jinja,
shell and Python injection, control and non-BMP characters. The escaping tests put each in a
source and check the generated code and docs."""

from __future__ import annotations

HOSTILE = [
    'quote " and triple """ and \'\'\'',
    "back\\slash \\n not a newline",
    "new\nline\r\nand\ttab",
    "pipe | in | cells",
    "<script>alert(1)</script> <b>bold</b> &amp;",
    "`code` ``double`` ```fence```",
    "**strong** _em_ [link](http://x) ![img](y) # heading",
    "{{ jinja }} {% raw %} ${shell}",
    "'); import os; os.system('echo pwned') #",
    "- a list item",
    "1. a numbered item",
    "nul \x00 bell \x07 line-sep \u2028 emoji 😀 accent é",
]
