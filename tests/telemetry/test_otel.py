"""The ``otel`` sink spec through the sink registry: the global provider, or OTLP/HTTP to a collector URL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from relaykit.errors import UsageError
from relaykit.telemetry import FALLBACK, LLM_CALL, OTelSink, Telemetry, open_sink
from relaykit.telemetry.otel import OtlpSink, otlp_sink, traces_url

SECRET = "sk-proj-abcdefghijklmnop1234"


def _run(telemetry: Telemetry) -> None:
    with telemetry.run({"route": "default"}), telemetry.stage("answer"):
        telemetry.emit(FALLBACK, from_model="a", to_model="b", reason=f"HTTP 429 with key {SECRET}")
        telemetry.emit(LLM_CALL, model="b", input_tokens_est=10, output_tokens_est=2, latency_ms=5.0,
                       api_key=SECRET, messages=[{"role": "user", "content": "the secret plan"}])


@pytest.fixture()
def collector() -> Iterator[tuple[str, list[bytes]]]:
    posts: list[bytes] = []

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            posts.append(self.rfile.read(int(self.headers.get("content-length") or 0)))
            self.send_response(200)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", posts
    server.shutdown()
    server.server_close()


def test_otel_url_spec_exports_redacted_spans_over_otlp_http(collector: tuple[str, list[bytes]]) -> None:
    url, posts = collector
    sink = open_sink(f"otel:{url}")
    assert isinstance(sink, OtlpSink)
    _run(Telemetry(sink))
    sink.close()  # flushes the batch
    spans = []
    for body in posts:
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        spans += [s for r in request.resource_spans for sc in r.scope_spans for s in sc.spans]
    names = {s.name for s in spans}
    assert {"relaykit.run", "relaykit.stage answer", "chat b"} <= names
    stage = next(s for s in spans if s.name == "relaykit.stage answer")
    assert [e.name for e in stage.events] == [FALLBACK]
    exported = b"".join(posts)
    assert SECRET.encode() not in exported and b"the secret plan" not in exported


def test_in_memory_exporter_sees_the_span_tree() -> None:
    exporter = InMemorySpanExporter()
    sink = otlp_sink("http://127.0.0.1:9", processor=SimpleSpanProcessor(exporter))
    _run(Telemetry(sink))
    spans = {s.name: s for s in exporter.get_finished_spans()}
    chat, stage, run = spans["chat b"], spans["relaykit.stage answer"], spans["relaykit.run"]
    assert chat.parent is not None and chat.parent.span_id == stage.context.span_id
    assert stage.parent is not None and stage.parent.span_id == run.context.span_id
    assert "relaykit.api_key" not in chat.attributes and SECRET not in str(stage.events[0].attributes)
    assert spans["chat b"].resource.attributes["service.name"] == "relaykit"
    sink.close()


def test_plain_otel_spec_uses_the_global_provider_and_bad_urls_are_named() -> None:
    assert type(open_sink("otel")) is OTelSink
    assert traces_url("http://h:4318") == "http://h:4318/v1/traces"
    assert traces_url("https://h/custom/path") == "https://h/custom/path"
    with pytest.raises(UsageError, match="collector URL"):
        open_sink("otel:localhost:4318")
