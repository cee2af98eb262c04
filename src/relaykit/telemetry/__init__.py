"""Telemetry: the pipeline events of paper 002 Appendix B, sinks (JSONL, OpenTelemetry, memory), redaction."""

from relaykit.telemetry.core import RunTotals, Sink, StageHandle, Telemetry
from relaykit.telemetry.events import (
    CACHE_HIT,
    EVENT_FIELDS,
    EVENT_NAMES,
    FALLBACK,
    LLM_CALL,
    RUN_END,
    RUN_START,
    STAGE_END,
    STAGE_START,
    Event,
)
from relaykit.telemetry.redact import content_hash, redact
from relaykit.telemetry.sinks import SINKS, JsonlSink, MemorySink, OTelSink, genai_attributes, open_sink, read_jsonl
from relaykit.telemetry.summarize import summarize

__all__ = [
    "CACHE_HIT",
    "EVENT_FIELDS",
    "EVENT_NAMES",
    "FALLBACK",
    "LLM_CALL",
    "RUN_END",
    "RUN_START",
    "SINKS",
    "STAGE_END",
    "STAGE_START",
    "Event",
    "JsonlSink",
    "MemorySink",
    "OTelSink",
    "RunTotals",
    "Sink",
    "StageHandle",
    "Telemetry",
    "content_hash",
    "genai_attributes",
    "open_sink",
    "read_jsonl",
    "redact",
    "summarize",
]
