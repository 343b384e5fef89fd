"""`ABSENT`: what a field or a builder's parameter holds when its member is not in the
document.

JSON tells a member that is absent from one that is null, and so do the generated models
and builders: an optional field holds `ABSENT` while its member is left out, a dump leaves
it out, and a type checker narrows `str | ABSENT` to `str` after `is not ABSENT`. (It is
what openapi-python-client calls `UNSET`.)

It is pydantic's own sentinel (`pydantic.MISSING`, experimental since pydantic 2.12) under
the runtime's name, since pydantic leaves a field out of its dumps for that object only.
Generated code names `ABSENT` alone: a change of pydantic's is a change here.
"""

from __future__ import annotations

from pydantic import MISSING as ABSENT

__all__ = ["ABSENT"]
