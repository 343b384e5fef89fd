"""What `conform` and `import` declare as a client, and how they answer what a server asks.

A server may list some tools only to a client that declares roots, sampling or elicitation
(the everything server does): both commands declare all three by default, so that the
listing is the one a full client sees; `--client-capabilities` names fewer (`none`: no
capability). A server that then asks is answered at once, never left waiting: roots/list
with no roots (this client shares no folder), sampling/createMessage with an error (it has
no model), elicitation/create with `decline` (no one is there to answer). A capability not
declared is answered by the SDK's own error.
"""

from __future__ import annotations

from typing import Any

import mcp.types as types
from mcp.client.session import ClientRequestContext

CAPABILITIES = ("roots", "sampling", "elicitation")
DEFAULT: frozenset[str] = frozenset(CAPABILITIES)


def parsed(text: str) -> frozenset[str]:
    """The capabilities `--client-capabilities` names: a comma-separated list of
    roots, sampling and elicitation, or `none`; ValueError says what is wrong."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if names == ["none"]:
        return frozenset()
    unknown = [name for name in names if name not in CAPABILITIES]
    if unknown or not names:
        given = unknown[0] if unknown else text
        raise ValueError(
            f"--client-capabilities {given!r} is not a capability: give some of {', '.join(CAPABILITIES)}"
            " (comma-separated), or none"
        )
    return frozenset(names)


def declared(capabilities: frozenset[str]) -> types.ClientCapabilities:
    """The capabilities an `initialize` declares (as the SDK's own client writes them)."""
    elicitation = types.ElicitationCapability(
        form=types.FormElicitationCapability(), url=types.UrlElicitationCapability()
    )
    return types.ClientCapabilities(
        roots=types.RootsCapability(list_changed=False) if "roots" in capabilities else None,
        sampling=types.SamplingCapability() if "sampling" in capabilities else None,
        elicitation=elicitation if "elicitation" in capabilities else None,
    )


async def _roots(context: ClientRequestContext) -> types.ListRootsResult:
    return types.ListRootsResult(roots=[])


async def _sample(context: ClientRequestContext, params: types.CreateMessageRequestParams) -> types.ErrorData:
    return types.ErrorData(code=types.INVALID_REQUEST, message="mcp-contracts has no model to sample")


async def _elicit(context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
    return types.ElicitResult(action="decline")


def callbacks(capabilities: frozenset[str]) -> dict[str, Any]:
    """The SDK client's callbacks for the capabilities declared (it declares those it is
    given callbacks for, at 2026-07-28)."""
    chosen = {"roots": ("list_roots_callback", _roots), "sampling": ("sampling_callback", _sample)}
    chosen["elicitation"] = ("elicitation_callback", _elicit)
    return dict(chosen[name] for name in CAPABILITIES if name in capabilities)
