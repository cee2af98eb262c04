"""A lean keep-alive HTTP/1.1 client for the gateway's plain (non-streamed) upstream calls.

One POST, whole reply: the request goes out as one write (its head built once per upstream), the reply is parsed
by ``httptools`` (the parser uvicorn uses) into status, headers and body, and the connection goes back to a pool
of idle keep-alive connections per host. A profile of the gateway put about a quarter of its CPU time per
request in the general-purpose client it replaces on this path (aiohttp, still used for streams).

A connection that is cancelled (a deadline), broken or answered with ``connection: close`` is closed, never
reused. A POST is never retried here: a failure is an attempt that failed, and the caller's fallback decides.
"""

from __future__ import annotations

import asyncio
import ssl
import time
import zlib
from collections import deque
from urllib.parse import urlsplit

import httptools

IDLE_S = 4.0
"""An idle connection older than this is closed rather than reused: below the keep-alive timeout of common
servers (uvicorn 5 s, nginx 75 s), so a POST is not sent down a connection the server is closing just then."""
MAX_IDLE = 256  # idle connections kept per host
MAX_REPLY_BYTES = 64 * 2**20
"""The most bytes of an upstream's plain reply the gateway reads, after decompression: a larger one is a failed
attempt (the route's next upstream is tried), never held in memory whole (the same bound as a model call's,
``relaykit.models.deadline.MAX_ANSWER_BYTES``)."""


class UpstreamProtocolError(ConnectionError):
    """The upstream's reply was not valid HTTP/1.1 (or ended too early)."""


class Target:
    """Where a POST goes: the host to connect to and the request head, built once (minus its length)."""

    __slots__ = ("head", "host", "key", "port", "tls")

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"an upstream URL must be http:// or https:// with a host, not {url!r}")
        self.tls = parts.scheme == "https"
        self.host = parts.hostname
        self.port = parts.port or (443 if self.tls else 80)
        self.key = (self.host, self.port, self.tls)
        default = (443 if self.tls else 80) == self.port
        authority = self.host if default else f"{self.host}:{self.port}"
        if ":" in self.host:  # an IPv6 literal
            authority = f"[{self.host}]" if default else f"[{self.host}]:{self.port}"
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        lines = [f"POST {path} HTTP/1.1", f"host: {authority}", "accept: */*", "accept-encoding: identity",
                 *(f"{k}: {v}" for k, v in headers.items())]
        self.head = ("\r\n".join(lines) + "\r\n").encode("latin-1")

    def request(self, body: bytes) -> bytes:
        return self.head + b"content-length: %d\r\n\r\n" % len(body) + body


class Reply:
    __slots__ = ("body", "headers", "status")

    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body


