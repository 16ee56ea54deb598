"""A server on the official Python MCP SDK's low-level ``Server`` (mcp 2.3.0)
over stdio, driven by elicit's Rust MCP client in
tests/it/mcp_client_interop.rs.

    python python_rounds_server.py

One tool, ``deploy``, asking where with one form elicitation:

- MCP 2026-07-28 (per-request ``_meta`` envelope, no handshake): round one
  returns an input-required result (``resultType: "input_required"``) with one
  input request under the key ``deploy`` and a ``requestState``; round two
  (the client's retry) reads the answer from ``inputResponses["deploy"]`` and
  the echoed ``requestState``. The SDK's ``RequestStateBoundary`` seals the
  state on the way out (AES-256-GCM under a per-process key) and verifies the
  echo on the way in (an altered one gets -32602 "Invalid or expired
  requestState"), so the handler only sees the plaintext it minted.
- MCP 2025-11-25 (``initialize`` handshake): the same tool sends a plain
  ``elicitation/create`` request and awaits the answer.

Answers: ``deployed <env> x<replicas>``, ``declined``, ``cancelled``; an
accepted answer that does not fit the schema is a tool error (``isError``,
text starting ``invalid answer``).
"""

import json
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
from mcp.server.stdio import stdio_server
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

NAME = "elicit-interop-python-rounds"
MESSAGE = "Deploy where?"
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "env": {"type": "string", "enum": ["staging", "production"]},
        "replicas": {"type": "integer", "minimum": 1, "maximum": 16, "default": 2},
    },
    "required": ["env"],
}
# The key of the one input request, and the state round one hands out.
KEY = "deploy"
STATE = json.dumps({"tool": "deploy", "round": 1}, separators=(",", ":"))


def text(value: str, *, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=value)], is_error=error)


def outcome(answer: types.ElicitResult) -> types.CallToolResult:
    if answer.action == "decline":
        return text("declined")
    if answer.action == "cancel":
        return text("cancelled")
    content = answer.content or {}
    env = content.get("env")
    replicas = content.get("replicas", 2)
    if env not in ("staging", "production"):
        return text(f"invalid answer: env {env!r}", error=True)
    if not isinstance(replicas, int) or isinstance(replicas, bool) or not 1 <= replicas <= 16:
        return text(f"invalid answer: replicas {replicas!r}", error=True)
    return text(f"deployed {env} x{replicas}")


async def list_tools(ctx: ServerRequestContext, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(
        tools=[
            types.Tool(
                name="deploy",
                description="Deploy somewhere, asking where (one form elicitation).",
                input_schema={"type": "object", "properties": {}},
            )
        ]
    )


async def call_tool(
    ctx: ServerRequestContext, params: types.CallToolRequestParams
) -> types.CallToolResult | types.InputRequiredResult:
    if params.name != "deploy":
        return text(f"unknown tool {params.name!r}", error=True)

    if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        # 2025-11-25: a server-to-client request on the handshake session.
        answer = await ctx.session.elicit_form(MESSAGE, SCHEMA, related_request_id=ctx.request_id)
        return outcome(answer)

    # 2026-07-28: input-required rounds.
    answer = (params.input_responses or {}).get(KEY)
    if answer is None:
        return types.InputRequiredResult(
            input_requests={
                KEY: types.ElicitRequest(
                    params=types.ElicitRequestFormParams(message=MESSAGE, requested_schema=SCHEMA),
                )
            },
            request_state=STATE,
        )
    # The boundary has verified and unsealed the echo: this is what round one minted.
    if params.request_state != STATE:
        return text(f"unexpected requestState {params.request_state!r}", error=True)
    if not isinstance(answer, types.ElicitResult):
        return text(f"unexpected input response {type(answer).__name__}", error=True)
    return outcome(answer)


server = Server(NAME, version="0.0.0", on_list_tools=list_tools, on_call_tool=call_tool)
server.middleware.append(RequestStateBoundary(RequestStateSecurity.ephemeral(), default_audience=NAME))


async def main() -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
