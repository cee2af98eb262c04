"""A fake OpenAI-compatible upstream on loopback whose behaviour is chosen by the model name it is asked for.

``ok`` answers (after ``latency`` seconds), ``tools`` plays a tool-using assistant, ``rate`` answers 429,
``fail`` 500, ``hang`` never answers. Streams are sent as five SSE chunks 50 ms apart. ``POST /v1/responses``
answers in the Responses API's shape (and its streaming events). Every request is recorded, with its path.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Upstream:
    def __init__(self, latency: float = 0.0) -> None:
        self.latency = latency
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def record(self, body: dict[str, Any], path: str = "/v1/chat/completions") -> int:
        with self.lock:
            self.requests.append({**body, "_path": path} if path.endswith("/responses") else body)
            return len(self.requests)

    def response(self, body: dict[str, Any], n: int) -> dict[str, Any]:
        """A Responses-API answer: the number of input items and the last item's text, echoed."""
        items = body.get("input")
        items = [{"role": "user", "content": items}] if isinstance(items, str) else items or []
        last = items[-1] if items else {}
        text = last.get("content") if isinstance(last.get("content"), str) else str(last.get("output", last))
        return {"id": f"resp_{n}", "object": "response", "created_at": 0, "status": "completed",
                "model": body.get("model"), "error": None, "incomplete_details": None,
                "output": [{"type": "message", "id": f"msg_{n}", "status": "completed", "role": "assistant",
                            "content": [{"type": "output_text", "text": f"echo {len(items)} items; last: {text[:40]}",
                                         "annotations": []}]}],
                "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
                "usage": {"input_tokens": 7, "output_tokens": 3, "total_tokens": 10}}

    def reply(self, body: dict[str, Any], n: int) -> dict[str, Any]:
        messages = body.get("messages", [])
        if body.get("model") == "tools" and sum(m.get("role") == "tool" for m in messages) < 4 \
                and messages[-1].get("role") != "assistant":
            message: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [{
                "id": f"call_{n}", "type": "function",
                "function": {"name": "lookup", "arguments": json.dumps({"n": n})}}]}
        else:
            last = str(messages[-1].get("content")) if messages else ""
            message = {"role": "assistant", "content": f"echo {len(messages)} messages; last: {last[:40]}"}
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        return {"id": f"up-{n}", "object": "chat.completion", "created": 0, "model": body.get("model"),
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}}


def _handler(up: Upstream) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
            n = up.record(body, self.path)
            model = body.get("model")
            if model == "hang":
                time.sleep(30)
                return
            if model in ("rate", "fail"):
                self._send(429 if model == "rate" else 500, {"error": {"message": str(model)}}, {"retry-after": "1"})
                return
            time.sleep(up.latency)
            responses = self.path.endswith("/responses")
            if body.get("stream"):
                if responses:
                    self._stream_responses(up.response(body, n))
                else:
                    self._stream(n)
                return
            self._send(200, up.response(body, n) if responses else up.reply(body, n))

        def _send(self, status: int, payload: dict[str, Any], extra: dict[str, str] | None = None) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            for k, v in (extra or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        def _stream(self, n: int) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            for k in range(5):
                delta = {"id": f"up-{n}", "object": "chat.completion.chunk", "created": 0, "model": "ok",
                         "choices": [{"index": 0, "delta": {"content": f"part{k} "}, "finish_reason": None}]}
                self._chunk(f"data: {json.dumps(delta)}\n\n".encode())
                time.sleep(0.05)
            self._chunk(b"data: [DONE]\n\n")
            self.wfile.write(b"0\r\n\r\n")

        def _stream_responses(self, final: dict[str, Any]) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            events: list[dict[str, Any]] = [{"type": "response.created",
                                             "response": {**final, "status": "in_progress", "output": []}}]
            events += [{"type": "response.output_text.delta", "item_id": final["output"][0]["id"], "output_index": 0,
                        "content_index": 0, "delta": f"part{k} ", "logprobs": []} for k in range(5)]
            events.append({"type": "response.completed", "response": final})
            for number, event in enumerate(events):
                self._chunk(f"event: {event['type']}\ndata: {json.dumps({**event, 'sequence_number': number})}\n\n"
                            .encode())
                time.sleep(0.05)
            self.wfile.write(b"0\r\n\r\n")

        def _chunk(self, data: bytes) -> None:
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()

        def log_message(self, *args: Any) -> None:
            return

    return Handler


@contextmanager
def upstream_server(latency: float = 0.0) -> Iterator[tuple[str, Upstream]]:
    up = Upstream(latency)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(up))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", up
    finally:
        server.shutdown()
        server.server_close()
