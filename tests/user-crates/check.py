"""Drives the user crates' binaries over stdio, as a client would, and checks
what reaches the wire: the Flight form's properties in declaration order.

    python3 check.py acp AGENT_BINARY
    python3 check.py mcp SERVER_BINARY

Only the standard library: Python's json keeps an object's keys in document
order, so the order read here is the order on the wire. Exit 0 when every
check holds; otherwise the failing check and the messages seen.
"""

import json
import queue
import subprocess
import sys
import threading

DECLARED = ["to", "seats", "cabin", "meal", "contact"]
ANSWER = {"to": "LIS", "seats": 2, "cabin": "business", "contact": "ana@example.com"}
BOOKED = "Booked 2 seat(s) to LIS in Business for ana@example.com."
# The MCP server's check refuses it (sold out): asked again, once.
SOLD_OUT = {**ANSWER, "to": "LHR"}
REFUSED = "`to` is sold out: pick another"
# The form's own rule refuses it (a meal in economy): the ACP agent asks again.
MEAL_IN_ECONOMY = {**ANSWER, "cabin": "economy", "meal": True}
NO_MEAL = "`meal` is served in business only"
TIMEOUT = 60


class Peer:
    """A child speaking newline-delimited JSON-RPC on stdin/stdout."""

    def __init__(self, argv):
        self.child = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.child.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, message):
        message = {"jsonrpc": "2.0", **message}
        self.child.stdin.write(json.dumps(message) + "\n")
        self.child.stdin.flush()

    def until(self, wanted, what):
        """The next message for which `wanted` holds (others are kept in `seen`)."""
        while True:
            try:
                line = self.lines.get(timeout=TIMEOUT)
            except queue.Empty:
                fail(f"no {what} within {TIMEOUT} s", self)
            if line is None:
                fail(f"the peer closed stdout before {what}", self)
            message = json.loads(line)
            self.seen.append(message)
            if wanted(message):
                return message

    def close(self):
        self.child.stdin.close()
        try:
            self.child.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.child.kill()


def fail(why, peer):
    print(f"FAILED: {why}", file=sys.stderr)
    for message in peer.seen:
        print(f"  seen: {json.dumps(message)[:2000]}", file=sys.stderr)
    peer.child.kill()
    sys.exit(1)


def response(id_):
    return lambda m: m.get("id") == id_ and ("result" in m or "error" in m)


def result(peer, id_, what):
    message = peer.until(response(id_), what)
    if "error" in message:
        fail(f"{what}: error {message['error']}", peer)
    return message["result"]


def check_order(peer, schema, where):
    order = list(schema["properties"].keys())
    if order != DECLARED:
        fail(f"{where}: properties {order}, declared {DECLARED}", peer)
    print(f"ok: {where}: properties in declaration order {order}")


def acp(binary):
    peer = Peer([binary])
    peer.send({"id": 1, "method": "initialize", "params": {
        "protocolVersion": 1,
        "clientCapabilities": {"elicitation": {"form": {}}},
    }})
    result(peer, 1, "the initialize response")
    peer.send({"id": 2, "method": "session/new", "params": {"cwd": "/", "mcpServers": []}})
    session = result(peer, 2, "the session/new response")["sessionId"]
    peer.send({"id": 3, "method": "session/prompt", "params": {
        "sessionId": session, "prompt": [{"type": "text", "text": "Book a flight."}],
    }})
    request = peer.until(lambda m: m.get("method") == "elicitation/create", "elicitation/create")
    check_order(peer, request["params"]["requestedSchema"], "ACP SDK elicitation/create")
    peer.send({"id": request["id"], "result": {"action": "accept", "content": MEAL_IN_ECONOMY}})
    request = peer.until(lambda m: m.get("method") == "elicitation/create", "the form asked again")
    if NO_MEAL not in request["params"]["message"]:
        fail(f"asked again without the form's rule: {request['params']['message']!r}", peer)
    peer.send({"id": request["id"], "result": {"action": "accept", "content": ANSWER}})
    update = peer.until(lambda m: m.get("method") == "session/update", "the agent's message")
    text = update["params"]["update"]["content"]["text"]
    if text != BOOKED:
        fail(f"the agent said {text!r}, not {BOOKED!r}", peer)
    result(peer, 3, "the session/prompt response")
    print("ok: ACP SDK: the form's own rule (#[elicit(check)]) asked again, the accepted form was read back")
    peer.close()


def mcp_2025(binary):
    peer = Peer([binary])
    peer.send({"id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {"elicitation": {"form": {}}},
        "clientInfo": {"name": "check.py", "version": "0"},
    }})
    version = result(peer, 1, "the initialize response")["protocolVersion"]
    if version != "2025-11-25":
        fail(f"negotiated {version}", peer)
    peer.send({"method": "notifications/initialized"})
    peer.send({"id": 2, "method": "tools/call", "params": {"name": "book", "arguments": {}}})
    request = peer.until(lambda m: m.get("method") == "elicitation/create", "elicitation/create")
    check_order(peer, request["params"]["requestedSchema"], "MCP 2025-11-25 elicitation/create")
    peer.send({"id": request["id"], "result": {"action": "accept", "content": SOLD_OUT}})
    request = peer.until(lambda m: m.get("method") == "elicitation/create", "the form asked again")
    if REFUSED not in request["params"]["message"]:
        fail(f"asked again without the check's error: {request['params']['message']!r}", peer)
    peer.send({"id": request["id"], "result": {"action": "accept", "content": ANSWER}})
    text = result(peer, 2, "the tools/call result")["content"][0]["text"]
    if text != BOOKED:
        fail(f"the tool said {text!r}, not {BOOKED!r}", peer)
    print("ok: MCP 2025-11-25: the check's refusal asked again, the accepted form was read back")
    peer.close()


def mcp_2026(binary):
    peer = Peer([binary])
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "check.py", "version": "0"},
    }
    call = {"_meta": meta, "name": "book", "arguments": {}}
    peer.send({"id": 1, "method": "tools/call", "params": call})
    first = result(peer, 1, "the input-required result")
    if first.get("resultType") != "input_required":
        fail(f"not an input-required result: {first}", peer)
    asked = first["inputRequests"]["flight"]
    check_order(peer, asked["params"]["requestedSchema"], "MCP 2026-07-28 input-required result")
    refused = {
        **call,
        "inputResponses": {"flight": {"action": "accept", "content": SOLD_OUT}},
        "requestState": first["requestState"],
    }
    peer.send({"id": 2, "method": "tools/call", "params": refused})
    second = result(peer, 2, "the round that asks again")
    message = second.get("inputRequests", {}).get("flight", {}).get("params", {}).get("message", "")
    if REFUSED not in message:
        fail(f"asked again without the check's error: {second}", peer)
    again = {
        **call,
        "inputResponses": {"flight": {"action": "accept", "content": ANSWER}},
        "requestState": second["requestState"],
    }
    peer.send({"id": 3, "method": "tools/call", "params": again})
    text = result(peer, 3, "the completed tools/call result")["content"][0]["text"]
    if text != BOOKED:
        fail(f"the tool said {text!r}, not {BOOKED!r}", peer)
    print("ok: MCP 2026-07-28: the check's refusal asked again in the next round, the accepted form was read back")
    peer.close()


if __name__ == "__main__":
    kind, binary = sys.argv[1], sys.argv[2]
    if kind == "acp":
        acp(binary)
    elif kind == "mcp":
        mcp_2025(binary)
        mcp_2026(binary)
    else:
        sys.exit(f"usage: {sys.argv[0]} acp|mcp BINARY")
