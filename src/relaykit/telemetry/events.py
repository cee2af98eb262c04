"""The event vocabulary of paper 002, Appendix B, and the ``Event`` record sinks receive."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

RUN_START = "pipeline.run.start"
STAGE_START = "pipeline.stage.start"
STAGE_END = "pipeline.stage.end"
LLM_CALL = "pipeline.llm.call"
CACHE_HIT = "pipeline.cache.hit"
FALLBACK = "pipeline.fallback"
RUN_END = "pipeline.run.end"

# Each event name with the fields the spec requires (beyond ``run_id``); extra fields are allowed.
EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    RUN_START: ("options",),
    STAGE_START: ("stage", "metadata"),
    STAGE_END: ("stage", "elapsed_ms", "results"),
    LLM_CALL: ("model", "input_tokens_est", "output_tokens_est"),
    CACHE_HIT: ("cache_age_ms",),
    FALLBACK: ("from_model", "to_model", "reason"),
    RUN_END: ("total_elapsed_ms", "summary"),
}

EVENT_NAMES = tuple(EVENT_FIELDS)


@dataclass(frozen=True)
class Event:
    """One telemetry event: its name, the run it belongs to, a wall-clock time and its fields."""

    name: str
    run_id: str
    fields: dict[str, Any] = field(default_factory=dict)
    ts: float = field(default_factory=time.time)

    def missing_fields(self) -> list[str]:
        """Required fields of the spec this event lacks (empty for unknown event names)."""
        return [f for f in EVENT_FIELDS.get(self.name, ()) if f not in self.fields]

    def to_dict(self) -> dict[str, Any]:
        return {"event": self.name, "run_id": self.run_id, "ts": self.ts, **self.fields}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        rest = {k: v for k, v in data.items() if k not in ("event", "run_id", "ts")}
        return cls(name=str(data["event"]), run_id=str(data.get("run_id", "")), fields=rest,
                   ts=float(data.get("ts", 0.0)))
