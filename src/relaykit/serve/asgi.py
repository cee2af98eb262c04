"""Raw ASGI plumbing for the gateway's two hot endpoints (``POST /v1/chat/completions`` and ``/v1/responses``).

The hot path builds no Starlette ``Request`` or ``Response`` objects: the body is read straight from
``receive``, and a plain answer is two ASGI messages whose header list is built once, as bytes. Streams still go
through Starlette's ``StreamingResponse`` (it also stops relaying when the client goes away).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Headers = list[tuple[bytes, bytes]]

JSON_TYPE = (b"content-type", b"application/json")


class GatewayError(Exception):
    """A request the gateway answers with an OpenAI-shaped error (``status``, ``kind``, extra headers)."""

    def __init__(self, status: int, message: str, kind: str = "invalid_request_error",
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.kind, self.headers = status, kind, headers or {}

    def answer(self) -> Answer:
        body = orjson.dumps({"error": {"message": str(self), "type": self.kind, "code": self.status}})
        return Answer.json(self.status, body, encode_headers(self.headers))


class ClientGone(Exception):
    """The client disconnected before its request body arrived: nothing is answered."""


class Answer:
    """A whole (non-streamed) answer: status, header list (bytes) and body, sent as two ASGI messages."""

    __slots__ = ("body", "headers", "status")

    def __init__(self, status: int, headers: Headers, body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    @classmethod
    def json(cls, status: int, body: bytes, extra: Headers) -> Answer:
        return cls(status, [(b"content-length", b"%d" % len(body)), JSON_TYPE, *extra], body)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": self.status, "headers": self.headers})
        await send({"type": "http.response.body", "body": self.body})


def header(scope: Scope, name: bytes) -> bytes | None:
    """The first value of request header ``name`` (lower-case bytes, as ASGI servers give them)."""
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value)
    return None


def encode_headers(headers: dict[str, str]) -> Headers:
    return [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]


async def read_body(scope: Scope, receive: Receive, limit: int) -> bytes:
    """The request body, refused (413) as soon as it is known to pass ``limit`` bytes."""
    declared = header(scope, b"content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise GatewayError(413, f"the request is larger than this gateway's limit of {limit} bytes")
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            raise ClientGone()
        chunk = message.get("body", b"")
        if chunk:
            parts.append(chunk)
            size += len(chunk)
            if size > limit:
                raise GatewayError(413, f"the request is larger than this gateway's limit of {limit} bytes")
        if not message.get("more_body", False):
            return parts[0] if len(parts) == 1 else b"".join(parts)


__all__ = [
    "JSON_TYPE",
    "Answer",
    "ClientGone",
    "GatewayError",
    "Headers",
    "Receive",
    "Scope",
    "Send",
    "encode_headers",
    "header",
    "read_body",
]
