"""The gateway's semantic cache: relaykit's ``Cached`` (its index and guards) in one namespace per tenant.

Every answer of a ``cache = "semantic"`` route is stored under the exact key of ``Cached`` with the upstream's
whole reply beside it; plain-text answers are also embedded, so that a later request whose last user message is
similar enough (``threshold``), whose guards pass (numbers, negations) and whose everything else is identical
(earlier messages, tools, sampling settings, route, endpoint) is answered from the cache. Tenants never share
a namespace, so one tenant is never answered from another's entries.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any

from relaykit.embeddings.base import EMBEDDERS, open_embedder
from relaykit.errors import UsageError
from relaykit.models.base import ChatRequest, ChatResponse, Model
from relaykit.models.cache import Cached, CacheEntry, CacheStore, redact_secrets, split_query
from relaykit.serve.endpoints import Endpoint

LOG = logging.getLogger("relaykit.serve")
IGNORED = frozenset({"model", "stream", "stream_options", "user", "metadata", "store"})


class _NoModel(Model):
    """``Cached`` wraps a model; the gateway's cache only looks up and stores, the upstreams answer."""

    def __init__(self, name: str) -> None:
        self.name = name

    def _complete(self, request: ChatRequest) -> ChatResponse:  # pragma: no cover - never called
        raise UsageError("the gateway's semantic cache never calls a model")


class SemanticCache:
    """Per-tenant, per-route ``Cached`` lookups and stores over one shared store."""

    def __init__(self, store: CacheStore, embedder: str, threshold: float) -> None:
        EMBEDDERS.get(embedder.partition(":")[0])  # an unknown embedder is named at start-up, not per request
        self.store, self.embedder, self.threshold = store, embedder, threshold
        self.errors = 0
        self._caches: dict[tuple[str, str], Cached] = {}
        self._lock = threading.Lock()

    def warm(self) -> None:
        """Load the embedder now (MiniLM reads its model at the first embedding) instead of at the first request;
        a failure is logged and every look-up of this route is then a miss."""
        try:
            open_embedder(self.embedder).embed(["warm up"])
        except Exception as exc:  # the gateway still serves, uncached
            LOG.warning("the semantic cache's embedder %s cannot embed (%s); its routes are served uncached",
                        self.embedder, exc)

    def cached(self, tenant: str, route: str) -> Cached:
        with self._lock:
            found = self._caches.get((tenant, route))
            if found is None:
                found = Cached(_NoModel(route), self.store, mode="semantic", namespace=f"gateway:{tenant}",
                               embedder=self.embedder, threshold=self.threshold, key_name=f"gateway-route:{route}")
                self._caches[(tenant, route)] = found
            return found

    @staticmethod
    def request(endpoint: Endpoint, body: dict[str, Any], history: Any) -> ChatRequest | None:
        """The request ``Cached`` keys on: the history as chat messages after a message holding every other
        setting that decides the answer (tools, sampling, format...); ``None`` when it cannot be keyed."""
        params = {k: v for k, v in body.items() if k not in IGNORED and k != endpoint.field}
        head = {"role": "system", "content": f"relaykit gateway {endpoint.name} "
                                             + json.dumps(params, sort_keys=True, default=str)}
        try:
            return ChatRequest(messages=(head, *endpoint.chat_view(history)))
        except (UsageError, TypeError, ValueError):
            return None

    def get(self, cached: Cached, request: ChatRequest) -> tuple[dict[str, Any] | None, ChatResponse | None]:
        """(the stored reply of an exact hit, or None; the answer of a semantic hit, or None)."""
        try:
            entry = self.store.get(cached.key(request), time.time())
        except Exception:  # a broken cache must never fail a request
            entry = None
        if entry is not None and isinstance(entry.response.get("reply"), dict):
            return dict(entry.response["reply"]), None
        try:
            return None, cached.lookup(request)  # Cached turns store failures into misses itself
        except Exception as exc:  # an embedder that fails (a missing package, a remote one down) is a miss
            self._failed(exc)
            return None, None

    def _failed(self, exc: Exception) -> None:
        self.errors += 1
        if self.errors == 1 or self.errors % 1000 == 0:
            LOG.warning("semantic cache lookup failed %d time(s), served uncached: %s", self.errors, exc)

    def put(self, cached: Cached, request: ChatRequest, reply: dict[str, Any], text: str | None) -> None:
        """Store ``reply``; embed it for similarity lookups when it is a plain-text answer."""
        query = redact_secrets(split_query(request.messages)[0]) if text is not None else ""
        try:
            vector = cached.embedder.embed([query])[0] if query else None
        except Exception as exc:  # stored for exact hits only
            self._failed(exc)
            query, vector = "", None
        usage = reply.get("usage") if isinstance(reply.get("usage"), dict) else {}
        assert isinstance(usage, dict)
        response = {"text": text or "", "model": str(reply.get("model") or cached.name),
                    "prompt_tokens": int(usage.get("prompt_tokens") or usage.get("input_tokens") or 0),
                    "completion_tokens": int(usage.get("completion_tokens") or usage.get("output_tokens") or 0),
                    "finish_reason": _finish_reason(reply), "reply": reply}
        entry = CacheEntry(key=cached.key(request), namespace=cached.namespace,
                           group=cached.group(request) if vector is not None else "", response=response,
                           created_at=time.time(), query=query if vector is not None else "", vector=vector)
        try:
            self.store.put(entry)
        except Exception:  # as above: the answer is still served
            return


def _finish_reason(reply: dict[str, Any]) -> str:
    choices = reply.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        return str(choices[0].get("finish_reason") or "stop")
    return "stop"


__all__ = ["SemanticCache"]
