"""Secrets never reach a trace, whatever field or nesting carries them; trace files are private."""

from __future__ import annotations

import stat
from pathlib import Path

import httpx2 as httpx
import pytest

from relaykit.errors import ServerError
from relaykit.models.fallback import FallbackChain
from relaykit.models.instrumented import Instrumented
from relaykit.models.openai_compat import OpenAICompatModel
from relaykit.telemetry import FALLBACK, LLM_CALL, JsonlSink, MemorySink, Telemetry, redact
from relaykit.testing import ScriptedModel

JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ"
SECRETS = ["sk-proj-Ab3dEf6hIj9kLmNoPqRsTu", "AKIAIOSFODNN7EXAMPLE", "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
           JWT, "hunter2pass"]
URL = "http://alice:hunter2pass@127.0.0.1:9/v1"


def test_secrets_inside_lists_and_tuples_are_masked() -> None:
    fields = {
        "notes": ["key sk-proj-Ab3dEf6hIj9kLmNoPqRsTu", ("AKIAIOSFODNN7EXAMPLE",)],
        "results": {"tokens": [{"auth": f"Bearer {JWT}"}, "ghp_16C7e42F292c6912E7710c838347Ae178B4a"]},
        "endpoint": URL,
    }
    for include_content in (False, True):
        text = repr(redact(fields, include_content))
        for secret in SECRETS:
            assert secret not in text, (secret, text)
    kept = redact(fields)
    assert kept["endpoint"] == "http://[redacted]@127.0.0.1:9/v1"


def test_content_recorded_on_request_is_still_scrubbed() -> None:
    sink = MemorySink()
    Telemetry(sink, include_content=True).emit(
        LLM_CALL, model="m", messages=[{"role": "user", "content": "my key is sk-proj-Ab3dEf6hIj9kLmNoPqRsTu"}])
    [event] = sink.events
    assert "sk-proj" not in repr(event.fields) and event.fields["messages"][0]["role"] == "user"


def test_a_model_url_password_never_reaches_the_trace(tmp_path: Path) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(503, json={"error": {"message": f"upstream {URL} failed"}})

    client = httpx.Client(transport=httpx.MockTransport(handler))
    remote = OpenAICompatModel("m", base_url=URL, api_key="k", http_client=client)
    assert "hunter2pass" not in remote.name and "hunter2pass" not in repr(remote) and "alice" not in remote.name
    trace = tmp_path / "home" / "trace.jsonl"
    sink = JsonlSink(trace)
    telemetry = Telemetry(sink)
    backup = ScriptedModel(["ok"], name="backup")
    chain = FallbackChain([Instrumented(remote, telemetry), backup], telemetry=telemetry, retries=0)
    with telemetry.run({"model": f"openai-compat:{URL}#m", "key": "sk-proj-Ab3dEf6hIj9kLmNoPqRsTu"}):
        assert chain.complete("hi").text == "ok"
    sink.close()
    written = trace.read_text()
    assert '"pipeline.fallback"' in written and "upstream" in written
    for secret in SECRETS:
        assert secret not in written, secret
    assert stat.S_IMODE(trace.stat().st_mode) == 0o600
    assert stat.S_IMODE(trace.parent.stat().st_mode) == 0o700


def test_errors_carry_no_url_password() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(500, json={"error": {"message": f"cannot forward to {URL}"}})

    client = httpx.Client(transport=httpx.MockTransport(handler))
    remote = OpenAICompatModel("m", base_url=URL, api_key="k", http_client=client)
    sink = MemorySink()
    chain = FallbackChain([remote, ScriptedModel(["ok"])], telemetry=Telemetry(sink), retries=0)
    chain.complete("hi")
    [event] = sink.of(FALLBACK)
    assert "hunter2pass" not in repr(event.fields)
    with pytest.raises(ServerError) as info:
        remote.complete("hi")
    assert "hunter2pass" not in str(info.value) and "cannot forward" in str(info.value)
