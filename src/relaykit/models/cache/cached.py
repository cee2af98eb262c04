"""``Cached``: a model wrapper that answers repeated requests from a store: exact, semantic or replay."""

from __future__ import annotations

import functools
import hashlib
import json
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import numpy as np

from relaykit import tokens
from relaykit.embeddings.base import Embedder, Vectors, open_embedder
from relaykit.errors import InvalidOutput, UsageError
from relaykit.models.base import ChatRequest, ChatResponse, Message, Model, ModelWrapper
from relaykit.models.cache.guards import DEFAULT_GUARDS, Guard
from relaykit.models.cache.store import CacheEntry, CacheStore, CacheStoreError
from relaykit.models.structured import parsed_or_validate
from relaykit.telemetry import CACHE_HIT, Telemetry

T = TypeVar("T")


class CacheMiss(UsageError):
    """Replay mode found no recorded answer for a request."""


@dataclass(frozen=True)
class Mode:
    semantic: bool  # look for a similar request when the exact key misses
    call_on_miss: bool  # call the model on a miss (replay mode does not: a miss is an error)


MODES: dict[str, Mode] = {
    "exact": Mode(semantic=False, call_on_miss=True),
    "semantic": Mode(semantic=True, call_on_miss=True),
    "replay": Mode(semantic=False, call_on_miss=False),
}


@dataclass
class CacheStats:
    """This wrapper's counters (the store keeps the same counters per namespace, across processes)."""

    hits: int = 0
    semantic_hits: int = 0
    misses: int = 0
    saved_tokens: int = 0
    store_errors: int = 0


def _digest(material: Any) -> str:
    return hashlib.sha256(json.dumps(material, sort_keys=True, default=str).encode()).hexdigest()


def split_query(messages: Sequence[Message]) -> tuple[str, list[Any]]:
    """The last user message's text, and every other message (the context a semantic hit must match)."""
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].get("role") == "user":
            rest = [dict(m) for i, m in enumerate(messages) if i != index]
            return tokens.message_text(messages[index]), [index, *rest]
    return "", [dict(m) for m in messages]


