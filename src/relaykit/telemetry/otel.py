"""The ``otel`` sink spec: OpenTelemetry spans through the global tracer provider, or straight to a collector.

- ``otel``: spans go to the tracer provider the application set up (``opentelemetry.trace``'s global one).
- ``otel:http://HOST:4318`` (or a full ``.../v1/traces`` URL): relaykit sets up its own provider, batching spans
  to that OTLP/HTTP endpoint (``service.name`` from ``OTEL_SERVICE_NAME``, else ``relaykit``); ``close()`` flushes.

Events are redacted by ``Telemetry`` (and by the gateway) before a sink sees them, so nothing secret is exported.
"""

from __future__ import annotations

import os
from typing import Any

from relaykit.errors import UsageError
from relaykit.telemetry.sinks import OTelSink

INSTALL = "pip install 'relaykit[otel]'"


class OtlpSink(OTelSink):
    """An ``OTelSink`` over its own tracer provider (an OTLP/HTTP exporter, or any span processor given)."""

    def __init__(self, provider: Any) -> None:
        super().__init__(provider.get_tracer("relaykit"))
        self.provider = provider

    def flush(self, timeout_ms: int = 5000) -> bool:
        return bool(self.provider.force_flush(timeout_ms))

    def close(self) -> None:
        self.provider.shutdown()


def traces_url(endpoint: str) -> str:
    """``endpoint`` as an OTLP/HTTP traces URL (``/v1/traces`` added to a bare collector address)."""
    if not endpoint.startswith(("http://", "https://")):
        raise UsageError(f"the otel sink takes an http(s) collector URL (otel:http://HOST:4318), not {endpoint!r}")
    path = endpoint.partition("://")[2].partition("/")[2]
    return endpoint if path.strip("/") else endpoint.rstrip("/") + "/v1/traces"


def otlp_sink(endpoint: str, *, processor: Any = None) -> OtlpSink:
    """A sink exporting spans to the OTLP/HTTP collector at ``endpoint`` (``processor`` replaces the batching
    exporter, e.g. a ``SimpleSpanProcessor`` over an ``InMemorySpanExporter`` in tests)."""
    try:
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError:
        raise UsageError(f"the otel:URL sink needs opentelemetry-sdk: {INSTALL}") from None
    provider = TracerProvider(resource=Resource.create({"service.name": os.environ.get("OTEL_SERVICE_NAME",
                                                                                       "relaykit")}))
    if processor is None:
        try:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        except ImportError:
            raise UsageError(f"the otel:URL sink needs opentelemetry-exporter-otlp-proto-http: {INSTALL}") from None
        processor = BatchSpanProcessor(OTLPSpanExporter(endpoint=traces_url(endpoint)))
    provider.add_span_processor(processor)
    return OtlpSink(provider)


def open_otel_sink(rest: str) -> OTelSink:
    """The sink for the spec ``otel`` (global provider) or ``otel:URL`` (own provider, OTLP/HTTP to URL)."""
    return otlp_sink(rest) if rest else OTelSink()


__all__ = ["OtlpSink", "open_otel_sink", "otlp_sink", "traces_url"]