class _Connection(asyncio.Protocol):
    """One connection; ``exchange`` sends a request and waits for the whole reply."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpResponseParser(self)
        self.waiter: asyncio.Future[Reply] | None = None
        self.headers: dict[str, str] = {}
        self.body: list[bytes] = []
        self.size = 0
        self.reusable = False
        self.closed = False
        self.head_done = False
        self.idle_since = 0.0

    # -- asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        if self.waiter is None:  # an idle connection has nothing to say: whatever it says, it is not reused
            self._fail(UpstreamProtocolError("the upstream sent bytes nobody asked for"))
            return
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as exc:
            self._fail(UpstreamProtocolError(f"the upstream's reply is not valid HTTP: {exc}"))

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.head_done and not {"content-length", "transfer-encoding"} & self.headers.keys():
            self.on_message_complete()  # a reply whose body runs to the end of the connection
        self._fail(UpstreamProtocolError("the upstream closed the connection before its reply was complete"))

    # -- httptools callbacks
    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers[name.decode("latin-1").lower()] = value.decode("latin-1")

    def on_headers_complete(self) -> None:
        self.head_done = True

    def on_body(self, body: bytes) -> None:
        self.size += len(body)
        if self.size > MAX_REPLY_BYTES:
            self._fail(UpstreamProtocolError(f"the upstream's reply is larger than {MAX_REPLY_BYTES // 2**20} MB"))
            return
        self.body.append(body)

    def on_message_complete(self) -> None:
        self.reusable = self.parser.should_keep_alive()
        waiter, self.waiter = self.waiter, None
        if waiter is None or waiter.done():
            return
        try:
            body = _decoded(self.headers, b"".join(self.body))
        except (zlib.error, UpstreamProtocolError) as exc:
            self.reusable = False
            waiter.set_exception(UpstreamProtocolError(f"the upstream's reply body cannot be read: {exc}"))
            return
        waiter.set_result(Reply(self.parser.get_status_code(), self.headers, body))

    # --
    def _fail(self, exc: Exception) -> None:
        self.reusable = False
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_exception(exc)
        if self.transport is not None:
            self.transport.close()

    async def exchange(self, data: bytes) -> Reply:
        assert self.transport is not None
        self.headers, self.body, self.size, self.reusable, self.head_done = {}, [], 0, False, False
        self.waiter = asyncio.get_running_loop().create_future()
        self.transport.write(data)
        return await self.waiter


def _decoded(headers: dict[str, str], body: bytes) -> bytes:
    """The body without a gzip / deflate content-encoding (asked for ``identity``, some servers compress anyway)."""
    encoding = headers.get("content-encoding", "identity").strip().lower()
    if encoding in ("identity", ""):
        return body
    if encoding not in ("gzip", "deflate"):
        raise UpstreamProtocolError(f"the upstream answered with content-encoding {encoding!r}")
    headers.pop("content-encoding", None)
    decoder = zlib.decompressobj(zlib.MAX_WBITS | 32)
    out = decoder.decompress(body, MAX_REPLY_BYTES + 1)  # never more than the bound: a small body may expand a lot
    out += decoder.flush() if len(out) <= MAX_REPLY_BYTES else b""
    if len(out) > MAX_REPLY_BYTES:
        raise UpstreamProtocolError(f"the upstream's reply is larger than {MAX_REPLY_BYTES // 2**20} MB decompressed")
    return out


class Pool:
    """Idle keep-alive connections per host; ``post`` borrows one (or opens one) for one exchange."""

    def __init__(self) -> None:
        self._idle: dict[tuple[str, int, bool], deque[_Connection]] = {}
        self._tls: ssl.SSLContext | None = None

    async def post(self, target: Target, body: bytes) -> Reply:
        conn = self._borrow(target.key) or await self._open(target)
        try:
            reply = await conn.exchange(target.request(body))
        except BaseException:  # cancelled (a deadline) or broken: the connection is not reused
            conn.reusable = False
            if conn.transport is not None:
                conn.transport.close()
            raise
        self._give_back(target.key, conn)
        return reply

    def _borrow(self, key: tuple[str, int, bool]) -> _Connection | None:
        idle = self._idle.get(key)
        now = time.monotonic()
        while idle:
            conn = idle.pop()
            assert conn.transport is not None
            if not conn.closed and not conn.transport.is_closing() and now - conn.idle_since < IDLE_S:
                return conn
            conn.transport.close()
        return None

    async def _open(self, target: Target) -> _Connection:
        loop = asyncio.get_running_loop()
        if target.tls and self._tls is None:
            self._tls = ssl.create_default_context()
        tls = self._tls if target.tls else None
        _, conn = await loop.create_connection(_Connection, target.host, target.port, ssl=tls,
                                               server_hostname=target.host if tls else None)
        return conn

    def _give_back(self, key: tuple[str, int, bool], conn: _Connection) -> None:
        assert conn.transport is not None
        idle = self._idle.setdefault(key, deque())
        if not conn.reusable or conn.closed or conn.transport.is_closing() or len(idle) >= MAX_IDLE:
            conn.transport.close()
            return
        conn.idle_since = time.monotonic()
        idle.append(conn)

    def close(self) -> None:
        for idle in self._idle.values():
            while idle:
                conn = idle.pop()
                if conn.transport is not None:
                    conn.transport.close()
        self._idle.clear()


__all__ = ["Pool", "Reply", "Target", "UpstreamProtocolError"]
