"""The semantic cache per tenant, ``POST /v1/responses`` (plain and streamed, through the openai SDK) and the
gateway's OpenTelemetry export, against one real gateway process, a fake upstream and a local OTLP receiver."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import openai
import pytest
from gateway_process import KEYS, gateway, write_config
from otlp_receiver import Received, attributes, otlp_receiver
from upstream_server import Upstream, upstream_server

from relaykit import tokens
from relaykit.serve.policy import responses_chat_view
from relaykit.trajectory.formats import validate_formatted

SEMANTIC = """
[routes.semantic]
cache = "semantic"
embedder = "hashing"
threshold = 0.8
upstreams = [{{ base_url = "{up}", model = "ok" }}]

[telemetry]
sinks = ["jsonl:{events}", "otel:{otlp}"]
"""


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Upstream, Received, Path]]:
    folder = tmp_path_factory.mktemp("gw")
    events = folder / "events.jsonl"
    with upstream_server(latency=0.01) as (up_url, up), otlp_receiver() as (otlp, received):
        extra = SEMANTIC.format(up=up_url, events=events, otlp=otlp)
        config = write_config(folder / "gateway.toml", up_url, budget="300", extra=extra)
        with gateway(config, env={"OTEL_BSP_SCHEDULE_DELAY": "100"}) as url:
            yield url, up, received, events


def client(url: str, tenant: str = "alpha") -> openai.OpenAI:
    return openai.OpenAI(base_url=url + "/v1", api_key=KEYS[tenant], max_retries=0)


def ask(url: str, text: str, tenant: str = "alpha", **params: Any) -> tuple[dict[str, str], str]:
    messages = [{"role": "system", "content": "You answer travel questions."}, {"role": "user", "content": text}]
    raw = client(url, tenant).chat.completions.with_raw_response.create(model="semantic", messages=messages, **params)
    return dict(raw.headers), raw.parse().choices[0].message.content or ""


def test_semantic_cache_answers_a_paraphrase_for_the_same_tenant_only(running: Any) -> None:
    url, up, _, _ = running
    stamp = time.time()
    first, answer = ask(url, f"What is the capital city of France? ({stamp})")
    assert first["x-relaykit-cache"] == "miss"
    seen = len(up.requests)
    same, again = ask(url, f"what is the capital city of france ({stamp})")
    assert same["x-relaykit-cache"] == "hit" and same["x-relaykit-cache-match"] == "semantic"
    assert float(same["x-relaykit-cache-similarity"]) >= 0.8 and again == answer
    assert len(up.requests) == seen  # answered without the upstream
    exact, _ = ask(url, f"What is the capital city of France? ({stamp})")
    assert exact["x-relaykit-cache"] == "hit" and exact["x-relaykit-cache-match"] == "exact"
    other, _ = ask(url, f"What is the capital city of France? ({stamp})", tenant="beta")
    assert other["x-relaykit-cache"] == "miss"  # 0 cross-tenant hits, even word for word
    hotter, _ = ask(url, f"what is the capital city of france ({stamp})", temperature=0.9)
    assert hotter["x-relaykit-cache"] == "miss"  # other settings: another group


@pytest.mark.parametrize(("stored", "asked"), [
    ("Book 3 nights in Rome at the Hotel Roma", "Book 4 nights in Rome at the Hotel Roma"),
    ("Is the museum open on Monday?", "Is the museum not open on Monday?"),
])
def test_semantic_guards_refuse_near_misses(running: Any, stored: str, asked: str) -> None:
    url, _, _, _ = running
    stamp = f" (ref {time.time()})"
    assert ask(url, stored + stamp)[0]["x-relaykit-cache"] == "miss"
    headers, _ = ask(url, asked + stamp)
    assert headers["x-relaykit-cache"] == "miss"  # similar enough, but the numbers or the negation differ


def _responses_history(steps: int) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = [
        {"role": "system", "content": "You look records up."},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Find record R3."}]}]
    for k in range(steps):
        items.append({"type": "function_call", "call_id": f"c{k}", "name": "lookup", "arguments": "{}"})
        items.append({"type": "function_call_output", "call_id": f"c{k}", "output": f"R{k}: " + "detail " * 60})
    return items


def test_responses_endpoint_compresses_checks_and_caches(running: Any) -> None:
    url, up, _, _ = running
    items = _responses_history(10)
    raw = client(url).responses.with_raw_response.create(model="default", input=items)  # type: ignore[arg-type]
    before, after = int(raw.headers["x-relaykit-tokens-before"]), int(raw.headers["x-relaykit-tokens-after"])
    assert before == tokens.count_messages(responses_chat_view(items)) and after <= 300 < before
    assert raw.parse().output_text.startswith("echo ")
    sent = up.requests[-1]
    assert sent["_path"] == "/v1/responses" and sent["model"] == "ok"
    assert validate_formatted(sent["input"], "responses") == [] and sent["input"][:2] == items[:2]
    assert tokens.count_messages(responses_chat_view(sent["input"])) == after
    again = client(url).responses.with_raw_response.create(model="default", input=items)  # type: ignore[arg-type]
    assert again.headers["x-relaykit-cache"] == "hit" and again.parse().output_text == raw.parse().output_text
    text = client(url).responses.create(model="default", input=f"plain string input {time.time()}")
    assert "plain string input" in text.output_text


def test_responses_invalid_input_is_rejected_with_the_rule(running: Any) -> None:
    url, _, _, _ = running
    items = _responses_history(2)[:-1]  # the last call has no output
    with pytest.raises(openai.BadRequestError) as err:
        client(url).responses.create(model="default", input=items)  # type: ignore[arg-type]
    assert "call-without-result" in str(err.value)
    r = httpx2.post(url + "/v1/responses", json={"model": "default", "input": 5},
                    headers={"authorization": f"Bearer {KEYS['alpha']}"})
    assert r.status_code == 400 and "'input'" in r.json()["error"]["message"]


def test_responses_stream_is_relayed_event_by_event(running: Any) -> None:
    url, _, _, _ = running
    deltas, kinds = [], []
    with client(url).responses.create(model="default", input="Say hello.", stream=True) as stream:
        for event in stream:
            kinds.append(event.type)
            if event.type == "response.output_text.delta":
                deltas.append(event.delta)
    assert kinds[0] == "response.created" and kinds[-1] == "response.completed"
    assert "".join(deltas) == "part0 part1 part2 part3 part4 "
    # the SDK parses events in batches of its own, so the relay's timing is checked on the wire
    arrivals = []
    with httpx2.stream("POST", url + "/v1/responses", json={"model": "default", "input": "hi", "stream": True},
                       headers={"authorization": f"Bearer {KEYS['alpha']}"}) as r:
        for chunk in r.iter_raw():
            arrivals += [time.monotonic()] * chunk.count(b"event: ")
    assert len(arrivals) == 7 and arrivals[-1] - arrivals[0] >= 0.2  # spread out as the upstream sent them


def test_semantic_cache_works_on_responses_too(running: Any) -> None:
    url, _, _, _ = running
    stamp = time.time()
    first = client(url).responses.with_raw_response.create(model="semantic", input=f"Where is the Louvre? {stamp}")
    second = client(url).responses.with_raw_response.create(model="semantic", input=f"where is the louvre {stamp}")
    assert first.headers["x-relaykit-cache"] == "miss" and second.headers["x-relaykit-cache-match"] == "semantic"
    assert second.parse().output_text == first.parse().output_text


def test_events_reach_jsonl_and_otlp_redacted(running: Any) -> None:
    url, _, received, events = running
    raw = client(url).chat.completions.with_raw_response.create(
        model="fallback", messages=[{"role": "user", "content": "secret plan sk-abcdefghijklmnopqrstuvwx"}])
    assert raw.headers["x-relaykit-upstream"].startswith("ok@")
    rid = raw.headers["x-relaykit-request-id"]
    deadline = time.monotonic() + 15
    runs: list[Any] = []
    while not runs and time.monotonic() < deadline:
        time.sleep(0.1)
        runs = [s for s in received.named("relaykit.run") if attributes(s).get("relaykit.run_id") == rid]
    assert len(runs) == 1, f"no run span for request {rid} among {len(received.spans)} spans"
    run = runs[0]
    assert attributes(run)["relaykit.route"] == "fallback" and attributes(run)["relaykit.tenant"] == "alpha"
    chats = [s for s in received.named("chat ") if s.parent_span_id == run.span_id]
    assert len(chats) == 1 and attributes(chats[0])["gen_ai.request.model"].startswith("ok@")
    assert [e.name for e in run.events].count("pipeline.fallback") == 3  # rate, fail, hang, then ok answered
    everything = b"".join(received.raw) + events.read_bytes()
    assert b"sk-abcdefghijklmnopqrstuvwx" not in everything and b"secret plan" not in everything
    assert KEYS["alpha"].encode() not in everything
    lines = [json.loads(line) for line in events.read_text().splitlines()]
    assert {"pipeline.run.start", "pipeline.llm.call", "pipeline.run.end"} <= {e["event"] for e in lines}


@pytest.mark.redis
def test_two_gateways_share_the_semantic_cache_through_redis(tmp_path: Path, redis_url: str) -> None:
    with upstream_server() as (up_url, up):
        extra = SEMANTIC.split("[telemetry]")[0].format(up=up_url)
        config = write_config(tmp_path / "g.toml", up_url, cache=redis_url, rate_store=redis_url, extra=extra)
        with gateway(config) as one, gateway(config) as two:
            stamp = time.time()
            first, answer = ask(one, f"Which river runs through Paris? ({stamp})")
            second, again = ask(two, f"which river runs through paris ({stamp})")
            assert first["x-relaykit-cache"] == "miss" and second["x-relaykit-cache-match"] == "semantic"
            assert again == answer and len(up.requests) == 1
            other, _ = ask(two, f"which river runs through paris ({stamp})", tenant="beta")
            assert other["x-relaykit-cache"] == "miss"
