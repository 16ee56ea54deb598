"""A FastMCP (4.2.3) server over stdio, driven by elicit's Rust MCP client in
tests/it/mcp_client_interop.rs.

    python fastmcp_server.py        # stdio; FastMCP's banner is off

Tools, each eliciting once through FastMCP's own API:

- ``deploy``: ``ctx.elicit`` with a pydantic model (``env``: staging or
  production; ``replicas``: integer 1..16, default 2); answers
  ``deployed <env> x<replicas>``, ``declined`` or ``cancelled``.
- ``connect``: a URL-mode elicitation through the underlying ``mcp`` session
  (``elicitationId`` ``fm-1``); answers ``url <action>``, and after an accept
  sends ``notifications/elicitation/complete`` for ``fm-1`` and answers
  ``url accept, completed``.
- ``pick``: ``ctx.elicit`` with FastMCP's titled-choice shorthand
  (``{value: {"title": ...}}``, a ``oneOf`` of ``const``/``title`` on the wire,
  in a property named ``value``); answers the chosen value, ``declined`` or
  ``cancelled``.

FastMCP's ``ctx.elicit`` is a server-to-client request, which MCP 2026-07-28
does not have: there it refuses (a tool error). These tools are for
MCP 2025-11-25 (the ``initialize`` handshake).
"""

from typing import Literal

from fastmcp import Context, FastMCP
from pydantic import BaseModel, Field

mcp = FastMCP("elicit-interop-fastmcp")


class Deploy(BaseModel):
    env: Literal["staging", "production"]
    replicas: int = Field(default=2, ge=1, le=16)


def _refused(action: str) -> str:
    return {"decline": "declined", "cancel": "cancelled"}.get(action, action)


@mcp.tool
async def deploy(ctx: Context) -> str:
    """Deploy somewhere, asking where (form elicitation)."""
    result = await ctx.elicit("Deploy where?", response_type=Deploy)
    if result.action == "accept":
        return f"deployed {result.data.env} x{result.data.replicas}"
    return _refused(result.action)


@mcp.tool
async def connect(ctx: Context) -> str:
    """Connect an account (URL elicitation, then the completion notification)."""
    result = await ctx.session.elicit_url(
        message="Connect your account.",
        url="https://auth.example.com/connect?id=fm-1",
        elicitation_id="fm-1",
        related_request_id=ctx.request_id,
    )
    if result.action == "accept":
        await ctx.session.send_elicit_complete("fm-1", related_request_id=ctx.request_id)
        return "url accept, completed"
    return f"url {result.action}"


@mcp.tool
async def pick(ctx: Context) -> str:
    """Pick a region (form elicitation with titled options)."""
    result = await ctx.elicit(
        "Pick a region.",
        response_type={
            "eu-west": {"title": "Europe (Ireland)"},
            "us-east": {"title": "US East (Virginia)"},
        },
    )
    if result.action == "accept":
        return result.data
    return _refused(result.action)


if __name__ == "__main__":
    # No banner: FastMCP's banner also checks PyPI for a newer release.
    mcp.run(show_banner=False)
