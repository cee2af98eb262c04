"""The gateway as a real uvicorn process between the official ``openai`` client and a fake upstream."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import openai
import pytest
from gateway_process import KEYS, gateway, write_config
from upstream_server import Upstream, upstream_server

from relaykit import tokens
from relaykit.trajectory.validate import validate

HISTORY = [{"role": "system", "content": "You are terse."}, {"role": "user", "content": "Say hello."}]


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Upstream]]:
    with upstream_server(latency=0.01) as (up_url, up):
        config = write_config(tmp_path_factory.mktemp("gw") / "gateway.toml", up_url, rpm=1000, budget="600")
        with gateway(config) as url:
            yield url, up


def client(url: str, tenant: str = "alpha", **kw: Any) -> openai.OpenAI:
    return openai.OpenAI(base_url=url + "/v1", api_key=KEYS[tenant], max_retries=0, **kw)


def test_plain_call_caches_per_tenant(running: tuple[str, Upstream]) -> None:
    url, _ = running
    messages = [*HISTORY[:1], {"role": "user", "content": f"hello at {time.time()}"}]
    first = client(url).chat.completions.with_raw_response.create(model="default", messages=messages)
    assert first.headers["x-relaykit-cache"] == "miss"
    assert first.headers["x-relaykit-upstream"].startswith("ok@127.0.0.1")
    assert first.parse().choices[0].message.content.startswith("echo 2 messages")
    again = client(url).chat.completions.with_raw_response.create(model="default", messages=messages)
    assert again.headers["x-relaykit-cache"] == "hit"
    assert again.parse().choices[0].message.content == first.parse().choices[0].message.content
    other = client(url, "beta").chat.completions.with_raw_response.create(model="default", messages=messages)
    assert other.headers["x-relaykit-cache"] == "miss"  # 0 cross-tenant hits


def test_history_is_compressed_under_the_budget_and_stays_valid(running: tuple[str, Upstream]) -> None:
    url, up = running
    messages: list[dict[str, Any]] = [*HISTORY]
    for k in range(12):
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{k}", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]})
        messages.append({"role": "tool", "tool_call_id": f"c{k}", "content": f"record R{k} " + "detail " * 60})
    raw = client(url).chat.completions.with_raw_response.create(model="default", messages=messages)
    before, after = int(raw.headers["x-relaykit-tokens-before"]), int(raw.headers["x-relaykit-tokens-after"])
    assert before == tokens.count_messages(messages) and after <= 600 < before
    sent = up.requests[-1]["messages"]
    assert validate(sent) == [] and sent[0] == HISTORY[0] and sent[1] == HISTORY[1]
    assert tokens.count_messages(sent) == after


def test_streaming_is_relayed_chunk_by_chunk(running: tuple[str, Upstream]) -> None:
    url, _ = running
    arrivals, parts = [], []
    stream = client(url).chat.completions.create(model="default", messages=HISTORY, stream=True)
    for chunk in stream:
        arrivals.append(time.monotonic())
        parts.append(chunk.choices[0].delta.content or "")
    assert "".join(parts) == "part0 part1 part2 part3 part4 "
    assert arrivals[-1] - arrivals[0] >= 0.15  # spread out as the upstream sent them, not buffered to the end


@pytest.mark.parametrize(("payload", "status", "words"), [
    ({"model": "default", "messages": [{"role": "tool", "tool_call_id": "x", "content": "r"}]}, 400, "invalid"),
    ({"model": "nosuch", "messages": HISTORY}, 404, "unknown model"),
    ({"model": "default", "messages": "hi"}, 400, "messages"),
])
def test_bad_requests_are_answered_with_the_reason(running: tuple[str, Upstream], payload: dict[str, Any],
                                                   status: int, words: str) -> None:
    url, _ = running
    r = httpx2.post(url + "/v1/chat/completions", json=payload, headers={"authorization": f"Bearer {KEYS['alpha']}"})
    assert r.status_code == status
    assert words in r.json()["error"]["message"]


def test_unknown_key_oversize_and_non_json(running: tuple[str, Upstream]) -> None:
    url, _ = running
    r = httpx2.post(url + "/v1/chat/completions", json={"model": "default", "messages": HISTORY},
                    headers={"authorization": "Bearer wrong"})
    assert r.status_code == 401
    big = {"model": "default", "messages": [{"role": "user", "content": "x" * 300_000}]}
    r = httpx2.post(url + "/v1/chat/completions", json=big, headers={"authorization": f"Bearer {KEYS['alpha']}"})
    assert r.status_code == 413
    auth = {"authorization": f"Bearer {KEYS['alpha']}"}
    r = httpx2.post(url + "/v1/chat/completions", content=b"\xff{", headers=auth)
    assert r.status_code == 400


def test_fallback_past_429_500_and_a_hang_within_the_deadline(running: tuple[str, Upstream]) -> None:
    url, _ = running
    started = time.monotonic()
    raw = client(url).chat.completions.with_raw_response.create(model="fallback", messages=HISTORY)
    assert raw.headers["x-relaykit-upstream"].startswith("ok@")
    assert time.monotonic() - started < 3.0
    started = time.monotonic()
    with pytest.raises(openai.APIStatusError) as err:
        client(url).chat.completions.create(model="stuck", messages=HISTORY)
    assert err.value.status_code == 504
    assert time.monotonic() - started < 3.0 + 1.0  # the route's 3 s deadline, plus slack


def test_models_health_and_metrics(running: tuple[str, Upstream]) -> None:
    url, _ = running
    assert {m.id for m in client(url).models.list()} == {"default", "tools", "fallback", "stuck"}
    assert httpx2.get(url + "/healthz").json()["status"] == "ok"
    text = httpx2.get(url + "/metrics").text
    assert "# TYPE relaykit_gateway_requests_total counter" in text
    assert 'relaykit_gateway_requests_total{route="default",status="200",tenant="alpha"}' in text
    assert "key-alpha" not in text


def test_openai_agents_sdk_runs_through_the_gateway(running: tuple[str, Upstream]) -> None:
    from agents import Agent, RunConfig, Runner, function_tool, set_tracing_disabled
    from agents.models.openai_chatcompletions import OpenAIChatCompletionsModel

    set_tracing_disabled(True)

    @function_tool
    def lookup(n: int) -> str:
        """Look up record n."""
        return f"record R{n}: price {n * 10} USD"

    url, up = running
    model = OpenAIChatCompletionsModel(model="tools", openai_client=openai.AsyncOpenAI(
        base_url=url + "/v1", api_key=KEYS["alpha"], max_retries=0))
    agent = Agent(name="booker", instructions="Look things up.", tools=[lookup], model=model)
    result = asyncio.run(Runner.run(agent, "Find a record.", run_config=RunConfig(tracing_disabled=True)))
    assert result.final_output.startswith("echo")
    tool_requests = [r for r in up.requests if r.get("model") == "tools"]
    assert len(tool_requests) == 5 and all(validate(r["messages"]) == [] for r in tool_requests)


def test_rate_limit_answers_429_with_retry_after(tmp_path: Path) -> None:
    with upstream_server() as (up_url, _), gateway(write_config(tmp_path / "g.toml", up_url, rpm=2)) as url:
        c = client(url)
        c.chat.completions.create(model="default", messages=HISTORY)
        c.chat.completions.create(model="default", messages=HISTORY)
        with pytest.raises(openai.RateLimitError) as err:
            c.chat.completions.create(model="default", messages=HISTORY)
        assert int(err.value.response.headers["retry-after"]) >= 1


@pytest.mark.redis
def test_two_gateways_share_one_redis(tmp_path: Path, redis_url: str) -> None:
    with upstream_server() as (up_url, up):
        config = write_config(tmp_path / "g.toml", up_url, cache=redis_url, rate_store=redis_url)
        with gateway(config) as one, gateway(config) as two:
            messages = [{"role": "user", "content": f"shared {time.time()}"}]
            first = client(one).chat.completions.with_raw_response.create(model="default", messages=messages)
            second = client(two).chat.completions.with_raw_response.create(model="default", messages=messages)
            assert first.headers["x-relaykit-cache"] == "miss"
            assert second.headers["x-relaykit-cache"] == "hit"
            assert len([r for r in up.requests if r["messages"] == messages]) == 1


def test_the_example_config_starts_and_answers_curl(tmp_path: Path) -> None:
    """`relaykit serve --config examples/gateway.toml` (the README's line) starts; curl and the SDK reach it."""
    import shutil
    import subprocess

    example = Path(__file__).resolve().parents[2] / "examples" / "gateway.toml"
    with upstream_server() as (up_url, _):
        config = tmp_path / "gateway.toml"  # the example, its first upstream pointed at the local fake one
        config.write_text(example.read_text(encoding="utf-8").replace("http://127.0.0.1:8000/v1", up_url)
                          .replace('model = "my-model"', 'model = "ok"'), encoding="utf-8")
        with gateway(config) as url:
            assert {m.id for m in openai.OpenAI(base_url=url + "/v1", api_key="demo-key").models.list()} == {"default"}
            curl = shutil.which("curl")
            if curl is None:
                return
            out = subprocess.run([curl, "-s", url + "/v1/chat/completions", "-H", "Authorization: Bearer demo-key",
                                  "-H", "Content-Type: application/json", "-d",
                                  '{"model": "default", "messages": [{"role": "user", "content": "hi"}]}'],
                                 capture_output=True, text=True, timeout=30, check=True)
            assert '"echo 1 messages' in out.stdout
