import json
from pathlib import Path

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from relaykit.errors import UsageError
from relaykit.telemetry import (
    CACHE_HIT,
    EVENT_NAMES,
    FALLBACK,
    LLM_CALL,
    RUN_END,
    RUN_START,
    STAGE_END,
    STAGE_START,
    JsonlSink,
    MemorySink,
    OTelSink,
    Telemetry,
    read_jsonl,
    redact,
    summarize,
)


def _pipeline(telemetry: Telemetry) -> str:
    with telemetry.run({"model": "m"}) as run_id:
        with telemetry.stage("acquire", sources=3) as stage:
            stage.results["items"] = 7
        with telemetry.stage("extract"):
            telemetry.emit(LLM_CALL, model="gpt-4o", model_family="gpt", input_tokens_est=100,
                           output_tokens_est=20, prompt_tokens=101, completion_tokens=19, latency_ms=50.0,
                           messages=[{"role": "user", "content": "secret plan"}])
            telemetry.emit(FALLBACK, from_model="gpt-4o", to_model="llama", reason="RateLimited")
            telemetry.emit(LLM_CALL, model="llama", input_tokens_est=100, output_tokens_est=20,
                           prompt_tokens=100, completion_tokens=30, latency_ms=80.0)
            telemetry.emit(CACHE_HIT, cache_age_ms=5.0, cache_key_hash="abc")
    return run_id


def test_events_follow_the_appendix_b_spec() -> None:
    sink = MemorySink()
    run_id = _pipeline(Telemetry(sink))
    assert set(sink.names()) == set(EVENT_NAMES)
    assert sink.names()[0] == RUN_START and sink.names()[-1] == RUN_END
    for event in sink.events:
        assert event.run_id == run_id
        assert event.missing_fields() == [], event
    end = sink.of(RUN_END)[0]
    assert end.fields["summary"]["model_calls"] == 2
    assert end.fields["summary"]["prompt_tokens"] == 201
    assert end.fields["fallback_count"] == 1
    acquire_end = next(e for e in sink.of(STAGE_END) if e.fields["stage"] == "acquire")
    assert acquire_end.fields["results"] == {"items": 7}
    assert acquire_end.fields["elapsed_ms"] >= 0
    assert sink.of(STAGE_START)[0].fields["metadata"] == {"sources": 3}
    assert all(e.fields["stage"] == "extract" for e in sink.of(LLM_CALL))


def test_content_is_hashed_unless_asked_and_secrets_never_pass() -> None:
    sink = MemorySink()
    _pipeline(Telemetry(sink))
    call = sink.of(LLM_CALL)[0]
    assert "messages" not in call.fields and len(call.fields["messages_hash"]) == 16
    assert "secret plan" not in json.dumps([e.to_dict() for e in sink.events])
    kept = redact({"messages": ["hi"], "api_key": "sk-abcdefghijkl", "note": "key sk-abcdefghijklmnop"},
                  include_content=True)
    assert kept == {"messages": ["hi"], "note": "key [redacted]"}


def test_jsonl_round_trip_and_summarize(tmp_path: Path) -> None:
    path = tmp_path / "trace.jsonl"
    sink = JsonlSink(path)
    _pipeline(Telemetry(sink))
    sink.close()
    events = read_jsonl(path)
    assert events[0].name == RUN_START
    summary = summarize(events)
    assert summary["runs"] == 1 and summary["fallbacks"] == 1 and summary["cache_hits"] == 1
    assert summary["models"]["gpt-4o"]["prompt_tokens"] == 101
    assert summary["models"]["llama"]["p50_ms"] == 80.0
    assert summary["stages"]["extract"]["model_calls"] == 2
    assert summary["stages"]["extract"]["completion_tokens"] == 49
    assert summary["stages"]["acquire"]["count"] == 1


def test_bad_trace_line_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"event": "pipeline.run.start", "run_id": "r"}\nnot json\n')
    with pytest.raises(UsageError, match=r"bad.jsonl:2"):
        read_jsonl(path)
    with pytest.raises(UsageError, match="no such trace file"):
        read_jsonl(tmp_path / "missing.jsonl")


def test_otel_sink_uses_genai_attribute_names() -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    _pipeline(Telemetry(OTelSink(provider.get_tracer("test"))))
    spans = {s.name: s for s in exporter.get_finished_spans()}
    expected = {"relaykit.run", "relaykit.stage acquire", "relaykit.stage extract", "chat gpt-4o", "chat llama"}
    assert expected <= set(spans)
    chat = spans["chat gpt-4o"]
    assert chat.attributes["gen_ai.operation.name"] == "chat"
    assert chat.attributes["gen_ai.request.model"] == "gpt-4o"
    assert chat.attributes["gen_ai.usage.input_tokens"] == 101
    assert chat.attributes["gen_ai.usage.output_tokens"] == 19
    stage = spans["relaykit.stage extract"]
    assert chat.parent is not None and chat.parent.span_id == stage.context.span_id
    assert stage.parent.span_id == spans["relaykit.run"].context.span_id
    assert [e.name for e in stage.events] == [FALLBACK, CACHE_HIT]


def test_stage_records_error_status_and_reraises() -> None:
    sink = MemorySink()
    telemetry = Telemetry(sink)
    with pytest.raises(RuntimeError), telemetry.run(), telemetry.stage("boom"):
        raise RuntimeError("x")
    assert sink.of(STAGE_END)[0].fields["status"] == "error"
    assert sink.of(RUN_END)[0].fields["summary"]["status"] == "error"
