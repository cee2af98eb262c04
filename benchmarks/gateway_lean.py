"""The lean load generator and upstream ``gateway_bench.py`` drives: raw asyncio on uvloop, nothing else.

The same client measures the direct and the gateway runs, so its cost is the same on both sides; it is kept
small because client, upstream and gateway share the machine's cores, and every microsecond the harness spends
is queueing the gateway's requests would otherwise not see.

- ``LeanClient``: one keep-alive HTTP/1.1 connection per simulated client, request bytes built up front, the
  reply read by its ``content-length`` (the gateway and the upstream both send one).
- ``UPSTREAM``: a fixed-latency chat-completions server (run as ``python -c UPSTREAM PORT LATENCY``) that counts
  each request's last message, so lost and duplicated requests can be told; ``GET /`` returns the counts.
  Requests under ``/lab/`` are answered but not counted (the trajectory-lab histories).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

UPSTREAM = r'''
import asyncio, sys
from collections import Counter
import orjson, uvloop
LATENCY = float(sys.argv[2]); SEEN = Counter()
BODY = orjson.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": [
    {"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})
def reply(body, status=b"200 OK"):
    return b"HTTP/1.1 " + status + b"\r\ncontent-type: application/json\r\ncontent-length: " + \
        str(len(body)).encode() + b"\r\n\r\n" + body
class Server(asyncio.Protocol):
    def connection_made(self, transport):
        self.transport, self.buf = transport, b""
    def data_received(self, data):
        self.buf += data
        while True:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self.buf[:end].lower()
            at = head.find(b"content-length:")
            length = int(head[at + 15:].split(b"\r\n", 1)[0]) if at >= 0 else 0
            if len(self.buf) < end + 4 + length:
                return
            body, self.buf = self.buf[end + 4:end + 4 + length], self.buf[end + 4 + length:]
            self.answer(head.split(b" ", 2), body)
    def answer(self, line, body):
        if line[0] == b"get":
            stats = {"requests": sum(SEEN.values()), "distinct": len(SEEN),
                     "duplicates": sum(v - 1 for v in SEEN.values() if v > 1)}
            self.transport.write(reply(orjson.dumps(stats)))
            return
        if not line[1].startswith(b"/lab/"):
            SEEN[orjson.loads(body)["messages"][-1]["content"]] += 1
        asyncio.get_running_loop().call_later(LATENCY, self.send, reply(BODY))
    def send(self, data):
        if not self.transport.is_closing():
            self.transport.write(data)
async def main():
    server = await asyncio.get_running_loop().create_server(Server, "127.0.0.1", int(sys.argv[1]), backlog=1024)
    await server.serve_forever()
uvloop.run(main())
'''


class _Connection(asyncio.Protocol):
    """One keep-alive connection: ``ask`` writes a whole request and waits for the whole reply."""

    def __init__(self) -> None:
        self.buf = b""
        self.waiter: asyncio.Future[tuple[int, bytes, bytes]] | None = None
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buf += data
        end = self.buf.find(b"\r\n\r\n")
        if end < 0 or self.waiter is None:
            return
        head = self.buf[:end].lower()
        at = head.find(b"content-length:")
        if at < 0:
            self.waiter.set_exception(RuntimeError("the reply has no content-length"))
            return
        length = int(head[at + 15:].split(b"\r\n", 1)[0])
        if len(self.buf) >= end + 4 + length:
            body, self.buf = self.buf[end + 4:end + 4 + length], self.buf[end + 4 + length:]
            waiter, self.waiter = self.waiter, None
            waiter.set_result((int(head[9:12]), head, body))

    def connection_lost(self, exc: Exception | None) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(ConnectionError("the server closed the connection"))

    async def ask(self, request: bytes) -> tuple[int, bytes, bytes]:
        assert self.transport is not None
        self.waiter = asyncio.get_running_loop().create_future()
        self.transport.write(request)
        return await self.waiter


def request_bytes(port: int, path: str, key: str, body: bytes) -> bytes:
    return (f"POST {path} HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\nauthorization: Bearer {key}\r\n"
            f"content-type: application/json\r\ncontent-length: {len(body)}\r\n\r\n").encode() + body


async def run_load(port: int, path: str, key: str, bodies: list[bytes], clients: int,
                   spread: float = 0.0) -> list[float]:
    """Send every body from ``clients`` concurrent keep-alive connections; the latency of each, in seconds.

    With ``spread`` (seconds), client k starts k * spread / clients after the first: clients that all start at
    the same instant against a fixed-latency upstream stay in lockstep, every request arriving in a burst of
    ``clients`` at once, which real traffic does not do (both sides of a comparison get the same spread)."""
    loop = asyncio.get_running_loop()
    pending = [request_bytes(port, path, key, b) for b in reversed(bodies)]
    latencies: list[float] = []

    async def worker(k: int) -> None:
        _, conn = await loop.create_connection(_Connection, "127.0.0.1", port)
        await asyncio.sleep(k * spread / clients)
        try:
            while pending:
                request = pending.pop()
                started = time.perf_counter()
                status, _, body = await conn.ask(request)
                latencies.append(time.perf_counter() - started)
                if status != 200:
                    raise SystemExit(f"port {port} answered {status}: {body[:200]!r}")
        finally:
            assert conn.transport is not None
            conn.transport.close()

    await asyncio.gather(*(worker(k) for k in range(min(clients, len(bodies)))))
    return latencies


async def ask_once(port: int, path: str, key: str, body: bytes) -> tuple[float, int, bytes, bytes]:
    """One request on a fresh connection: (seconds, status, lower-cased head, body)."""
    loop = asyncio.get_running_loop()
    _, conn = await loop.create_connection(_Connection, "127.0.0.1", port)
    try:
        started = time.perf_counter()
        status, head, reply = await conn.ask(request_bytes(port, path, key, body))
        return time.perf_counter() - started, status, head, reply
    finally:
        assert conn.transport is not None
        conn.transport.close()


def header_value(head: bytes, name: bytes) -> bytes:
    at = head.find(b"\r\n" + name + b":")
    if at < 0:
        raise SystemExit(f"the reply has no {name.decode()} header")
    return head[at + len(name) + 3:].split(b"\r\n", 1)[0].strip()


__all__ = ["UPSTREAM", "ask_once", "header_value", "request_bytes", "run_load"]
