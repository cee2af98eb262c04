"""A hostile OpenAI-compatible server on loopback, for fault-injection tests.

Each request's first path segment picks its behaviour: ``http://127.0.0.1:PORT/<fault>/v1`` is a base URL
whose chat completions misbehave that way. Raw sockets, so the faults are real bytes on a real connection:

- ``ok``: a normal completion.
- ``trickle-body``: headers at once, then the body one byte every ``interval`` seconds.
- ``trickle-headers``: the status line and headers one byte every ``interval`` seconds.
- ``hang``: reads the request and never answers.
- ``500``: an HTTP 500 with an error object.
- ``error200``: a 200 whose body is an ``error`` object and no choices.
- ``truncated``: announces a body of N bytes, sends a third of it, closes the connection.
- ``null``: a completion whose content is ``null``.
- ``huge``: a completion of ``HUGE_BYTES`` (more than the transport reads), sent as fast as the client takes it.
- ``bomb``: a gzip body of some 200 KB that expands to ``HUGE_BYTES``.
- ``gzip`` / ``deflate``: a normal completion compressed as declared (``deflate`` raw, without zlib's header).
- ``brotli``: a body declared ``Content-Encoding: br``, which the client never asked for.
- ``redirect``: a redirect to itself, for ever.
"""

from __future__ import annotations

import gzip
import json
import socket
import threading
import time
import zlib
from typing import Any

BEHAVIOURS = ("ok", "trickle-body", "trickle-headers", "hang", "500", "error200", "truncated", "null", "huge", "bomb",
              "gzip", "deflate", "brotli", "redirect")
HUGE_BYTES = 80 * 2**20


def completion_body(content: str | None) -> bytes:
    return json.dumps({
        "id": "x", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7},
    }).encode()


def _response(status: str, body: bytes, length: int | None = None, extra: str = "") -> tuple[bytes, bytes]:
    head = (f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\n{extra}"
            f"Content-Length: {len(body) if length is None else length}\r\nConnection: close\r\n\r\n").encode()
    return head, body


class HostileServer:
    """Serves on a free loopback port in daemon threads; ``close()`` ends every hanging connection."""

    def __init__(self, interval: float = 0.2) -> None:
        self.interval = interval
        self.requests: list[str] = []
        self.open_connections = 0
        self._count_lock = threading.Lock()
        self._stop = threading.Event()
        self._sock = socket.socket()
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(64)
        self._sock.settimeout(0.2)
        self.port = int(self._sock.getsockname()[1])
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def url(self, behaviour: str) -> str:
        assert behaviour in BEHAVIOURS, behaviour
        return f"http://127.0.0.1:{self.port}/{behaviour}/v1"

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._sock.close()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:
                continue
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        with self._count_lock:
            self.open_connections += 1
        try:
            path = _read_request(conn)
            behaviour = path.strip("/").split("/", 1)[0]
            self.requests.append(behaviour)
            getattr(self, "_" + behaviour.replace("-", "_").replace("500", "status500"))(conn)
        except OSError:
            pass  # the client gave up: that is what these tests expect of it
        finally:
            conn.close()
            with self._count_lock:
                self.open_connections -= 1

    def _drip(self, conn: socket.socket, data: bytes) -> None:
        for i in range(len(data)):
            if self._stop.wait(self.interval):
                return
            conn.sendall(data[i:i + 1])

    def _ok(self, conn: socket.socket) -> None:
        conn.sendall(b"".join(_response("200 OK", completion_body("fine"))))

    def _trickle_body(self, conn: socket.socket) -> None:
        head, body = _response("200 OK", completion_body("slowly " * 50))
        conn.sendall(head)
        self._drip(conn, body)

    def _trickle_headers(self, conn: socket.socket) -> None:
        head, body = _response("200 OK", completion_body("late"))
        self._drip(conn, head + body)

    def _hang(self, conn: socket.socket) -> None:
        self._stop.wait()

    def _status500(self, conn: socket.socket) -> None:
        body = json.dumps({"error": {"message": "internal failure", "type": "server_error"}}).encode()
        conn.sendall(b"".join(_response("500 Internal Server Error", body)))

    def _error200(self, conn: socket.socket) -> None:
        body = json.dumps({"error": {"message": "model is overloaded, retry later", "type": "server_error",
                                     "code": 503}}).encode()
        conn.sendall(b"".join(_response("200 OK", body)))

    def _truncated(self, conn: socket.socket) -> None:
        body = completion_body("this answer will be cut " * 20)
        head, _ = _response("200 OK", body)
        conn.sendall(head + body[: len(body) // 3])
        conn.shutdown(socket.SHUT_RDWR)

    def _null(self, conn: socket.socket) -> None:
        conn.sendall(b"".join(_response("200 OK", completion_body(None))))

    def _huge(self, conn: socket.socket) -> None:
        head, _ = _response("200 OK", b"", length=HUGE_BYTES)
        conn.sendall(head + b'{"choices": [{"message": {"content": "')
        block = b"x" * 2**20
        for _ in range(HUGE_BYTES // len(block)):  # stops when the client closes (OSError)
            conn.sendall(block)

    def _bomb(self, conn: socket.socket) -> None:
        compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
        block = b" " * 2**20
        body = compressor.compress(b"{") + b"".join(compressor.compress(block) for _ in range(HUGE_BYTES // len(block)))
        body += compressor.flush()
        conn.sendall(b"".join(_response("200 OK", body, extra="Content-Encoding: gzip\r\n")))

    def _gzip(self, conn: socket.socket) -> None:
        body = gzip.compress(completion_body("fine, compressed"))
        conn.sendall(b"".join(_response("200 OK", body, extra="Content-Encoding: gzip\r\n")))

    def _deflate(self, conn: socket.socket) -> None:
        raw = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
        body = raw.compress(completion_body("fine, deflated")) + raw.flush()
        conn.sendall(b"".join(_response("200 OK", body, extra="Content-Encoding: deflate\r\n")))

    def _brotli(self, conn: socket.socket) -> None:
        conn.sendall(b"".join(_response("200 OK", b"\x1b\x00\x00", extra="Content-Encoding: br\r\n")))

    def _redirect(self, conn: socket.socket) -> None:
        conn.sendall(b"".join(_response("302 Found", b"", extra=f"Location: {self.url('redirect')}/chat/completions"
                                                                 "\r\n")))


def _read_request(conn: socket.socket) -> str:
    """Read one HTTP request (headers and Content-Length body); return its path."""
    conn.settimeout(10)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            raise OSError("client closed")
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    length = next((int(v) for k, _, v in (h.partition(":") for h in lines[1:]) if k.lower() == "content-length"), 0)
    while len(rest) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        rest += chunk
    conn.settimeout(None)
    return lines[0].split(" ")[1]


def timed(call: Any) -> tuple[float, Any]:
    """Seconds a call took, and its result or the exception it raised."""
    started = time.monotonic()
    try:
        outcome: Any = call()
    except (Exception, SystemExit) as exc:  # the tests inspect it
        outcome = exc
    return time.monotonic() - started, outcome
