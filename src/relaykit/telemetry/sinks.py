"""Sinks: an in-memory list (tests), a JSONL file, and OpenTelemetry spans with GenAI attribute names."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from relaykit.errors import UsageError
from relaykit.registry import Registry
from relaykit.settings import private_file
from relaykit.telemetry.core import Sink
from relaykit.telemetry.events import CACHE_HIT, FALLBACK, LLM_CALL, RUN_END, RUN_START, STAGE_END, STAGE_START, Event


class MemorySink:
    """Keeps every event in ``events``; ``names()`` and ``of(name)`` help assertions."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self._lock = threading.Lock()

    def emit(self, event: Event) -> None:
        with self._lock:
            self.events.append(event)

    def names(self) -> list[str]:
        return [e.name for e in self.events]

    def of(self, name: str) -> list[Event]:
        return [e for e in self.events if e.name == name]


class JsonlSink:
    """Appends one JSON object per event to a file (``relaykit trace summarize FILE`` reads it).

    A new trace file is created readable by its owner only (0600).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            private_file(self.path)  # 0600 in 0700 folders: traces can hold content and metadata
            self._file = self.path.open("a", encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write the trace file {self.path}: {exc.strerror}; pick a writable path") from None
        self._lock = threading.Lock()

    def emit(self, event: Event) -> None:
        line = json.dumps(event.to_dict(), default=str, separators=(",", ":"))
        with self._lock:
            self._file.write(line + "\n")
            self._file.flush()

    def close(self) -> None:
        with self._lock:
            self._file.close()


def read_jsonl(path: str | Path) -> list[Event]:
    """Events from a JSONL trace; a ``UsageError`` names the first bad line."""
    file = Path(path)
    if not file.is_file():
        raise UsageError(f"no such trace file: {file}")
    events = []
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            events.append(Event.from_dict(data))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError):
            raise UsageError(f"{file}:{number} is not a relaykit telemetry event (one JSON object per line)") from None
    return events


def _ns(seconds: float) -> int:
    return int(seconds * 1e9)


def genai_attributes(fields: dict[str, Any]) -> dict[str, Any]:
    """OpenTelemetry GenAI semantic-convention attributes for one ``pipeline.llm.call``."""
    attrs: dict[str, Any] = {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": str(fields.get("model", "")),
        "gen_ai.response.model": str(fields.get("response_model") or fields.get("model", "")),
        "gen_ai.usage.input_tokens": int(fields.get("prompt_tokens") or fields.get("input_tokens_est") or 0),
        "gen_ai.usage.output_tokens": int(fields.get("completion_tokens") or fields.get("output_tokens_est") or 0),
    }
    optional = {"gen_ai.request.max_tokens": "max_tokens", "gen_ai.request.temperature": "temperature",
                "gen_ai.provider.name": "provider", "relaykit.model_family": "model_family",
                "relaykit.stage": "stage", "error.type": "error_type"}
    for attr, key in optional.items():
        if fields.get(key) is not None:
            attrs[attr] = fields[key]
    if fields.get("finish_reason"):
        attrs["gen_ai.response.finish_reasons"] = [str(fields["finish_reason"])]
    return attrs


def _flat(fields: dict[str, Any], prefix: str = "relaykit.") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in fields.items():
        if isinstance(value, (str, bool, int, float)):
            out[prefix + key] = value
        elif value is not None:
            out[prefix + key] = json.dumps(value, default=str)
    return out


class OTelSink:
    """Turns events into OpenTelemetry spans: run and stage spans, one ``chat MODEL`` span per LLM call.

    Cache hits and fallbacks become span events on the enclosing stage (or run) span. Pass a tracer,
    or the global tracer provider's ``relaykit`` tracer is used.
    """

    def __init__(self, tracer: Any = None) -> None:
        try:
            from opentelemetry import trace
        except ImportError:
            raise UsageError("the OpenTelemetry sink needs opentelemetry-api: pip install 'relaykit[otel]'") from None
        self._trace = trace
        self.tracer = tracer or trace.get_tracer("relaykit")
        self._runs: dict[str, Any] = {}
        self._stages: dict[tuple[str, str], Any] = {}
        self._lock = threading.Lock()

    def _parent(self, event: Event) -> Any:
        stage = event.fields.get("stage")
        with self._lock:
            span = self._stages.get((event.run_id, str(stage))) if stage else None
            return span or self._runs.get(event.run_id)

    def _context(self, parent: Any) -> Any:
        return self._trace.set_span_in_context(parent) if parent is not None else None

    def emit(self, event: Event) -> None:
        handler = {RUN_START: self._run_start, RUN_END: self._run_end, STAGE_START: self._stage_start,
                   STAGE_END: self._stage_end, LLM_CALL: self._llm_call}.get(event.name, self._point)
        handler(event)

    def _run_start(self, event: Event) -> None:
        span = self.tracer.start_span("relaykit.run", start_time=_ns(event.ts),
                                      attributes={"relaykit.run_id": event.run_id})
        with self._lock:
            self._runs[event.run_id] = span

    def _run_end(self, event: Event) -> None:
        with self._lock:
            span = self._runs.pop(event.run_id, None)
        if span is not None:
            span.set_attributes(_flat(event.fields))
            span.end(end_time=_ns(event.ts))

    def _stage_start(self, event: Event) -> None:
        stage = str(event.fields.get("stage"))
        with self._lock:
            parent = self._runs.get(event.run_id)
        span = self.tracer.start_span(f"relaykit.stage {stage}", context=self._context(parent),
                                      start_time=_ns(event.ts), attributes={"relaykit.stage": stage})
        with self._lock:
            self._stages[(event.run_id, stage)] = span

    def _stage_end(self, event: Event) -> None:
        with self._lock:
            span = self._stages.pop((event.run_id, str(event.fields.get("stage"))), None)
        if span is not None:
            span.set_attributes(_flat(event.fields))
            span.end(end_time=_ns(event.ts))

    def _llm_call(self, event: Event) -> None:
        latency = float(event.fields.get("latency_ms") or 0.0) / 1000.0
        span = self.tracer.start_span(f"chat {event.fields.get('model', '')}",
                                      context=self._context(self._parent(event)),
                                      kind=self._trace.SpanKind.CLIENT, start_time=_ns(event.ts - latency),
                                      attributes=genai_attributes(event.fields))
        span.end(end_time=_ns(event.ts))

    def _point(self, event: Event) -> None:
        parent = self._parent(event)
        attributes = _flat(event.fields)
        if parent is not None:
            parent.add_event(event.name, attributes=attributes, timestamp=_ns(event.ts))
            return
        span = self.tracer.start_span(event.name, start_time=_ns(event.ts), attributes=attributes)
        span.end(end_time=_ns(event.ts))


__all__ = ["CACHE_HIT", "FALLBACK", "JsonlSink", "MemorySink", "OTelSink", "read_jsonl"]


SinkFactory = Callable[[str], Sink]  # called with the rest of the spec after "NAME:"

SINKS: Registry[SinkFactory] = Registry("telemetry sink", "relaykit.sinks")
"""Sink specs (``memory``, ``jsonl:PATH``, ``otel`` and plugins of group ``relaykit.sinks``)."""


def _jsonl(rest: str) -> Sink:
    if not rest:
        raise UsageError("the jsonl sink needs a file: jsonl:PATH")
    return JsonlSink(rest)


def _otel(rest: str) -> Sink:
    from relaykit.telemetry.otel import open_otel_sink  # the SDK and exporter load only when asked for

    return open_otel_sink(rest)


SINKS.register("memory", lambda rest: MemorySink())
SINKS.register("jsonl", _jsonl)
SINKS.register("otel", lambda rest: _otel(rest))


def open_sink(spec: str | Sink) -> Sink:
    """A sink from a spec (``memory``, ``jsonl:PATH``, ``otel``, a plugin's name), or ``spec`` itself when it
    already is a sink."""
    if not isinstance(spec, str):
        return spec
    name, _, rest = spec.partition(":")
    return SINKS.get(name)(rest)
