"""The entry a cache store keeps, its per-namespace counters, and the error a failing store raises."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from relaykit.embeddings.base import Vectors
from relaykit.errors import RelaykitError


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
