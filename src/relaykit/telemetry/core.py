"""``Telemetry``: stamps events with the current run and stage, redacts them, and hands them to sinks."""

from __future__ import annotations

import contextvars
import threading
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from relaykit.accounting import Usage
from relaykit.telemetry.events import (
    CACHE_HIT,
    FALLBACK,
    LLM_CALL,
    RUN_END,
    RUN_START,
    STAGE_END,
    STAGE_START,
    Event,
)
from relaykit.telemetry.redact import redact


@runtime_checkable
class Sink(Protocol):
    """Anything that receives events: a file, a tracer, a list in a test."""

    def emit(self, event: Event) -> None: ...


_RUN: contextvars.ContextVar[str | None] = contextvars.ContextVar("relaykit_run", default=None)
_STAGE: contextvars.ContextVar[str | None] = contextvars.ContextVar("relaykit_stage", default=None)


@dataclass
class RunTotals:
    """Running totals of one run, reported in ``pipeline.run.end``'s summary."""

    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cache_hits: int = 0
    fallback_count: int = 0

    @property
    def usage(self) -> Usage:
        """The model calls and tokens as the one ``Usage`` record."""
        return Usage(model_calls=self.model_calls, prompt_tokens=self.prompt_tokens,
                     completion_tokens=self.completion_tokens)

    def to_dict(self) -> dict[str, Any]:
        return {"model_calls": self.model_calls, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "cache_hits": self.cache_hits,
                "fallback_count": self.fallback_count}

    def add(self, event: Event) -> None:
        if event.name == LLM_CALL:
            self.model_calls += 1
            self.prompt_tokens += int(event.fields.get("prompt_tokens") or 0)
            self.completion_tokens += int(event.fields.get("completion_tokens") or 0)
        elif event.name == CACHE_HIT:
            self.cache_hits += 1
        elif event.name == FALLBACK:
            self.fallback_count += 1


@dataclass
class StageHandle:
    """What a ``with telemetry.stage(...)`` block yields: put the stage's results in ``results``."""

    name: str
    results: dict[str, Any] = field(default_factory=dict)


class Telemetry:
    """Emits the events of paper 002 Appendix B to every sink given.

    Message content is replaced by hashes unless ``include_content=True``; secret-named fields are
    always dropped. A ``Telemetry`` without sinks is a cheap no-op.
    """

    def __init__(self, *sinks: Sink, include_content: bool = False) -> None:
        self.sinks = list(sinks)
        self.include_content = include_content
        self._default_run = uuid.uuid4().hex[:12]
        self._totals: dict[str, RunTotals] = {}
        self._lock = threading.Lock()

    @property
    def run_id(self) -> str:
        return _RUN.get() or self._default_run

    @property
    def stage_name(self) -> str | None:
        return _STAGE.get()

    def emit(self, name: str, **fields: Any) -> Event:
        """Send one event, stamped with the current run (and stage, when inside one)."""
        stage = _STAGE.get()
        if stage is not None and "stage" not in fields:
            fields["stage"] = stage
        event = Event(name=name, run_id=self.run_id, fields=redact(fields, self.include_content))
        with self._lock:
            self._totals.setdefault(event.run_id, RunTotals()).add(event)
        for sink in self.sinks:
            sink.emit(event)
        return event

    def totals(self, run_id: str | None = None) -> RunTotals:
        return self._totals.get(run_id or self.run_id, RunTotals())

    @contextmanager
    def run(self, options: Mapping[str, Any] | None = None, run_id: str | None = None) -> Iterator[str]:
        """Bracket a pipeline run with ``run.start`` / ``run.end``; yields the run id."""
        rid = run_id or uuid.uuid4().hex[:12]
        token = _RUN.set(rid)
        start = time.perf_counter()
        self.emit(RUN_START, options=dict(options or {}))
        status = "error"
        try:
            yield rid
            status = "ok"
        finally:
            totals = self.totals(rid)
            summary = {"status": status, **totals.to_dict()}
            self.emit(RUN_END, total_elapsed_ms=_ms_since(start), summary=summary,
                      fallback_count=totals.fallback_count)
            _RUN.reset(token)

    @contextmanager
    def stage(self, name: str, **metadata: Any) -> Iterator[StageHandle]:
        """Bracket one stage with ``stage.start`` / ``stage.end`` (elapsed time and results)."""
        handle = StageHandle(name)
        self.emit(STAGE_START, stage=name, metadata=metadata)
        token = _STAGE.set(name)
        start = time.perf_counter()
        status = "error"
        try:
            yield handle
            status = "ok"
        finally:
            _STAGE.reset(token)
            elapsed = _ms_since(start)
            self.emit(STAGE_END, stage=name, elapsed_ms=elapsed, stage_elapsed_ms=elapsed,
                      results=handle.results, status=status)


def _ms_since(start: float) -> float:
    return round((time.perf_counter() - start) * 1000.0, 3)
