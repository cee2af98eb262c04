"""The cache-store protocol, the entry it stores, the in-memory store, and ``open_store(spec)``."""

from __future__ import annotations

import bisect
import math
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol, runtime_checkable

import numpy as np

from relaykit.embeddings.base import Vectors
from relaykit.models.cache.entry import CacheEntry, CacheStoreError, NamespaceStats
from relaykit.models.cache.integrity import damaged, decode_vector, encode
from relaykit.registry import Registry

__all__ = [
    "CacheEntry",
    "CacheStore",
    "CacheStoreError",
    "MemoryStore",
    "NamespaceStats",
    "aligned",
    "decode_vectors",
    "open_store",
    "register_store",
    "stack",
]


@runtime_checkable
class CacheStore(Protocol):
    """Where ``Cached`` keeps answers. Implementations: ``MemoryStore``, ``SQLiteStore``, ``RedisStore``.

    Every store checksums what it writes; ``get`` returns ``None`` (with a ``DamagedEntryWarning``) for an
    entry that fails its checksum or cannot be decoded, and never raises for one.
    """

    name: str

    def get(self, key: str, now: float) -> CacheEntry | None:
        """The live, intact entry under ``key`` (``None`` when absent, expired or damaged)."""

    def put(self, entry: CacheEntry) -> None:
        """Store ``entry``, replacing any entry with the same key."""

    def vectors(self, namespace: str, group: str, now: float) -> tuple[list[str], Vectors]:
        """Keys and embeddings of the live entries of one semantic group."""

    def changes(self, namespace: str, group: str, since: int, now: float) -> tuple[list[str], Vectors, int]:
        """Keys and embeddings of the group's live entries written after cursor ``since`` (0: all), and the
        cursor to pass next time: lets a semantic index update incrementally instead of reloading."""

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


def aligned(store: str, keys: list[str], vectors: list[Vectors]) -> tuple[list[str], Vectors]:
    """Keys and one matrix of their vectors; a vector whose length differs from the most common one is
    damaged (warned about and dropped)."""
    if not vectors:
        return [], stack([])
    sizes = [v.size for v in vectors]
    dim = max(set(sizes), key=sizes.count)
    for key, size in zip(keys, sizes):
        if size != dim:
            damaged(store, key, f"a vector of {size} values among vectors of {dim}")
    keep = [i for i, size in enumerate(sizes) if size == dim]
    return [keys[i] for i in keep], stack([vectors[i] for i in keep])


def decode_vectors(store: str, keys: list[str], blobs: list[bytes]) -> tuple[list[str], Vectors]:
    """Keys and one matrix of the float32 vectors stored as ``blobs``: in one pass when every blob has the
    same length and holds finite numbers (the usual case), else blob by blob, the damaged ones warned about
    and dropped."""
    if not blobs:  # the usual read of a group's changes: nothing new
        return keys, stack([])
    sizes = {len(blob) for blob in blobs}
    if len(sizes) == 1 and (size := sizes.pop()) and size % 4 == 0:
        joined = bytearray().join(blobs)  # writable, like the matrix the blob-by-blob path builds
        matrix = np.frombuffer(joined, dtype=np.float32).reshape(len(blobs), size // 4)
        if math.isfinite(matrix.sum()):  # one reduction: a NaN or an infinity anywhere makes the sum one too
            return keys, matrix  # (a sum that overflows only sends the blobs the one-by-one way, which checks each)
    good_keys, vectors = [], []
    for key, blob in zip(keys, blobs):
        try:
            vector = decode_vector(blob)
        except ValueError as exc:
            damaged(store, key, str(exc))
            continue
        if vector is not None:
            good_keys.append(key)
            vectors.append(vector)
    return aligned(store, good_keys, vectors)


class MemoryStore:
    """A process-local store; fast, forgotten at exit. Good for tests and single runs."""

    name = "memory"

    def __init__(self) -> None:
        self._entries: dict[str, tuple[CacheEntry, str, int]] = {}  # key -> (entry, checksum, seq)
        self._groups: dict[tuple[str, str], list[tuple[int, str]]] = {}  # (namespace, group) -> [(seq, key)]
        self._stats: dict[str, NamespaceStats] = {}
        self._versions: dict[str, int] = {}
        self._lock = threading.Lock()

    def get(self, key: str, now: float) -> CacheEntry | None:
        found = self._entries.get(key)
        if found is None or found[0].expired(now):
            return None
        entry, stored, _ = found
        try:
            intact = encode(entry)[2] == stored
        except (TypeError, ValueError):
            intact = False
        if not intact:
            damaged(self.name, key, "checksum mismatch")
            return None
        return entry

    def put(self, entry: CacheEntry) -> None:
        digest = encode(entry)[2]
        with self._lock:
            seq = self._versions[entry.namespace] = self._versions.get(entry.namespace, 0) + 1
            self._entries[entry.key] = (entry, digest, seq)
            self._groups.setdefault((entry.namespace, entry.group), []).append((seq, entry.key))

    def vectors(self, namespace: str, group: str, now: float) -> tuple[list[str], Vectors]:
        keys, matrix, _ = self.changes(namespace, group, 0, now)
        return keys, matrix

    def changes(self, namespace: str, group: str, since: int, now: float) -> tuple[list[str], Vectors, int]:
        with self._lock:
            log = self._groups.get((namespace, group), [])
            fresh = log[bisect.bisect_right(log, (since, "\uffff")):]
            cursor = log[-1][0] if log else since
            live = [found[0] for seq, key in fresh if (found := self._entries.get(key)) is not None
                    and found[2] == seq and found[0].vector is not None and not found[0].expired(now)]
        keys, matrix = aligned(self.name, [e.key for e in live], [e.vector for e in live if e.vector is not None])
        return keys, matrix, max(cursor, since)

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
        for entry, _, _ in self._entries.values():
            out.setdefault(entry.namespace, NamespaceStats()).entries += 1
        return out

    def clear(self, namespace: str | None = None) -> int:
        with self._lock:
            doomed = [k for k, (e, _, _) in self._entries.items() if namespace is None or e.namespace == namespace]
            for key in doomed:
                namespace_of = self._entries.pop(key)[0].namespace
                self._versions[namespace_of] = self._versions.get(namespace_of, 0) + 1
            for pair in [p for p in self._groups if namespace is None or p[0] == namespace]:
                del self._groups[pair]
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
