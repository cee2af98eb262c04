"""``summarize(events)``: latency and tokens per stage and per model, cache hits and fallbacks, from a trace."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from relaykit.telemetry.events import CACHE_HIT, FALLBACK, LLM_CALL, RUN_END, STAGE_END, Event


@dataclass
class Bucket:
    """Latencies (ms) and token totals of one stage or one model."""

    latencies_ms: list[float] = field(default_factory=list)
    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def row(self) -> dict[str, Any]:
        lat = np.asarray(self.latencies_ms or [0.0])
        return {
            "count": len(self.latencies_ms),
            "model_calls": self.model_calls,
            "total_ms": round(float(lat.sum()), 3),
            "p50_ms": round(float(np.percentile(lat, 50)), 3),
            "p95_ms": round(float(np.percentile(lat, 95)), 3),
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
        }


def _add_call(bucket: Bucket, fields: dict[str, Any], with_latency: bool) -> None:
    bucket.model_calls += 1
    bucket.prompt_tokens += int(fields.get("prompt_tokens") or fields.get("input_tokens_est") or 0)
    bucket.completion_tokens += int(fields.get("completion_tokens") or fields.get("output_tokens_est") or 0)
    if with_latency:
        bucket.latencies_ms.append(float(fields.get("latency_ms") or 0.0))


def summarize(events: Iterable[Event]) -> dict[str, Any]:
    """Per-stage and per-model latency (count, total, p50, p95) and tokens, plus run-level counts."""
    stages: dict[str, Bucket] = {}
    models: dict[str, Bucket] = {}
    runs: set[str] = set()
    run_ms: list[float] = []
    cache_hits = fallbacks = 0
    for event in events:
        f = event.fields
        runs.add(event.run_id)
        if event.name == STAGE_END:
            stages.setdefault(str(f.get("stage")), Bucket()).latencies_ms.append(float(f.get("elapsed_ms") or 0.0))
        elif event.name == LLM_CALL:
            _add_call(models.setdefault(str(f.get("model")), Bucket()), f, with_latency=True)
            if f.get("stage"):
                _add_call(stages.setdefault(str(f["stage"]), Bucket()), f, with_latency=False)
        elif event.name == CACHE_HIT:
            cache_hits += 1
        elif event.name == FALLBACK:
            fallbacks += 1
        elif event.name == RUN_END:
            run_ms.append(float(f.get("total_elapsed_ms") or 0.0))
    return {
        "runs": len(runs),
        "run_elapsed_ms": round(sum(run_ms), 3),
        "cache_hits": cache_hits,
        "fallbacks": fallbacks,
        "stages": {name: b.row() for name, b in sorted(stages.items())},
        "models": {name: b.row() for name, b in sorted(models.items())},
    }
