"""A small OpenAI-compatible chat-completions server on loopback that records every request it receives.

It plays a scripted tool-using assistant: the first ``turns`` requests are answered with one call of the tool
``lookup`` (argument ``n`` = the request number), later ones with a final text answer.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SYSTEM = "You are a careful booking agent. Use the lookup tool, then answer with the record ids you used."
TASK = "Find the cheapest record for order #4411 and tell me its id and price."


def lookup_text(n: int) -> str:
    """What the ``lookup`` tool returns: an id, a price and filler, about 150 tokens."""
    filler = " ".join(f"field{k}=value{k * n}" for k in range(40))
    return f"record R{n:03d}: price {100 + 7 * n} USD, stock {n % 5}, region eu-west-{n % 3}. {filler}"


Script = Callable[[int, dict[str, Any]], dict[str, Any]]


def tool_call(k: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """An assistant message that calls ``name`` once (call id ``call_K``)."""
    return {"role": "assistant", "content": None, "tool_calls": [{
        "id": f"call_{k}", "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}]}


class Recorder:
    def __init__(self, turns: int, script: Script | None = None) -> None:
        self.turns = turns
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            k = len(self.requests)
            self.requests.append(body)
        if self.script is not None:
            message = self.script(k, body)
        elif k < self.turns:
            message = tool_call(k, "lookup", {"n": k})
        else:
            message = {"role": "assistant", "content": "R000 at 100 USD. TERMINATE"}
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        return {"id": f"chatcmpl-{k}", "object": "chat.completion", "created": 0, "model": body.get("model", "m"),
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}


def anthropic_reply(chat: dict[str, Any]) -> dict[str, Any]:
    """The same scripted answer in the Anthropic Messages response shape."""
    message = chat["choices"][0]["message"]
    blocks: list[dict[str, Any]] = [{"type": "text", "text": message["content"]}] if message.get("content") else []
    blocks += [{"type": "tool_use", "id": c["id"], "name": c["function"]["name"],
                "input": json.loads(c["function"]["arguments"])} for c in message.get("tool_calls") or ()]
    return {"id": chat["id"], "type": "message", "role": "assistant", "model": "claude-test", "content": blocks,
            "stop_reason": "tool_use" if message.get("tool_calls") else "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5}}


def _handler(recorder: Recorder) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            path = self.path.split("?")[0].rstrip("/")
            if path.endswith("/messages"):  # Anthropic Messages
                data = json.dumps(anthropic_reply(recorder.answer(body))).encode()
            elif path.endswith("chat/completions"):
                data = json.dumps(recorder.answer(body)).encode()
            else:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            return

    return Handler


@contextmanager
def recording_server(turns: int = 20, script: Script | None = None) -> Iterator[tuple[str, Recorder]]:
    """``(base_url, recorder)`` of a server on 127.0.0.1 that stops when the block ends."""
    recorder = Recorder(turns, script)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(recorder))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", recorder
    finally:
        server.shutdown()
        server.server_close()
