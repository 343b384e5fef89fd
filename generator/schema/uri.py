"""URI references as schemas use them: split off a fragment, resolve against a base.

`urllib.parse.urljoin` knows the hierarchical schemes only: it forgets the base of a
fragment-only reference under `urn:` or `tag:`, which schemas use as `$id`s. `join` does not.
"""

from __future__ import annotations

from urllib.parse import urljoin


def defrag(uri: str) -> tuple[str, str]:
    """(the URI without its fragment, the fragment): never an error, whatever the text."""
    head, _, fragment = uri.partition("#")
    return head, fragment


def join(base: str, reference: str) -> str:
    """`reference` resolved against `base` (RFC 3986 for the cases schemas use): a fragment
    keeps the base, which `urljoin` forgets for schemes it does not know (`urn:`, `tag:`)."""
    if not base:
        return reference
    if reference.startswith("#"):
        return defrag(base)[0] + reference
    try:
        return urljoin(base, reference)
    except ValueError:  # not a URI (`http://[`): it names nothing
        return reference
