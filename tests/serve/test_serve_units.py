"""In-process checks of the gateway's parts: config validation, the Responses policy, the semantic cache's keys."""

from __future__ import annotations

from typing import Any

import pytest

from relaykit.errors import UsageError
from relaykit.models.cache import MemoryStore
from relaykit.serve.config import parse_config
from relaykit.serve.endpoints import CHAT, RESPONSES, responses_cacheable
from relaykit.serve.policy import check_responses, shape_responses
from relaykit.serve.semantic import SemanticCache

TENANT = {"name": "a", "key_sha256": "0" * 64}


def _route(**extra: Any) -> dict[str, Any]:
    return {"upstreams": [{"base_url": "http://127.0.0.1:9/v1", "model": "m"}], **extra}


def test_a_misspelt_embedder_is_named_when_the_config_is_read() -> None:
    with pytest.raises(UsageError, match="did you mean 'minilm'"):
        parse_config({"tenants": [TENANT], "routes": {"r": _route(cache="semantic", embedder="minlm")}})
    with pytest.raises(UsageError, match="cache"):
        parse_config({"tenants": [TENANT], "routes": {"r": _route(cache="fuzzy")}})


def test_responses_policy_passes_strings_and_checks_items() -> None:
    config = parse_config({"tenants": [TENANT], "routes": {"r": _route(compression={"budget": 50})}})
    route = config.routes["r"]
    shaped = shape_responses(route, {"input": "just a question"})
    assert shaped.messages == "just a question" and shaped.tokens_before == shaped.tokens_after
    orphan = [{"type": "function_call_output", "call_id": "x", "output": "r"}]
    assert any("orphan-tool-result" in p for p in check_responses(route, orphan))
    assert check_responses(route, "text") == []


def test_which_answers_are_cached_and_found_by_similarity() -> None:
    tool_reply = {"choices": [{"message": {"role": "assistant", "content": None, "tool_calls": [{"id": "c"}]},
                               "finish_reason": "tool_calls"}]}
    assert CHAT.text_of(tool_reply) is None  # exact hits only
    assert CHAT.text_of({"choices": [{"message": {"content": "hi"}, "finish_reason": "stop"}]}) == "hi"
    done = {"status": "completed", "output": [{"type": "message", "content": [{"type": "output_text", "text": "x"}]}]}
    assert responses_cacheable(done) and RESPONSES.text_of(done) == "x"
    assert not responses_cacheable({**done, "status": "incomplete"})
    assert RESPONSES.text_of({**done, "output": [{"type": "function_call", "call_id": "c", "name": "f"}]}) is None


def test_semantic_keys_ignore_transport_fields_and_keep_everything_else() -> None:
    messages = [{"role": "user", "content": "Find a hotel in Rome"}]
    base = SemanticCache.request(CHAT, {"messages": messages, "temperature": 0}, messages)
    streamed = SemanticCache.request(CHAT, {"messages": messages, "temperature": 0, "stream": True, "user": "u"},
                                     messages)
    tooled = SemanticCache.request(CHAT, {"messages": messages, "temperature": 0, "tools": [{"type": "function"}]},
                                   messages)
    as_responses = SemanticCache.request(RESPONSES, {"input": "Find a hotel in Rome", "temperature": 0},
                                         "Find a hotel in Rome")
    assert base is not None and streamed is not None and tooled is not None and as_responses is not None
    cache = SemanticCache(MemoryStore(), "hashing", 0.8)
    cached = cache.cached("a", "r")
    assert cached.key(base) == cached.key(streamed)
    assert len({cached.key(base), cached.key(tooled), cached.key(as_responses)}) == 3
    assert cache.cached("b", "r").key(base) != cached.key(base)  # each tenant its own namespace


def test_semantic_store_and_lookup_in_process() -> None:
    cache = SemanticCache(MemoryStore(), "hashing", 0.8)
    alpha, beta = cache.cached("alpha", "r"), cache.cached("beta", "r")
    asked = [{"role": "user", "content": "What is the capital city of France?"}]
    request = SemanticCache.request(CHAT, {"messages": asked}, asked)
    assert request is not None
    reply = {"model": "m", "choices": [{"message": {"content": "Paris"}, "finish_reason": "stop"}]}
    cache.put(alpha, request, reply, "Paris")
    assert cache.get(alpha, request) == (reply, None)
    similar = [{"role": "user", "content": "what is the capital city of france"}]
    again = SemanticCache.request(CHAT, {"messages": similar}, similar)
    assert again is not None
    exact, hit = cache.get(alpha, again)
    assert exact is None and hit is not None and hit.text == "Paris"
    assert cache.get(beta, again) == (None, None) and cache.get(beta, request) == (None, None)


def test_a_stream_that_outlives_the_deadline_ends_with_an_error_event() -> None:
    import asyncio
    import time
    from collections.abc import AsyncIterator

    from relaykit.serve.upstream import _bounded

    closed: list[bool] = []

    async def slow() -> AsyncIterator[bytes]:
        try:
            for k in range(10):
                yield f"data: {k}\n\n".encode()
                await asyncio.sleep(0.1)
        finally:
            closed.append(True)

    async def collect() -> list[bytes]:
        return [chunk async for chunk in _bounded(slow(), time.monotonic() + 0.25)]

    chunks = asyncio.run(collect())
    assert 2 <= len(chunks) <= 5 and b"passed its deadline" in chunks[-1]
    assert closed == [True]  # the upstream's stream was closed, not left open
