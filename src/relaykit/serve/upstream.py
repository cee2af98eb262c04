"""Forward a request to a route's upstreams in order, under one overall deadline.

An upstream that answers 408, 409, 429 or 5xx, breaks the connection, or runs out of its own deadline hands the
request to the next one; any other answer (a 2xx, or a 4xx that is the client's to fix) goes back to the client.
A stream falls back only before its first byte; after that the bytes are relayed as they arrive.

Plain requests go through the worker's lean keep-alive client (``relaykit.serve.pool``), streams through one
shared ``aiohttp`` session; on the passthrough path the body is serialised once and the reply's bytes go back
untouched.
"""

from __future__ import annotations

import asyncio
import functools
import os
import sys
import time
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import aiohttp
import orjson
from yarl import URL

from relaykit.serve.config import Route, Upstream
from relaykit.serve.pool import MAX_REPLY_BYTES, Pool, Target, UpstreamProtocolError

T = TypeVar("T")
RETRYABLE = frozenset({408, 409, 429, 500, 502, 503, 504})
KEPT_HEADERS = ("content-type", "retry-after", "x-request-id")


@dataclass
class Attempt:
    upstream: str
    outcome: str
    seconds: float


@dataclass
class UpstreamReply:
    """What the chosen upstream answered (``body`` for a plain reply, ``chunks`` for a stream)."""

    status: int
    upstream: str
    headers: dict[str, str]
    body: bytes = b""
    chunks: AsyncIterator[bytes] | None = None
    attempts: list[Attempt] = field(default_factory=list)


class AllUpstreamsFailed(Exception):
    def __init__(self, attempts: list[Attempt], timed_out: bool) -> None:
        self.attempts = attempts
        self.timed_out = timed_out
        listed = "; ".join(f"{a.upstream}: {a.outcome}" for a in attempts) or "no upstream was tried"
        super().__init__(f"every upstream failed ({listed})")


def open_session() -> aiohttp.ClientSession:
    """The worker's one upstream client: pooled keep-alive connections, no overall timeout (deadlines are ours)."""
    connector = aiohttp.TCPConnector(limit=512, limit_per_host=0, ttl_dns_cache=300, keepalive_timeout=30)
    # no cookie jar: an upstream's cookies must never travel to another tenant's request (and it costs a lookup)
    return aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=None),
                                 skip_auto_headers=("User-Agent",), cookie_jar=aiohttp.DummyCookieJar())


@functools.lru_cache(maxsize=4096)
def _target(base_url: str, api_key_env: str | None, path: str) -> tuple[URL, dict[str, str]]:
    """An upstream's URL (parsed once) and request headers (its key read from the environment once)."""
    key = os.environ.get(api_key_env, "") if api_key_env else ""
    headers = {"authorization": f"Bearer {key or 'not-needed'}", "content-type": "application/json"}
    return URL(base_url.rstrip("/") + path), headers


async def forward(session: aiohttp.ClientSession, route: Route, body: dict[str, Any], deadline_s: float,
                  stream: bool, path: str = "/chat/completions", pool: Pool | None = None) -> UpstreamReply:
    """The first acceptable upstream answer; ``AllUpstreamsFailed`` lists every attempt. Plain requests go
    through ``pool`` when one is given (the lean client), streams always through the aiohttp ``session``."""
    ends = time.monotonic() + deadline_s
    attempts: list[Attempt] = []
    deadline_hit = False
    for upstream in route.upstreams:
        left = ends - time.monotonic()
        if left <= 0:
            break
        limit = min(left, upstream.deadline_s or left)
        started = time.monotonic()
        data = orjson.dumps({**body, "model": upstream.model})
        try:
            if pool is not None and not stream:
                reply = await _within(_post(pool, upstream, path, data), limit)
            else:
                reply = await _within(_send(session, upstream, path, data, stream), limit)
        except (asyncio.TimeoutError, TimeoutError):
            attempts.append(Attempt(upstream.label, f"no answer within {limit:.1f} s", time.monotonic() - started))
            if limit >= left:  # the request's own deadline ran out (the loop's timer may fire a hair early)
                deadline_hit = True
                break
            continue
        except (aiohttp.ClientError, OSError, ValueError) as exc:
            attempts.append(Attempt(upstream.label, type(exc).__name__, time.monotonic() - started))
            continue
        if reply.status in RETRYABLE:
            attempts.append(Attempt(upstream.label, f"HTTP {reply.status}", time.monotonic() - started))
            continue
        reply.attempts = attempts
        if reply.chunks is not None:
            reply.chunks = _bounded(reply.chunks, ends)
        return reply
    raise AllUpstreamsFailed(attempts, timed_out=deadline_hit or time.monotonic() >= ends)


