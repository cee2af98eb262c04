"""A shared cache store on Redis, for several workers; checked for reachability when it opens."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from relaykit.embeddings.base import Vectors
from relaykit.errors import UsageError
from relaykit.models.cache.store import CacheEntry, CacheStoreError, NamespaceStats, stack


class RedisStore:
    """Entries as Redis hashes (expiring with their TTL), an index set per semantic group and per
    namespace, and a counters hash per namespace, all under ``prefix``."""

    name = "redis"

    def __init__(self, url: str = "redis://127.0.0.1:6379/0", *, prefix: str = "relaykit:cache:",
                 connect_timeout_s: float = 2.0) -> None:
        try:
            import redis
        except ImportError:
            raise UsageError("the Redis cache store needs the redis client: pip install 'relaykit[redis]'") from None
        self.url = url
        self.prefix = prefix
        self._errors: tuple[type[Exception], ...] = (redis.exceptions.RedisError,)
        try:
            self._r = redis.Redis.from_url(url, socket_connect_timeout=connect_timeout_s,
                                           socket_timeout=connect_timeout_s * 5)
            self._r.ping()
        except (redis.exceptions.RedisError, ValueError) as exc:
            raise UsageError(
                f"cannot reach Redis at {url} ({exc}); start redis-server (apt-get install redis-server) or "
                "pass the right redis://HOST:PORT/DB, or use the sqlite store"
            ) from None

    def _k(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    @contextmanager
    def _guard(self) -> Iterator[Any]:
        try:
            yield self._r
        except self._errors as exc:
            raise CacheStoreError(f"the Redis cache at {self.url} failed: {exc}") from exc

    def get(self, key: str, now: float) -> CacheEntry | None:
        with self._guard() as r:
            raw = r.hgetall(self._k("e", key))
        if not raw:
            return None
        expires = float(raw[b"expires_at"]) if raw.get(b"expires_at") else None
        if expires is not None and now >= expires:
            return None
        vector = np.frombuffer(raw[b"vector"], dtype=np.float32) if raw.get(b"vector") else None
        return CacheEntry(key=key, namespace=raw[b"namespace"].decode(), group=raw[b"group"].decode(),
                          response=json.loads(raw[b"response"]), query=raw[b"query"].decode(), vector=vector,
                          created_at=float(raw[b"created_at"]), expires_at=expires)

    def put(self, entry: CacheEntry) -> None:
        self.put_many([entry])

    def put_many(self, entries: list[CacheEntry]) -> None:
        with self._guard() as r:
            pipe = r.pipeline(transaction=True)
            for entry in entries:
                self._queue_put(pipe, entry)
            pipe.execute()

    def _queue_put(self, pipe: Any, entry: CacheEntry) -> None:
        key = self._k("e", entry.key)
        mapping: dict[str, Any] = {
            "namespace": entry.namespace, "group": entry.group, "response": json.dumps(entry.response),
            "query": entry.query, "created_at": entry.created_at, "expires_at": entry.expires_at or "",
            "vector": b"" if entry.vector is None else np.asarray(entry.vector, dtype=np.float32).tobytes(),
        }
        pipe.delete(key)
        pipe.hset(key, mapping=mapping)
        if entry.expires_at is not None:
            pipe.pexpireat(key, int(entry.expires_at * 1000))
        pipe.sadd(self._k("g", entry.namespace, entry.group), entry.key)
        pipe.sadd(self._k("n", entry.namespace), entry.key)
        pipe.sadd(self._k("namespaces"), entry.namespace)
        pipe.hincrby(self._k("c", entry.namespace), "version", 1)

    def vectors(self, namespace: str, group: str, now: float) -> tuple[list[str], Vectors]:
        index = self._k("g", namespace, group)
        with self._guard() as r:
            members = sorted(m.decode() for m in r.smembers(index))
            pipe = r.pipeline(transaction=False)
            for member in members:
                pipe.hmget(self._k("e", member), "vector", "expires_at")
            rows = pipe.execute()
            gone = [m for m, (vec, _) in zip(members, rows) if vec is None]
            if gone:
                r.srem(index, *gone)
        live = [(m, vec) for m, (vec, exp) in zip(members, rows)
                if vec and not (exp and now >= float(exp))]
        return [m for m, _ in live], stack([np.frombuffer(v, dtype=np.float32) for _, v in live])

    def version(self, namespace: str) -> int:
        with self._guard() as r:
            value = r.hget(self._k("c", namespace), "version")
        return int(value or 0)

    def count(self, namespace: str, *, hits: int = 0, misses: int = 0, saved_tokens: int = 0) -> None:
        with self._guard() as r:
            pipe = r.pipeline(transaction=False)
            for name, delta in (("hits", hits), ("misses", misses), ("saved_tokens", saved_tokens)):
                if delta:
                    pipe.hincrby(self._k("c", namespace), name, delta)
            pipe.sadd(self._k("namespaces"), namespace)
            pipe.execute()

    def _namespaces(self) -> list[str]:
        with self._guard() as r:
            return sorted(n.decode() for n in r.smembers(self._k("namespaces")))

    def stats(self) -> dict[str, NamespaceStats]:
        out = {}
        now = time.time()
        for ns in self._namespaces():
            with self._guard() as r:
                counters = {k.decode(): int(v) for k, v in r.hgetall(self._k("c", ns)).items()}
                members = [m.decode() for m in r.smembers(self._k("n", ns))]
            live = sum(1 for m in members if self.get(m, now) is not None)
            out[ns] = NamespaceStats(live, counters.get("hits", 0), counters.get("misses", 0),
                                     counters.get("saved_tokens", 0))
        return out

    def clear(self, namespace: str | None = None) -> int:
        deleted = 0
        for ns in [namespace] if namespace is not None else self._namespaces():
            with self._guard() as r:
                members = [m.decode() for m in r.smembers(self._k("n", ns))]
                groups = [k for k in r.scan_iter(match=self._k("g", ns, "*"))]
                if members:
                    deleted += int(r.delete(*[self._k("e", m) for m in members]))
                r.delete(self._k("n", ns), *groups)
                r.hset(self._k("c", ns), mapping={"hits": 0, "misses": 0, "saved_tokens": 0})
                r.hincrby(self._k("c", ns), "version", 1)
        return deleted

    def close(self) -> None:
        self._r.close()
