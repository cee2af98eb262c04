"""``Cached``: a model wrapper that answers repeated requests from a store: exact, semantic or replay."""

from __future__ import annotations

import functools
import hashlib
import json
import time
import warnings
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import numpy as np

from relaykit import tokens
from relaykit.embeddings.base import Embedder, Vectors, open_embedder
from relaykit.errors import InvalidOutput, ModelError, UsageError
from relaykit.models.base import ChatRequest, ChatResponse, Message, Model, ModelWrapper
from relaykit.models.cache.breaker import StoreSkipped
from relaykit.models.cache.guards import DEFAULT_GUARDS, Guard
from relaykit.models.cache.index import GroupIndex, SemanticIndex, shared_index
from relaykit.models.cache.store import CacheEntry, CacheStore, CacheStoreError, open_store
from relaykit.models.structured import parsed_or_validate
from relaykit.redact import fingerprint_secrets as redact_secrets
from relaykit.redact import strip_url_credentials
from relaykit.telemetry import CACHE_HIT, Telemetry

T = TypeVar("T")


class _Probe(NamedTuple):
    """A semantic lookup's last user message (secrets redacted), its embedding, and its group."""

    query: str
    vector: Vectors
    group: str


class _Read(NamedTuple):
    """A read of a group's changes made outside the index lock: the group's index and version then, and what
    the store returned (``refresh``'s tuple, or ``None`` when the store failed)."""

    seen: GroupIndex
    known: int
    found: tuple[int, list[str], Vectors, int] | None


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
    not_stored: int = 0  # answers the ``cache_if`` policy refused (empty, cut by length, filtered)
    embed_errors: int = 0  # semantic lookups whose query embedding failed (each served as a miss)


NOT_CACHED_FINISH_REASONS = frozenset({"length", "content_filter"})


def cacheable(response: ChatResponse) -> bool:
    """The default storing policy: never an empty answer, one cut by ``max_tokens`` (``finish_reason=length``)
    or one stopped by a content filter; such answers are served once and asked again next time."""
    return bool(response.text.strip()) and response.finish_reason not in NOT_CACHED_FINISH_REASONS


def _digest(material: Any) -> str:
    return hashlib.sha256(json.dumps(material, sort_keys=True, default=str).encode()).hexdigest()


GROUP_MEMO = 1024  # group digests a cache remembers (cleared when full)
_MATERIAL = {"messages", "temperature", "max_tokens", "seed", "stop", "schema"}  # ChatRequest.cache_key_material


def _exact(value: Any) -> Hashable:
    """``value`` (a parameter of a request) as a hashable that equals another only when both have the same JSON:
    typed, since ``0 == 0.0 == False`` and ``0.0 == -0.0`` while their JSON differs; ``None`` when it is neither
    a number, a string, ``None`` nor a boolean."""
    if value is None or isinstance(value, (str, int)):  # bool is an int, told apart by its type below
        return (type(value), value)
    if isinstance(value, float):
        return (float, repr(value))
    return None


def _group_memo_key(material: dict[str, Any], context: list[Any]) -> Hashable | None:
    """What decides a group digest besides the cache's own model, namespace and embedder, as a hashable that
    equals another only when the two digests' JSON does: for requests without a schema whose parameters are
    plain values and whose other messages hold only strings (else ``None``: the digest is computed)."""
    if material.keys() != _MATERIAL or material["schema"] is not None or not isinstance(material["stop"], list):
        return None
    parts: list[Hashable] = [len(context)]
    for name in ("temperature", "max_tokens", "seed"):
        part = _exact(material[name])
        if part is None:
            return None
        parts.append(part)
    for value in (*material["stop"], *context):
        if isinstance(value, dict):
            if not all(type(k) is str and type(v) is str for k, v in value.items()):
                return None
            parts.append(tuple(value.items()))
        else:
            part = _exact(value)
            if part is None:
                return None
            parts.append(part)
    parts.append(len(material["stop"]))
    return tuple(parts)


def split_query(messages: Sequence[Message]) -> tuple[str, list[Any]]:
    """The last user message's text, and every other message (the context a semantic hit must match)."""
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].get("role") == "user":
            rest = [dict(m) for i, m in enumerate(messages) if i != index]
            return tokens.message_text(messages[index]), [index, *rest]
    return "", [dict(m) for m in messages]


def _scope(store: CacheStore) -> Hashable:
    """What identifies ``store`` for sharing its semantic index: a SQLite store's file, else the object."""
    path = getattr(store, "path", None)
    if store.name == "sqlite" and path is not None:
        return ("sqlite", str(Path(path).resolve()))
    return ("object", id(store))