async def _within(awaitable: Awaitable[T], seconds: float) -> T:
    """``awaitable`` with a time limit (``TimeoutError``), in the calling task (no task is created on 3.11+)."""
    if sys.version_info >= (3, 11):
        async with asyncio.timeout(seconds):
            return await awaitable
    return await asyncio.wait_for(awaitable, timeout=seconds)  # pragma: no cover - Python 3.10


@functools.lru_cache(maxsize=4096)
def _pool_target(base_url: str, api_key_env: str | None, path: str) -> Target:
    url, headers = _target(base_url, api_key_env, path)
    return Target(str(url), headers)


async def _post(pool: Pool, upstream: Upstream, path: str, data: bytes) -> UpstreamReply:
    reply = await pool.post(_pool_target(upstream.base_url, upstream.api_key_env, path), data)
    return UpstreamReply(reply.status, upstream.label, _kept_headers(reply.headers), body=reply.body)


async def _send(session: aiohttp.ClientSession, upstream: Upstream, path: str, data: bytes,
                stream: bool) -> UpstreamReply:
    url, headers = _target(upstream.base_url, upstream.api_key_env, path)
    response = await session.post(url, data=data, headers=headers)
    try:
        headers = _kept_headers(response.headers)
        if not stream or response.status != 200:
            return UpstreamReply(response.status, upstream.label, headers, body=await _read_bounded(response))
        chunks = response.content.iter_any().__aiter__()
        try:
            head = await chunks.__anext__()
        except StopAsyncIteration:
            head = b""
    except BaseException:  # a cancelled or broken exchange must not leave its connection in the pool
        response.close()
        raise
    return UpstreamReply(200, upstream.label, headers, chunks=_relay(head, chunks, response))


async def _read_bounded(response: aiohttp.ClientResponse) -> bytes:
    """The reply's whole body (decompressed), refused past ``MAX_REPLY_BYTES`` (a failed attempt)."""
    chunks, size = [], 0
    async for chunk in response.content.iter_chunked(2**16):
        size += len(chunk)
        if size > MAX_REPLY_BYTES:
            raise UpstreamProtocolError(f"the upstream's reply is larger than {MAX_REPLY_BYTES // 2**20} MB")
        chunks.append(chunk)
    return b"".join(chunks)


async def _relay(head: bytes, rest: AsyncIterator[bytes], response: aiohttp.ClientResponse) -> AsyncIterator[bytes]:
    try:
        if head:
            yield head
        async for chunk in rest:
            yield chunk
    finally:
        response.close()


async def _bounded(chunks: AsyncIterator[bytes], ends: float) -> AsyncIterator[bytes]:
    """Relay chunks until the overall deadline; then stop with an SSE error event."""
    iterator = chunks.__aiter__()
    try:
        while True:
            left = ends - time.monotonic()
            try:
                chunk = await _within(iterator.__anext__(), max(left, 0.001))
            except StopAsyncIteration:
                return
            except (asyncio.TimeoutError, TimeoutError):
                yield b'data: {"error": {"message": "relaykit gateway: the stream passed its deadline"}}\n\n'
                return
            yield chunk
    finally:
        await _close(iterator)


async def _close(iterator: AsyncIterator[bytes]) -> None:
    aclose = getattr(iterator, "aclose", None)
    if aclose is not None:
        await aclose()


def _kept_headers(headers: Any) -> dict[str, str]:
    return {k: headers[k] for k in KEPT_HEADERS if k in headers}


__all__ = ["AllUpstreamsFailed", "Attempt", "UpstreamReply", "forward", "open_session"]