class Cached(ModelWrapper):
    """Wraps ``model`` with a cache in ``store``.

    - ``exact``: the key hashes the model name, namespace, parameters, messages and schema.
    - ``semantic``: on an exact miss, embeds the last user message and serves the most similar cached
      answer whose model, parameters, schema, namespace and other messages are identical, when the
      cosine similarity reaches ``threshold`` and every guard passes (negations and numbers agree).
    - ``replay``: exact lookups only; a miss raises ``CacheMiss`` and the model is never called.

    Answers that failed (an exception) or do not validate against the request's schema are never
    stored. Entries live ``ttl`` seconds (``None``: forever). ``key_name`` replaces the model's name in
    the keys (to replay a recording offline with a stand-in model). A store that fails mid-run is treated as
    a miss with a warning, so the cache never stops a run.
    """

    def __init__(
        self,
        model: Model,
        store: CacheStore,
        *,
        mode: str = "exact",
        namespace: str = "default",
        ttl: float | None = None,
        embedder: Embedder | str | None = None,
        threshold: float = 0.92,
        guards: Sequence[Guard] = DEFAULT_GUARDS,
        telemetry: Telemetry | None = None,
        key_name: str | None = None,
    ) -> None:
        if mode not in MODES:
            raise UsageError(f"unknown cache mode {mode!r}; use one of: {', '.join(MODES)}")
        if not namespace:
            raise UsageError("the cache namespace must not be empty")
        if ttl is not None and ttl <= 0:
            raise UsageError(f"ttl must be a positive number of seconds or None, not {ttl}")
        if not 0.0 < threshold <= 1.0:
            raise UsageError(f"threshold must be in (0, 1], not {threshold}")
        super().__init__(model)
        self.store, self.mode, self.namespace, self.ttl = store, mode, namespace, ttl
        self._mode = MODES[mode]
        self._embedder_spec = embedder if embedder is not None else "minilm"
        self.threshold = threshold
        self.guards = tuple(guards)
        self.telemetry = telemetry
        self.stats = CacheStats()
        self._index: dict[str, tuple[int, list[str], Vectors]] = {}
        self.key_name = key_name or model.name

    @property
    def embedder(self) -> Embedder:
        if isinstance(self._embedder_spec, str):
            self._embedder_spec = open_embedder(self._embedder_spec)
        return self._embedder_spec





    # -- keys ---------------------------------------------------------------------------------------

    def key(self, request: ChatRequest) -> str:
        """The exact cache key of ``request``."""
        return _digest({"model": self.key_name, "namespace": self.namespace, **request.cache_key_material()})

    def group(self, request: ChatRequest) -> str:
        """What a semantic hit must share with the request: everything except the last user message."""
        material = request.cache_key_material()
        _, context = split_query(request.messages)
        material["messages"] = context
        return _digest({"model": self.key_name, "namespace": self.namespace, "embedder": self.embedder.name,
                        **material})

    # -- lookup -------------------------------------------------------------------------------------

    def lookup(self, request: ChatRequest | Sequence[Message] | str, **params: Any) -> ChatResponse | None:
        """The cached answer to ``request``, or ``None``; never calls the model (a hit is counted)."""
        req = request if isinstance(request, ChatRequest) else ChatRequest.of(request, **params)
        return self._find(req, self.key(req), time.time())[0]

    def _find(self, request: ChatRequest, key: str, now: float) -> tuple[ChatResponse | None, str, Vectors | None]:
        """(hit or None, the last user message, its embedding) -- the last two for storing a miss."""
        entry = self._safe(lambda: self.store.get(key, now))
        if entry is not None:
            return self._hit(entry, request, "exact", 1.0, now), "", None
        if not self._mode.semantic:
            return None, "", None
        query, _ = split_query(request.messages)
        if not query:
            return None, "", None
        vector = self.embedder.embed([query])[0]
        found = self._semantic_lookup(request, query, vector, now)
        if found is not None:
            return self._hit(found[0], request, "semantic", found[1], now), query, vector
        return None, query, vector

    def _complete(self, request: ChatRequest) -> ChatResponse:
        key = self.key(request)
        now = time.time()
        hit, query, vector = self._find(request, key, now)
        if hit is not None:
            return hit
        self._count(misses=1)
        if not self._mode.call_on_miss:
            raise CacheMiss(
                f"replay: no recorded answer for this request in namespace {self.namespace!r} (key {key[:16]}); "
                "record it first by running with mode='exact' against the same store and namespace"
            )
        response = self.model.complete(request)
        self._store(request, response, key, query, vector, now)
        return response

    def _semantic_lookup(self, request: ChatRequest, query: str, vector: Vectors,
                         now: float) -> tuple[CacheEntry, float] | None:
        group = self.group(request)
        keys, matrix = self._group_index(group, now)
        if not keys:
            return None
        # einsum, not BLAS: a BLAS call wakes its thread pool, which costs milliseconds on a busy machine
        sims = np.einsum("ij,j->i", matrix, vector.astype(np.float32))
        above = np.flatnonzero(sims >= self.threshold)
        for i in above[np.argsort(-sims[above])]:
            key = keys[int(i)]
            entry = self._safe(functools.partial(self.store.get, key, now))
            if entry is not None and all(guard(query, entry.query) for guard in self.guards):
                return entry, float(sims[i])
        return None

    def _group_index(self, group: str, now: float) -> tuple[list[str], Vectors]:
        version = self._safe(lambda: self.store.version(self.namespace))
        cached = self._index.get(group)
        if version is not None and cached is not None and cached[0] == version:
            return cached[1], cached[2]
        found = self._safe(lambda: self.store.vectors(self.namespace, group, now))
        if found is None:
            return [], np.zeros((0, 1), dtype=np.float32)
        self._index[group] = (version if version is not None else -1, *found)
        return found

    def _hit(self, entry: CacheEntry, request: ChatRequest, how: str, similarity: float, now: float) -> ChatResponse:
        data = entry.response
        saved = entry.saved_tokens
        age_ms = round((now - entry.created_at) * 1000.0, 3)
        response = ChatResponse(
            text=str(data["text"]), model=str(data.get("model", self.model.name)), prompt_tokens=0,
            completion_tokens=0, latency_s=0.0, finish_reason=str(data.get("finish_reason", "stop")),
            metadata={"cached": True, "cache_mode": how, "similarity": similarity, "saved_tokens": saved,
                      "cache_age_ms": age_ms, "original_prompt_tokens": data.get("prompt_tokens", 0),
                      "original_completion_tokens": data.get("completion_tokens", 0)},
        )
        if request.schema is not None:
            response = replace(response, parsed=parsed_or_validate(response, request.schema))
        self.stats.hits += 1
        self.stats.semantic_hits += how == "semantic"
        self.stats.saved_tokens += saved
        self._safe(lambda: self.store.count(self.namespace, hits=1, saved_tokens=saved))
        if self.telemetry is not None:
            self.telemetry.emit(CACHE_HIT, cache_age_ms=age_ms, cache_key_hash=entry.key[:16], mode=how,
                                similarity=round(similarity, 4), model=self.model.name, namespace=self.namespace,
                                saved_tokens=saved)
        return response

    # -- storing ------------------------------------------------------------------------------------

    def _store(self, request: ChatRequest, response: ChatResponse, key: str, query: str, vector: Vectors | None,
               now: float) -> None:
        if request.schema is not None:
            try:
                parsed_or_validate(response, request.schema)
            except InvalidOutput:
                return  # never cache an answer that fails the schema
        if self._mode.semantic and vector is None:
            query, _ = split_query(request.messages)
            vector = self.embedder.embed([query])[0] if query else None
        entry = CacheEntry(
            key=key, namespace=self.namespace, group=self.group(request) if self._mode.semantic else "",
            response={"text": response.text, "model": response.model, "prompt_tokens": response.prompt_tokens,
                      "completion_tokens": response.completion_tokens, "finish_reason": response.finish_reason},
            created_at=now, expires_at=None if self.ttl is None else now + self.ttl, query=query, vector=vector,
        )
        self._safe(lambda: self.store.put(entry))

    def _count(self, misses: int) -> None:
        self.stats.misses += misses
        self._safe(lambda: self.store.count(self.namespace, misses=misses))

    def _safe(self, action: Callable[[], T]) -> T | None:
        try:
            return action()
        except CacheStoreError as exc:
            self.stats.store_errors += 1
            if not self._mode.call_on_miss:
                raise
            warnings.warn(f"cache store error, serving without the cache: {exc}", RuntimeWarning, stacklevel=3)
            return None