class Cached(ModelWrapper):
    """Wraps ``model`` with a cache in ``store``.

    - ``exact``: the key hashes the model name, namespace, parameters, messages and schema.
    - ``semantic``: on an exact miss, embeds the last user message and serves the most similar cached
      answer whose model, parameters, schema, namespace and other messages are identical, when the
      cosine similarity reaches ``threshold`` and every guard passes (negations and numbers agree).
    - ``replay``: exact lookups only; a miss raises ``CacheMiss`` and the model is never called.

    Answers that failed (an exception) or do not validate against the request's schema are never
    stored, and neither are answers ``cache_if`` refuses (by default: empty ones, ones cut by ``max_tokens``,
    ones stopped by a content filter). ``store`` is a ``CacheStore`` or a spec for ``open_store`` ("memory",
    "sqlite", "sqlite:PATH", "redis://HOST:PORT/DB"). Secrets in the last user message are replaced by a
    digest placeholder before it is embedded or stored, and URL credentials never reach the stored model
    name. The semantic index is kept in process, updated incrementally, and bounded by ``index_entries``
    rows and ``index_groups`` groups; caches of one process on the same store (the same SQLite file, or the
    same store object) and namespace share one index (``share_index=False``: an index of its own). Entries
    live ``ttl`` seconds (``None``: forever). ``key_name``
    replaces the model's name in the keys (to replay a recording offline with a stand-in model). A store
    that fails mid-run is treated as a miss with a warning, so the cache never stops a run; a damaged
    entry (checksum) is a miss with a ``DamagedEntryWarning``.
    """

    def __init__(
        self,
        model: Model,
        store: CacheStore | str,
        *,
        mode: str = "exact",
        namespace: str = "default",
        ttl: float | None = None,
        embedder: Embedder | str | None = None,
        threshold: float = 0.92,
        guards: Sequence[Guard] = DEFAULT_GUARDS,
        telemetry: Telemetry | None = None,
        key_name: str | None = None,
        cache_if: Callable[[ChatResponse], bool] = cacheable,
        index_entries: int = 250_000,
        index_groups: int = 64,
        share_index: bool = True,
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
        if isinstance(store, str):
            store = open_store(store)
        elif not all(hasattr(store, verb) for verb in ("get", "put", "version", "count")):
            raise UsageError(f"store must be a CacheStore or a spec such as 'memory', 'sqlite', 'sqlite:PATH' or "
                             f"'redis://HOST:PORT/DB', not {type(store).__name__}")
        self.store, self.mode, self.namespace, self.ttl = store, mode, namespace, ttl
        self._mode = MODES[mode]
        self._embedder_spec = embedder if embedder is not None else "minilm"
        self.threshold = threshold
        self.guards = tuple(guards)
        self.telemetry = telemetry
        self.stats = CacheStats()
        self.cache_if = cache_if
        self.index = (shared_index((_scope(store), namespace), index_entries, index_groups, pin=store)
                      if share_index else SemanticIndex(index_entries, index_groups))
        self._index_lock = self.index.lock
        self._tags = bool(getattr(store, "skips_writers", False))  # see _skipping
        self.key_name = key_name or model.name
        self._group_memo: dict[Hashable, str] = {}

    @property
    def embedder(self) -> Embedder:
        if isinstance(self._embedder_spec, str):
            self._embedder_spec = open_embedder(self._embedder_spec)
        return self._embedder_spec

    # -- keys ---------------------------------------------------------------------------------------

    def key(self, request: ChatRequest) -> str:
        """The exact cache key of ``request``."""
        return self._key(request.cache_key_material())

    def _key(self, material: dict[str, Any]) -> str:
        return _digest({"model": self.key_name, "namespace": self.namespace, **material})

    def group(self, request: ChatRequest) -> str:
        """What a semantic hit must share with the request: everything except the last user message."""
        return self._group(request.cache_key_material(), split_query(request.messages)[1])

    def _group(self, material: dict[str, Any], context: list[Any]) -> str:
        """The group digest from the request's key material (read once per lookup, for the key too); remembered
        for plain requests (see ``_group_memo_key``): its JSON was most of a semantic lookup's Python work."""
        memo_key = _group_memo_key(material, context)
        found = None if memo_key is None else self._group_memo.get(memo_key)
        if found is None:
            found = _digest({"model": self.key_name, "namespace": self.namespace, "embedder": self.embedder.name,
                             **material, "messages": context})
            if memo_key is not None:
                if len(self._group_memo) >= GROUP_MEMO:
                    self._group_memo.clear()  # bounded; one dictionary call, safe among threads
                self._group_memo[memo_key] = found
        return found

    # -- lookup -------------------------------------------------------------------------------------

    def lookup(self, request: ChatRequest | Sequence[Message] | str, **params: Any) -> ChatResponse | None:
        """The cached answer to ``request``, or ``None``; never calls the model (a hit is counted)."""
        req = request if isinstance(request, ChatRequest) else ChatRequest.of(request, **params)
        material = req.cache_key_material()
        return self._find(req, material, self._key(material), time.time())[0]

    def _find(self, request: ChatRequest, material: dict[str, Any], key: str,
              now: float) -> tuple[ChatResponse | None, _Probe | None]:
        """(hit or None, the semantic probe: last user message, its embedding and group -- to store a miss)."""
        if not self._mode.semantic:
            entry = self._safe(lambda: self.store.get(key, now))
            return (None if entry is None else self._hit(entry, request, "exact", 1.0, now)), None
        text, context = split_query(request.messages)
        group, read = self._group(material, context), None
        lookup = getattr(self.store, "lookup", None)
        if lookup is not None:  # the exact entry and the group's changes: one statement on a miss (SQLite)
            entry, read = self._read(group, lambda since, skip: lookup(key, now, self.namespace, group, since, **skip))
        else:
            entry = self._safe(lambda: self.store.get(key, now))
        if entry is not None:
            return self._hit(entry, request, "exact", 1.0, now), None
        query = redact_secrets(text)
        if not query:
            return None, None
        try:
            vector = self.embedder.embed([query])[0]
        except ModelError as exc:  # the embedder's endpoint failed: a miss (stored without a vector), never an error
            self.stats.embed_errors += 1
            warnings.warn(f"the cache's embedder failed, serving without the semantic lookup: {exc}", RuntimeWarning,
                          stacklevel=3)
            return None, None
        probe = _Probe(query, vector, group)
        found = self._semantic_lookup(probe, now, read)
        if found is not None:
            return self._hit(found[0], request, "semantic", found[1], now), probe
        return None, probe

    def _complete(self, request: ChatRequest) -> ChatResponse:
        material = request.cache_key_material()
        key, now = self._key(material), time.time()
        hit, probe = self._find(request, material, key, now)
        if hit is not None:
            return hit
        self._count(misses=1)
        if not self._mode.call_on_miss:
            raise CacheMiss(
                f"replay: no recorded answer for this request in namespace {self.namespace!r} (key {key[:16]}); "
                "record it first by running with mode='exact' against the same store and namespace"
            )
        response = self.model.complete(request)
        self._store(request, response, key, probe, now)
        return response

    def _semantic_lookup(self, probe: _Probe, now: float, read: _Read | None) -> tuple[CacheEntry, float] | None:
        query, vector = probe.query, probe.vector
        found = self._search(probe.group, vector, now, read)
        for key, _ in found:
            entry = self._safe(functools.partial(self.store.get, key, now))
            if entry is None or entry.vector is None or entry.vector.size != vector.size:
                continue
            similarity = float(np.dot(entry.vector, vector.astype(np.float32)))  # exact, from the stored vector
            if similarity >= self.threshold and all(guard(query, entry.query) for guard in self.guards):
                return entry, similarity
        return None

    def _search(self, group: str, vector: Vectors, now: float, read: _Read | None) -> list[tuple[str, float]]:
        """Candidates (key, similarity) from the group's index brought up to date with what the store gained
        since it was last read (``read``: the changes read with the exact lookup, else read here)."""
        refresh = getattr(self.store, "refresh", None)
        if refresh is None:
            with self._index_lock:  # several threads (and caches) may share the index; not thread-safe alone
                index = self._versioned(group, now)
                view = None if index is None else index.view()
        else:
            def changes(since: int, skip: dict[str, str]) -> Any:
                return refresh(self.namespace, group, since, now, **skip)

            if read is None:  # the version and the changes in one call, read outside the lock (see _read)
                read = self._read(group, lambda since, skip: (None, changes(since, skip)))[1]
            with self._index_lock:
                index = self._take_in(group, read, changes)
                view = None if index is None else index.view()
        # searched outside the lock: the other threads take changes in meanwhile (see index.View)
        return [] if view is None else view.search(vector, self.threshold)

    def _skipping(self, index: GroupIndex) -> dict[str, str]:
        """The keyword that leaves this process's own rows out of a read of the group's changes (``skip``), where
        the store tags entries with their writer: ``_store`` files a row it wrote in the index itself. Only once
        the group's index has read the group (its first read reads every row, those written before it existed
        among them)."""
        return {"skip": self.index.writer} if self._tags and index.version >= 0 else {}

    def _read(self, group: str, statement: Callable[[int, dict[str, str]], tuple[CacheEntry | None, Any]]) -> tuple[
            CacheEntry | None, _Read]:
        """Run ``statement(cursor, skip)`` (a read of the group's changes since the index's cursor, maybe with an
        exact lookup; ``skip``: see ``_skipping``) outside the index lock: a statement gives the GIL up, and a
        thread that held the index lock while it waited to get the GIL back stalled every other lookup."""
        seen = self.index.peek(group)  # no lock: one dictionary read (the lookup under the lock marks it used)
        if seen is None:
            with self._index_lock:
                seen = self.index.group(group)
        since, known, skip = seen.cursor, seen.version, self._skipping(seen)
        result = self._safe(lambda: statement(since, skip))
        entry, found = (None, None) if result is None else result
        return entry, _Read(seen, known, found)

    def _take_in(self, group: str, read: _Read, refresh: Callable[[int, dict[str, str]], Any]) -> GroupIndex | None:
        """The group's index with the changes of ``read`` taken in (under the index lock)."""
        index, known, found = self.index.group(group), read.known, read.found
        if index is not read.seen:  # evicted or reset meanwhile: read from its own cursor, under the lock (rare)
            known = index.version
            found = self._safe(lambda: refresh(index.cursor, self._skipping(index)))
        if found is None:
            return None
        if found[0] < known:  # the store was replaced (not: another thread read a later version meanwhile)
            index = self.index.reset(group)
            found = self._safe(lambda: refresh(0, {}))
            if found is None:
                return index
        if found[3] <= index.cursor:  # another thread has taken in at least as much meanwhile
            index.version = max(index.version, found[0])
            return index
        # rows another thread took in meanwhile come again: GroupIndex.add skips a key with the same vector
        return self._updated(index, *found)

    def _versioned(self, group: str, now: float) -> GroupIndex | None:
        """The group's index brought up to date through ``store.version`` and ``store.changes`` (or ``vectors``),
        under the lock (stores without ``refresh``)."""
        version = self._safe(lambda: self.store.version(self.namespace))
        if version is None:
            return None
        index = self.index.group(group)
        if version == index.version:
            return index
        changes = getattr(self.store, "changes", None)
        if version < index.version or changes is None:  # the store was replaced, or cannot list changes
            index = self.index.reset(group)
        if changes is None:
            found = self._safe(lambda: self.store.vectors(self.namespace, group, now))
            update = None if found is None else (*found, 0)
        else:
            update = self._safe(lambda: changes(self.namespace, group, index.cursor, now))
        if update is None:
            return index
        return self._updated(index, version, *update)

    def _updated(self, index: GroupIndex, version: int, keys: list[str], vectors: Vectors, cursor: int) -> GroupIndex:
        index.add(keys, vectors)
        index.cursor, index.version = cursor, max(version, index.version)
        self.index.enforce()
        return index

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

    def _store(self, request: ChatRequest, response: ChatResponse, key: str, probe: _Probe | None,
               now: float) -> None:
        if not self.cache_if(response):
            self.stats.not_stored += 1
            return
        if request.schema is not None:
            try:
                parsed_or_validate(response, request.schema)
            except InvalidOutput:
                return  # never cache an answer that fails the schema
        query, vector, group = ("", None, "") if probe is None else (probe.query, probe.vector, probe.group)
        if self._mode.semantic and probe is None:  # no probe: the query is empty (nothing to embed)
            query, group = redact_secrets(split_query(request.messages)[0]), self.group(request)
        entry = CacheEntry(
            key=key, namespace=self.namespace, group=group,
            response={"text": response.text, "model": strip_url_credentials(response.model),
                      "prompt_tokens": response.prompt_tokens,
                      "completion_tokens": response.completion_tokens, "finish_reason": response.finish_reason},
            created_at=now, expires_at=None if self.ttl is None else now + self.ttl, query=query, vector=vector,
        )
        if not (self._tags and vector is not None):
            self._safe(lambda: self.store.put(entry))
            return
        # tagged with this process's index, which files it now: the index's reads of the group's changes skip it
        # (see _skipping). A put that fails leaves it unfiled here (at worst a miss later, never a wrong answer).
        writer = self.index.writer
        put: Callable[..., None] = self.store.put  # SQLiteStore.put(entry, writer)

        def tagged() -> bool:
            put(entry, writer)
            return True

        if self._safe(tagged) is None:
            return
        with self._index_lock:
            index = self.index.peek(group)  # absent (evicted): its next load reads the entry with the rest
            if index is not None:
                index.add([key], vector.reshape(1, -1))
                self.index.enforce()

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
            if not isinstance(exc, StoreSkipped):  # a skip is the breaker's doing: the failure was reported
                warnings.warn(f"cache store error, serving without the cache: {exc}", RuntimeWarning, stacklevel=3)
            return None

