"""Kept for load/describe.py only, until the lead moves it onto the schema core (issue 17):
JSON pointers are `schema/pointer.py`'s. Nothing else may import this module."""

from __future__ import annotations

from .schema.pointer import resolve as resolve_pointer

__all__ = ["resolve_pointer"]
