"""Kept for load/view.py only, until the lead moves it onto the schema core (issue 17):
what this module held is in `schema/` (vocabulary, walk, resolver, proofs, engine, values).
Nothing else may import this module."""

from __future__ import annotations

from .schema.values import json_types

__all__ = ["json_types"]
