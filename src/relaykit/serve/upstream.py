"""Forward a request to a route's upstreams in order, under one overall deadline.

An upstream that answers 408, 409, 429 or 5xx, breaks the connection, or runs out of its own deadline hands the
request to the next one; any other answer (a 2xx, or a 4xx that is the client's to fix) goes back to the client.
A stream falls back only before its first byte; after that the bytes are relayed as they arrive.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx2

from relaykit.serve.config import Route, Upstream

RETRYABLE = frozenset({408, 409, 429, 500, 502, 503, 504})


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


def _headers(upstream: Upstream) -> dict[str, str]:
    key = os.environ.get(upstream.api_key_env, "") if upstream.api_key_env else ""
    return {"authorization": f"Bearer {key or 'not-needed'}", "content-type": "application/json"}


def _url(upstream: Upstream) -> str:
    return upstream.base_url.rstrip("/") + "/chat/completions"


async def forward(client: httpx2.AsyncClient, route: Route, body: dict[str, Any], deadline_s: float,
                  stream: bool) -> UpstreamReply:
    """The first acceptable upstream answer; ``AllUpstreamsFailed`` lists every attempt."""
    ends = time.monotonic() + deadline_s
    attempts: list[Attempt] = []
    for upstream in route.upstreams:
        left = ends - time.monotonic()
        if left <= 0:
            break
        limit = min(left, upstream.deadline_s or left)
        started = time.monotonic()
        payload = {**body, "model": upstream.model}
        try:
            reply = await asyncio.wait_for(_send(client, upstream, payload, stream), timeout=limit)
        except (asyncio.TimeoutError, TimeoutError):
            attempts.append(Attempt(upstream.label, f"no answer within {limit:.1f} s", time.monotonic() - started))
            continue
        except httpx2.HTTPError as exc:
            attempts.append(Attempt(upstream.label, f"{type(exc).__name__}", time.monotonic() - started))
            continue
        if reply.status in RETRYABLE:
            attempts.append(Attempt(upstream.label, f"HTTP {reply.status}", time.monotonic() - started))
            continue
        reply.attempts = attempts
        if reply.chunks is not None:
            reply.chunks = _bounded(reply.chunks, ends)
        return reply
    raise AllUpstreamsFailed(attempts, timed_out=time.monotonic() >= ends)


async def _send(client: httpx2.AsyncClient, upstream: Upstream, payload: dict[str, Any],
                stream: bool) -> UpstreamReply:
    if not stream:
        response = await client.post(_url(upstream), json=payload, headers=_headers(upstream))
        return UpstreamReply(response.status_code, upstream.label, _kept_headers(response.headers),
                             body=response.content)
    request = client.build_request("POST", _url(upstream), json=payload, headers=_headers(upstream))
    response = await client.send(request, stream=True)
    if response.status_code != 200:
        body = await response.aread()
        await response.aclose()
        return UpstreamReply(response.status_code, upstream.label, _kept_headers(response.headers), body=body)
    first = response.aiter_raw()
    try:
        head = await first.__anext__()
    except StopAsyncIteration:
        head = b""
    return UpstreamReply(200, upstream.label, _kept_headers(response.headers), chunks=_relay(head, first, response))


async def _relay(head: bytes, rest: AsyncIterator[bytes], response: httpx2.Response) -> AsyncIterator[bytes]:
    try:
        if head:
            yield head
        async for chunk in rest:
            yield chunk
    finally:
        await response.aclose()


async def _bounded(chunks: AsyncIterator[bytes], ends: float) -> AsyncIterator[bytes]:
    """Relay chunks until the overall deadline; then stop with an SSE error event."""
    iterator = chunks.__aiter__()
    while True:
        left = ends - time.monotonic()
        try:
            chunk = await asyncio.wait_for(iterator.__anext__(), timeout=max(left, 0.001))
        except StopAsyncIteration:
            return
        except (asyncio.TimeoutError, TimeoutError):
            await _close(iterator)
            yield b'data: {"error": {"message": "relaykit gateway: the stream passed its deadline"}}\n\n'
            return
        yield chunk


async def _close(iterator: AsyncIterator[bytes]) -> None:
    aclose = getattr(iterator, "aclose", None)
    if aclose is not None:
        await aclose()


def _kept_headers(headers: httpx2.Headers) -> dict[str, str]:
    keep = ("content-type", "retry-after", "x-request-id")
    return {k: v for k, v in headers.items() if k.lower() in keep}


__all__ = ["AllUpstreamsFailed", "Attempt", "UpstreamReply", "forward"]
