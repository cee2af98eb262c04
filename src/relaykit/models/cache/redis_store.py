"""A shared cache store on Redis, for several workers; checked for reachability when it opens.

Store calls have short socket timeouts and no retries, behind a circuit breaker: after a failure (a
hung or dead server) the store is skipped for ``cooldown_s``, so a dead cache costs one timeout, then
nothing, until one probe call finds it back.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from relaykit.embeddings.base import Vectors
from relaykit.errors import UsageError
from relaykit.models.cache.breaker import CircuitBreaker, StoreSkipped
from relaykit.models.cache.entry import CacheEntry, CacheStoreError, NamespaceStats
from relaykit.models.cache.integrity import damaged, decode, decode_vector, encode
from relaykit.models.cache.store import aligned
from relaykit.redact import strip_url_credentials

# one atomic write: the namespace's next sequence number, the entry hash (with its checksum), its place in
# the group's sorted set (score = sequence number: readers fetch only what is newer than they have)
PUT = """
local seq = redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[2], 'namespace', ARGV[2], 'group', ARGV[3], 'response', ARGV[4], 'query', ARGV[5],
           'created_at', ARGV[6], 'expires_at', ARGV[7], 'vector', ARGV[8], 'checksum', ARGV[9], 'seq', seq)
if ARGV[10] ~= '' then redis.call('PEXPIREAT', KEYS[2], ARGV[10]) end
redis.call('ZADD', KEYS[3], seq, ARGV[1])
redis.call('SADD', KEYS[4], ARGV[1])
redis.call('SADD', KEYS[5], ARGV[2])
return seq
"""


class RedisStore:
    """Entries as Redis hashes (expiring with their TTL), a sorted index per semantic group, an index set
    per namespace, and a counters hash per namespace, all under ``prefix``."""

    name = "redis"

    def __init__(self, url: str = "redis://127.0.0.1:6379/0", *, prefix: str = "relaykit:cache:",
                 connect_timeout_s: float = 0.5, timeout_s: float = 0.5, cooldown_s: float = 30.0) -> None:
        try:
            import redis
            from redis.backoff import NoBackoff
            from redis.retry import Retry
        except ImportError:
            raise UsageError("the Redis cache store needs the redis client: pip install 'relaykit[redis]'") from None
        self.url = strip_url_credentials(url)
        self.prefix = prefix
        self.breaker = CircuitBreaker(cooldown_s)
        self._errors: tuple[type[Exception], ...] = (redis.exceptions.RedisError, OSError)
        try:
            self._r = redis.Redis.from_url(url, socket_connect_timeout=connect_timeout_s, socket_timeout=timeout_s,
                                           retry=Retry(NoBackoff(), 0))
            self._r.ping()
        except (redis.exceptions.RedisError, ValueError, OSError) as exc:
            raise UsageError(
                f"cannot reach Redis at {self.url} ({strip_url_credentials(str(exc))}); start redis-server "
                "(apt-get install redis-server) or pass the right redis://HOST:PORT/DB, or use the sqlite store"
            ) from None
        self._put = self._r.register_script(PUT)

    def _k(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    @contextmanager
    def _guard(self) -> Iterator[Any]:
        if not self.breaker.allow():
            raise StoreSkipped(f"the Redis cache at {self.url} failed recently and is skipped for a "
                               f"{self.breaker.cooldown_s:g} s cool-down")
        try:
            yield self._r
        except self._errors as exc:
            self.breaker.failure()
            raise CacheStoreError(f"the Redis cache at {self.url} failed: {strip_url_credentials(str(exc))}") from exc
        self.breaker.success()

    def get(self, key: str, now: float) -> CacheEntry | None:
        with self._guard() as r:
            raw = r.hgetall(self._k("e", key))
        if not raw:
            return None
        fields: dict[str, Any] = {"key": key}
        for name, value in raw.items():
            fields[name.decode(errors="replace")] = value
        expires = fields.get("expires_at")
        try:
            if expires and now >= float(expires):
                return None
        except ValueError:
            pass  # a damaged expiry: decode reports it
        return decode(self.name, fields)

    def put(self, entry: CacheEntry) -> None:
        self.put_many([entry])

    def put_many(self, entries: list[CacheEntry]) -> None:
        with self._guard() as r:
            pipe = r.pipeline(transaction=False)
            for entry in entries:
                self._queue_put(pipe, entry)
            pipe.execute()

    def _queue_put(self, pipe: Any, entry: CacheEntry) -> None:
        response_json, blob, digest = encode(entry)
        keys = [self._k("c", entry.namespace), self._k("e", entry.key), self._k("gz", entry.namespace, entry.group),
                self._k("n", entry.namespace), self._k("namespaces")]
        expire_ms = "" if entry.expires_at is None else str(int(entry.expires_at * 1000))
        expires = "" if entry.expires_at is None else repr(float(entry.expires_at))
        args: list[str | bytes] = [entry.key, entry.namespace, entry.group, response_json, entry.query,
                                   repr(float(entry.created_at)), expires, blob, digest, expire_ms]
        self._put(keys=keys, args=args, client=pipe)

    def vectors(self, namespace: str, group: str, now: float) -> tuple[list[str], Vectors]:
        keys, matrix, _ = self.changes(namespace, group, 0, now)
        return keys, matrix

    def changes(self, namespace: str, group: str, since: int, now: float) -> tuple[list[str], Vectors, int]:
        index = self._k("gz", namespace, group)
        with self._guard() as r:
            members = [(m.decode(), int(score)) for m, score in r.zrangebyscore(index, f"({since}", "+inf",
                                                                               withscores=True)]
            pipe = r.pipeline(transaction=False)
            for member, _ in members:
                pipe.hmget(self._k("e", member), "vector", "expires_at")
            rows = pipe.execute()
            gone = [m for (m, _), (vec, _) in zip(members, rows) if vec is None]
            if gone:
                r.zrem(index, *gone)
        keys, vectors = [], []
        for (member, _), (blob, expires) in zip(members, rows):
            try:
                vector = decode_vector(blob)
                if vector is None or (expires and now >= float(expires)):
                    continue
            except ValueError as exc:
                damaged(self.name, member, str(exc))
                continue
            keys.append(member)
            vectors.append(vector)
        return (*aligned(self.name, keys, vectors), max([since, *(score for _, score in members)]))

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
                groups = [*r.scan_iter(match=self._k("gz", ns, "*")), *r.scan_iter(match=self._k("g", ns, "*"))]
                if members:
                    deleted += int(r.delete(*[self._k("e", m) for m in members]))
                r.delete(self._k("n", ns), *groups)
                r.hset(self._k("c", ns), mapping={"hits": 0, "misses": 0, "saved_tokens": 0})
                r.hincrby(self._k("c", ns), "version", 1)
        return deleted

    def close(self) -> None:
        self._r.close()
