"""The gateway's telemetry: each request as the paper-002 events, redacted, handed to the configured sinks.

A request is one run (``pipeline.run.start`` .. ``pipeline.run.end``, run id = the request id) holding a
``pipeline.fallback`` per upstream that failed, a ``pipeline.cache.hit`` when the cache answered and a
``pipeline.llm.call`` for the upstream that did. The OpenTelemetry sink turns that into a ``relaykit.run`` span
with a ``chat MODEL`` client span under it. Fields are redacted before any sink sees them: content becomes a
hash unless ``include_content``, secret-named fields and credential-looking strings never pass.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from relaykit.serve.config import TelemetryConfig
from relaykit.telemetry import CACHE_HIT, FALLBACK, LLM_CALL, RUN_END, RUN_START, Event, Sink, open_sink, redact


@dataclass
class RequestRecord:
    """What one request did, filled in as it is served."""

    request_id: str
    endpoint: str
    route: str = "-"
    tenant: str = "-"
    started_wall: float = field(default_factory=time.time)
    status: int = 0
    upstream: str = ""
    cache: str = "off"
    cache_match: str = ""
    tokens_before: int = 0
    tokens_after: int = 0
    upstream_s: float = 0.0
    failed: list[tuple[str, str]] = field(default_factory=list)  # (upstream, why) per failed attempt
    usage: dict[str, Any] = field(default_factory=dict)
    stream: bool = False


class GatewayEvents:
    """Opens the configured sinks once; ``record`` sends one request's events to every one of them."""

    def __init__(self, config: TelemetryConfig) -> None:
        self.sinks: list[Sink] = [open_sink(spec) for spec in config.sinks]
        self.include_content = config.include_content

    @property
    def enabled(self) -> bool:
        return bool(self.sinks)

    def _emit(self, name: str, run_id: str, ts: float, **fields: Any) -> None:
        event = Event(name=name, run_id=run_id, fields=redact(fields, self.include_content), ts=ts)
        for sink in self.sinks:
            try:
                sink.emit(event)
            except Exception:  # a failing sink must never fail a request
                continue

    def record(self, rec: RequestRecord) -> None:
        if not self.sinks:
            return
        now = time.time()
        rid = rec.request_id
        self._emit(RUN_START, rid, rec.started_wall, options={"endpoint": rec.endpoint, "route": rec.route,
                                                              "tenant": rec.tenant, "stream": rec.stream})
        for (failed, why), nxt in zip(rec.failed, [f for f, _ in rec.failed[1:]] + [rec.upstream or "-"]):
            self._emit(FALLBACK, rid, now, from_model=failed, to_model=nxt, reason=why)
        if rec.cache == "hit":
            self._emit(CACHE_HIT, rid, now, cache_age_ms=None, mode=rec.cache_match, route=rec.route,
                       tenant=rec.tenant)
        elif rec.upstream:
            self._emit(LLM_CALL, rid, rec.started_wall + rec.upstream_s, model=rec.upstream,
                       input_tokens_est=rec.tokens_after, output_tokens_est=int(self._usage(rec, "completion")),
                       prompt_tokens=self._usage(rec, "prompt"), completion_tokens=self._usage(rec, "completion"),
                       latency_ms=round(rec.upstream_s * 1000.0, 3), status=rec.status, route=rec.route,
                       tenant=rec.tenant, endpoint=rec.endpoint)
        summary = {"status": rec.status, "cache": rec.cache, "upstream": rec.upstream or None,
                   "tokens_before": rec.tokens_before, "tokens_after": rec.tokens_after}
        self._emit(RUN_END, rid, now, total_elapsed_ms=round((now - rec.started_wall) * 1000.0, 3), summary=summary,
                   fallback_count=len(rec.failed), status=rec.status, endpoint=rec.endpoint, route=rec.route,
                   tenant=rec.tenant, cache=rec.cache)

    @staticmethod
    def _usage(rec: RequestRecord, which: str) -> int:
        other = {"prompt": "input", "completion": "output"}[which]
        return int(rec.usage.get(f"{which}_tokens") or rec.usage.get(f"{other}_tokens") or 0)

    def close(self) -> None:
        for sink in self.sinks:
            close = getattr(sink, "close", None)
            if callable(close):
                close()


__all__ = ["GatewayEvents", "RequestRecord"]
