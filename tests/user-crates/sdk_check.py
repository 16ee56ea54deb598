"""The official MCP Python SDK's client against the whole rmcp server
(examples/rmcp_server.rs built as a user builds it, outside the workspace),
at MCP 2025-11-25 (mode "legacy": `elicitation/create` requests) and at
2026-07-28 (mode "auto": discover, then input-required rounds the SDK
fulfils through the same elicitation callback): the tool (an invalid answer
asked again, then the valid one), the prompt and the resource each ask the
user before they answer. Prints a transcript; exits non-zero on the first
difference. Run by tests/user-crates/run with target/interop-python's
Python (.ci/python-deps)."""

import sys

import anyio
from mcp import StdioServerParameters
from mcp.client.client import Client
from mcp_types import ElicitResult

EXPECTED_PROTOCOL = {"legacy": "2025-11-25", "auto": "2026-07-28"}


def fail(why):
    print(f"FAIL: {why}", file=sys.stderr)
    sys.exit(1)


async def run(binary, mode):
    answers = [
        {"replicas": 40},  # deploy: refused (at most 16), asked again
        {"replicas": 3},
        {"name": "Ada"},  # the prompt
        {"loud": True},  # the resource
    ]
    asked = []

    async def elicit(context, params):
        asked.append(params.message)
        return ElicitResult(action="accept", content=answers.pop(0))

    server = StdioServerParameters(command=binary, args=[])
    async with Client(server, mode=mode, elicitation_callback=elicit) as client:
        version = str(client.protocol_version)
        if version != EXPECTED_PROTOCOL[mode]:
            fail(f"mode {mode} negotiated {version}")
        tools = await client.list_tools()
        deploy = next(t for t in tools.tools if t.name == "deploy")
        if "branch" not in deploy.input_schema.get("properties", {}):
            fail(f"deploy's input schema has no `branch`: {deploy.input_schema}")
        result = await client.call_tool("deploy", {"branch": "main"})
        tool_text = result.content[0].text
        prompt = await client.get_prompt("welcome")
        prompt_text = prompt.messages[0].content.text
        read = await client.read_resource("elicit://motd")
        resource_text = read.contents[0].text
    print(f"-- MCP {version} (official Python SDK, mode {mode})")
    for message in asked:
        print(f"   asked: {message!r}")
    print(f"   tools/call deploy {{branch: main}} -> {tool_text!r}")
    print(f"   prompts/get welcome -> {prompt_text!r}")
    print(f"   resources/read elicit://motd -> {resource_text!r}")
    if tool_text != "Deploying 3 replicas of main.":
        fail(f"the tool said {tool_text!r}")
    if prompt_text != "Greet Ada and offer to deploy.":
        fail(f"the prompt said {prompt_text!r}")
    if resource_text != "SHIP IT!":
        fail(f"the resource said {resource_text!r}")
    if len(asked) != 4 or asked[0] != "Replicas?" or "at most 16, got 40" not in asked[1]:
        fail(f"the questions asked: {asked!r}")
    if asked[2:] != ["Your name?", "Shout the message of the day?"]:
        fail(f"the questions asked: {asked!r}")


async def arguments(binary, mode):
    """A tool's own arguments as the form: what the model left out or gave
    wrong, the user fills in; the rest of the model's values kept."""
    answers = []
    asked = []

    async def elicit(context, params):
        schema = params.requested_schema
        asked.append((list(schema["properties"].keys()), params.message))
        answer = answers.pop(0)
        if answer is None:
            return ElicitResult(action="decline")
        return ElicitResult(action="accept", content=answer)

    def expect(what, got, wanted):
        if got != wanted:
            fail(f"{mode}: {what}: {got!r}, expected {wanted!r}")

    server = StdioServerParameters(command=binary, args=[])
    async with Client(server, mode=mode, elicitation_callback=elicit) as client:
        version = str(client.protocol_version)
        print(f"-- MCP {version} (official Python SDK, mode {mode}): a tool's arguments as the form")

        async def call(tool, arguments, scripted):
            answers[:] = scripted
            asked.clear()
            result = await client.call_tool(tool, arguments)
            text = result.content[0].text
            print(f"   tools/call {tool} {arguments} -> {text!r} (asked: {asked!r})")
            return result, text

        # All valid: no question.
        _, text = await call("deploy", {"replicas": 3, "branch": "main"}, [])
        expect("all valid", (text, asked), ("Deploying 3 replicas of main.", []))
        # One missing: a form of that field alone.
        _, text = await call("deploy", {"branch": "main"}, [{"replicas": 5}])
        expect("one missing", (text, [f for f, _ in asked]), ("Deploying 5 replicas of main.", [["replicas"]]))
        # Two refused: a form of those two, their errors in the message.
        _, text = await call("deploy", {"replicas": 40, "branch": "Not A Branch"}, [{"replicas": 4, "branch": "dev"}])
        expect("two refused", (text, [f for f, _ in asked]), ("Deploying 4 replicas of dev.", [["replicas", "branch"]]))
        if "`replicas` must be at most 16, got 40" not in asked[0][1] or "`branch`" not in asked[0][1]:
            fail(f"{mode}: the refused values' errors are not in the message: {asked[0][1]!r}")
        # Decline: a result the model reads, not a parse error.
        result, text = await call("deploy", {}, [None])
        expect("decline", (text, result.is_error), ("the user declined to give `replicas`: nothing was done", True))
        # A user-only field the model tried to fill is asked anyway; the
        # check refuses the merged answer's version: asked again with it.
        _, text = await call("release", {"version": "0.0.0", "confirm": True}, [{"confirm": True}, {"version": "1.0.0", "confirm": True}])
        expect("user only, check", (text, [f for f, _ in asked]), ("Released 1.0.0.", [["confirm"], ["version", "confirm"]]))
        if "`version` is withdrawn" not in asked[1][1]:
            fail(f"{mode}: the check's error is not in the message: {asked[1][1]!r}")


def main():
    binary = sys.argv[1]
    for mode in ("legacy", "auto"):
        anyio.run(run, binary, mode)
        anyio.run(arguments, binary, mode)
    print("ok: the official Python SDK's tool, prompt and resource calls at both versions")
    print("ok: the official Python SDK's calls whose arguments the user completed, at both versions")


if __name__ == "__main__":
    main()
