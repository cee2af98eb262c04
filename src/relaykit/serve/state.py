"""State several gateway workers share: per-tenant rate limits and the per-tenant exact cache.

With ``memory`` the state lives in the worker; with ``redis://...`` every worker and machine that points at the
same Redis shares it (a request cached through one worker is a hit through any other).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from typing import Any, Protocol

from relaykit.errors import UsageError
from relaykit.redact import strip_url_credentials


class RateLimiter(Protocol):
    def hit(self, tenant: str, limit: int, now: float) -> float | None:
        """Count one request; ``None`` when allowed, else the seconds until the tenant may send again."""


class MemoryRateLimiter:
    """A fixed one-minute window per tenant, in this worker only."""

    def __init__(self) -> None:
        self._counts: dict[tuple[str, int], int] = {}
        self._lock = threading.Lock()

    def hit(self, tenant: str, limit: int, now: float) -> float | None:
        window = int(now // 60)
        with self._lock:
            if len(self._counts) > 10_000:
                self._counts = {k: v for k, v in self._counts.items() if k[1] == window}
            count = self._counts.get((tenant, window), 0) + 1
            self._counts[(tenant, window)] = count
        return None if count <= limit else (window + 1) * 60 - now


class RedisRateLimiter:
    """The same window kept in Redis, so every worker counts against one limit."""

    def __init__(self, url: str) -> None:
        import redis

        self._client = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        try:
            self._client.ping()
        except redis.RedisError as exc:
            raise UsageError(f"the rate-limit store {strip_url_credentials(url)} cannot be reached: "
                             f"{strip_url_credentials(str(exc))}") from None

    def hit(self, tenant: str, limit: int, now: float) -> float | None:
        window = int(now // 60)
        key = f"relaykit:rate:{tenant}:{window}"
        pipe = self._client.pipeline()
        pipe.incr(key)
        pipe.expire(key, 120)
        count = int(pipe.execute()[0])
        return None if count <= limit else (window + 1) * 60 - now


def open_rate_limiter(spec: str) -> RateLimiter:
    if spec == "memory":
        return MemoryRateLimiter()
    if spec.startswith("redis://"):
        return RedisRateLimiter(spec)
    raise UsageError(f"unknown rate store {spec!r}; use memory or redis://HOST:PORT/DB")


def cache_key(tenant: str, route: str, body: dict[str, Any]) -> str:
    """Everything that decides the answer, hashed, inside the tenant's own namespace."""
    material = {k: v for k, v in body.items() if k not in ("stream", "stream_options", "user")}
    digest = hashlib.sha256(json.dumps(material, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    return f"gateway:{tenant}:{route}:{digest}"


def cacheable(reply: dict[str, Any]) -> bool:
    """A complete, non-empty answer: never an empty one, a cut one (``length``) or a filtered one."""
    choices = reply.get("choices")
    if not isinstance(choices, list) or not choices:
        return False
    for choice in choices:
        message = choice.get("message") or {}
        if choice.get("finish_reason") in ("length", "content_filter"):
            return False
        if not message.get("content") and not message.get("tool_calls"):
            return False
    return True


class ExactCache:
    """The gateway's cache over a relaykit cache store; a store failure is a miss, never an error."""

    def __init__(self, spec: str) -> None:
        from relaykit.models.cache.store import open_store

        self.store = open_store(spec)

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            entry = self.store.get(key, time.time())
        except Exception:  # a broken cache must never fail a request
            return None
        if entry is None or not isinstance(entry.response.get("reply"), dict):
            return None
        return dict(entry.response["reply"])

    def put(self, key: str, tenant: str, reply: dict[str, Any], text: str | None = None) -> None:
        """Keep ``reply`` (a chat completion, or any endpoint's answer with its ``text`` given) under ``key``."""
        from relaykit.models.cache.store import CacheEntry

        usage: dict[str, Any] = reply["usage"] if isinstance(reply.get("usage"), dict) else {}
        if text is None:
            choices = reply.get("choices") or [{}]
            text = str((choices[0].get("message") or {}).get("content") or "")
        # the store keeps answers in relaykit's shape (text, token counts) with the upstream's reply beside it
        response = {"text": text,
                    "prompt_tokens": int(usage.get("prompt_tokens") or usage.get("input_tokens") or 0),
                    "completion_tokens": int(usage.get("completion_tokens") or usage.get("output_tokens") or 0),
                    "reply": reply}
        try:
            self.store.put(CacheEntry(key=key, namespace=f"gateway:{tenant}", group="", response=response,
                                      created_at=time.time()))
        except Exception:  # as above: the answer is still served
            return


__all__ = ["ExactCache", "MemoryRateLimiter", "RateLimiter", "RedisRateLimiter", "cache_key", "cacheable",
           "open_rate_limiter"]
