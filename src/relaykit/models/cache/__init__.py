"""Caching model wrapper and the stores behind it (memory, SQLite, Redis)."""

from relaykit.models.cache.breaker import CircuitBreaker, StoreSkipped
from relaykit.models.cache.cached import (
    MODES,
    NOT_CACHED_FINISH_REASONS,
    Cached,
    CacheMiss,
    CacheStats,
    cacheable,
    split_query,
)
from relaykit.models.cache.guards import DEFAULT_GUARDS, Guard, negation_count, same_negation, same_numbers
from relaykit.models.cache.index import SemanticIndex
from relaykit.models.cache.integrity import DamagedEntryWarning
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
from relaykit.redact import fingerprint_secrets as redact_secrets
from relaykit.redact import strip_url_credentials

__all__ = [
    "CACHE_STORES",
    "DEFAULT_GUARDS",
    "MODES",
    "NOT_CACHED_FINISH_REASONS",
    "CacheEntry",
    "CacheMiss",
    "CacheStats",
    "CacheStore",
    "CacheStoreError",
    "Cached",
    "CircuitBreaker",
    "DamagedEntryWarning",
    "Guard",
    "MemoryStore",
    "NamespaceStats",
    "SemanticIndex",
    "StoreSkipped",
    "cacheable",
    "negation_count",
    "open_store",
    "redact_secrets",
    "register_store",
    "same_negation",
    "same_numbers",
    "split_query",
    "strip_url_credentials",
]
