"""Load stage: read `schemas/`, validate every source, build the intermediate model."""

from .project import load_project

__all__ = ["load_project"]
