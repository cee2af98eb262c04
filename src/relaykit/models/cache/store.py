"""The cache-store protocol, the entry it stores, the in-memory store, and ``open_store(spec)``."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, runtime_checkable

import numpy as np

from relaykit.embeddings.base import Vectors
from relaykit.errors import RelaykitError
from relaykit.registry import Registry


class CacheStoreError(RelaykitError):
    """A store failed while serving (disk error, corruption found mid-run, connection lost).

    ``Cached`` treats it as a miss and warns, so a run is never stopped by its cache.
    """


@dataclass(frozen=True)
class CacheEntry:
    """One cached answer.

    ``key`` is the exact key; ``group`` hashes everything a semantic hit must match besides the last
    user message (model, parameters, schema, namespace, earlier messages, embedder); ``query`` is
    that last user message and ``vector`` its embedding (semantic mode only).
    """

    key: str
    namespace: str
    group: str
    response: dict[str, Any]
    created_at: float
    expires_at: float | None = None
    query: str = ""
    vector: Vectors | None = field(default=None, compare=False)

    def expired(self, now: float) -> bool:
        return self.expires_at is not None and now >= self.expires_at

    @property
    def saved_tokens(self) -> int:
        return int(self.response.get("prompt_tokens", 0)) + int(self.response.get("completion_tokens", 0))


@dataclass
class NamespaceStats:
    entries: int = 0
    hits: int = 0
    misses: int = 0
    saved_tokens: int = 0


@runtime_checkable
class CacheStore(Protocol):
    """Where ``Cached`` keeps answers. Implementations: ``MemoryStore``, ``SQLiteStore``, ``RedisStore``."""

    name: str

    def get(self, key: str, now: float) -> CacheEntry | None:
        """The live entry under ``key`` (``None`` when absent or expired)."""

    def put(self, entry: CacheEntry) -> None:
        """Store ``entry``, replacing any entry with the same key."""

    def vectors(self, namespace: str, group: str, now: float) -> tuple[list[str], Vectors]:
        """Keys and embeddings of the live entries of one semantic group."""

    def version(self, namespace: str) -> int:
        """A number that changes whenever the namespace's entries change (lets callers keep an index)."""

    def count(self, namespace: str, *, hits: int = 0, misses: int = 0, saved_tokens: int = 0) -> None:
        """Add to the namespace's hit, miss and saved-token counters."""

    def stats(self) -> dict[str, NamespaceStats]:
        """Entries and counters per namespace."""

    def clear(self, namespace: str | None = None) -> int:
        """Delete the entries (and counters) of one namespace, or of all; returns entries deleted."""

    def close(self) -> None: ...


def stack(vectors: list[Vectors], dim_hint: int = 0) -> Vectors:
    if not vectors:
        return np.zeros((0, dim_hint), dtype=np.float32)
    return np.vstack([v.reshape(1, -1) for v in vectors]).astype(np.float32)


class MemoryStore:
    """A process-local store; fast, forgotten at exit. Good for tests and single runs."""

    name = "memory"

    def __init__(self) -> None:
        self._entries: dict[str, CacheEntry] = {}
        self._stats: dict[str, NamespaceStats] = {}
        self._versions: dict[str, int] = {}
        self._lock = threading.Lock()

    def get(self, key: str, now: float) -> CacheEntry | None:
        entry = self._entries.get(key)
        return None if entry is None or entry.expired(now) else entry

    def put(self, entry: CacheEntry) -> None:
        with self._lock:
            self._entries[entry.key] = entry
            self._versions[entry.namespace] = self._versions.get(entry.namespace, 0) + 1

    def vectors(self, namespace: str, group: str, now: float) -> tuple[list[str], Vectors]:
        with self._lock:
            live = [e for e in self._entries.values()
                    if e.namespace == namespace and e.group == group and e.vector is not None and not e.expired(now)]
        return [e.key for e in live], stack([e.vector for e in live if e.vector is not None])

    def version(self, namespace: str) -> int:
        return self._versions.get(namespace, 0)

    def count(self, namespace: str, *, hits: int = 0, misses: int = 0, saved_tokens: int = 0) -> None:
        with self._lock:
            stats = self._stats.setdefault(namespace, NamespaceStats())
            stats.hits += hits
            stats.misses += misses
            stats.saved_tokens += saved_tokens

    def stats(self) -> dict[str, NamespaceStats]:
        out = {ns: replace(s) for ns, s in self._stats.items()}
        for entry in self._entries.values():
            out.setdefault(entry.namespace, NamespaceStats()).entries += 1
        return out

    def clear(self, namespace: str | None = None) -> int:
        with self._lock:
            doomed = [k for k, e in self._entries.items() if namespace is None or e.namespace == namespace]
            for key in doomed:
                namespace_of = self._entries.pop(key).namespace
                self._versions[namespace_of] = self._versions.get(namespace_of, 0) + 1
            for ns in [ns for ns in self._stats if namespace is None or ns == namespace]:
                self._stats[ns] = NamespaceStats()
        return len(doomed)

    def close(self) -> None:
        return None


StoreFactory = Callable[..., CacheStore]  # called as factory(rest_of_spec, **options)
CACHE_STORES: Registry[StoreFactory] = Registry("cache store", "relaykit.cache_stores")
"""Cache store schemes (``memory``, ``sqlite``, ``redis`` and plugins of group ``relaykit.cache_stores``)."""


def register_store(scheme: str, factory: StoreFactory) -> None:
    """Make ``open_store`` accept ``SCHEME`` or ``SCHEME:REST`` specs (``factory(REST, **options)``)."""
    CACHE_STORES.register(scheme, factory)


def open_store(spec: str | CacheStore = "sqlite", **options: Any) -> CacheStore:
    """``memory``, ``sqlite`` (under RELAYKIT_HOME), ``sqlite:PATH``, ``redis://HOST:PORT/DB``, a plugin's
    scheme, or ``spec`` itself when it already is a store."""
    if not isinstance(spec, str):
        return spec
    scheme, _, rest = spec.partition(":")
    return CACHE_STORES.get(scheme)(rest, **options)


def _memory(rest: str, **options: Any) -> CacheStore:
    return MemoryStore()


def _sqlite(rest: str, **options: Any) -> CacheStore:
    from relaykit.models.cache.sqlite import SQLiteStore, default_path

    return SQLiteStore(rest or default_path(), **options)


def _redis(rest: str, **options: Any) -> CacheStore:
    from relaykit.models.cache.redis_store import RedisStore

    return RedisStore("redis:" + rest, **options)


register_store("memory", _memory)
register_store("sqlite", _sqlite)
register_store("redis", _redis)
