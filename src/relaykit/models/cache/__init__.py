"""Caching model wrapper and the stores behind it (memory, SQLite, Redis)."""

from relaykit.models.cache.cached import MODES, Cached, CacheMiss, CacheStats, split_query
from relaykit.models.cache.guards import DEFAULT_GUARDS, Guard, negation_count, same_negation, same_numbers
from relaykit.models.cache.store import (
    CACHE_STORES,
    CacheEntry,
    CacheStore,
    CacheStoreError,
    MemoryStore,
    NamespaceStats,
    open_store,
    register_store,
)

__all__ = [
    "CACHE_STORES",
    "DEFAULT_GUARDS",
    "MODES",
    "CacheEntry",
    "CacheMiss",
    "CacheStats",
    "CacheStore",
    "CacheStoreError",
    "Cached",
    "Guard",
    "MemoryStore",
    "NamespaceStats",
    "negation_count",
    "open_store",
    "register_store",
    "same_negation",
    "same_numbers",
    "split_query",
]
