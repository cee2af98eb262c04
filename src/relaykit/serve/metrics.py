"""Counters the gateway keeps, rendered in the Prometheus text exposition format at ``GET /metrics``."""

from __future__ import annotations

import threading
from collections import defaultdict
from typing import Any


def _labels(pairs: tuple[tuple[str, str], ...]) -> str:
    inner = ",".join(f'{k}="{_escape(v)}"' for k, v in pairs)
    return "{" + inner + "}" if inner else ""


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


HELP = {
    "relaykit_gateway_requests_total": ("counter", "Requests answered, by route, tenant and HTTP status."),
    "relaykit_gateway_cache_total": ("counter", "Cache lookups by result (hit, miss)."),
    "relaykit_gateway_tokens_before_total": ("counter", "History tokens received, before compression."),
    "relaykit_gateway_tokens_after_total": ("counter", "History tokens sent upstream, after compression."),
    "relaykit_gateway_upstream_seconds_sum": ("counter", "Seconds spent waiting for upstreams."),
    "relaykit_gateway_overhead_seconds_sum": ("counter", "Seconds the gateway itself added (total minus upstream)."),
    "relaykit_gateway_fallbacks_total": ("counter", "Upstream attempts that failed and moved on, by upstream."),
}


class Metrics:
    def __init__(self) -> None:
        self._values: defaultdict[tuple[str, tuple[tuple[str, str], ...]], float] = defaultdict(float)
        self._keys: dict[tuple[Any, ...], tuple[str, tuple[tuple[str, str], ...]]] = {}
        self._lock = threading.Lock()

    def add(self, name: str, value: float = 1.0, /, **labels: Any) -> None:
        seen = (name, *labels.items())  # the label order a call site uses: one sort per distinct series
        key = self._keys.get(seen)
        if key is None:
            key = (name, tuple(sorted((k, str(v)) for k, v in labels.items())))
            if len(self._keys) < 100_000:
                self._keys[seen] = key
        with self._lock:
            self._values[key] += value

    def render(self) -> str:
        with self._lock:
            items = sorted(self._values.items())
        lines: list[str] = []
        for name, (kind, text) in HELP.items():
            lines += [f"# HELP {name} {text}", f"# TYPE {name} {kind}"]
            lines += [f"{n}{_labels(labels)} {value:g}" for (n, labels), value in items if n == name]
        return "\n".join(lines) + "\n"


__all__ = ["Metrics"]
