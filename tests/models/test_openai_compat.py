"""The OpenAI-compatible backend against a mock HTTP transport: errors and schema forms."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx2 as httpx
import pytest
from pydantic import BaseModel

from relaykit.errors import InvalidOutput, ModelTimeout, RateLimited, ServerError
from relaykit.models import complete_structured
from relaykit.models.openai_compat import OpenAICompatModel


class City(BaseModel):
    city: str


def completion(text: str) -> dict[str, Any]:
    return {
        "id": "x", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 4, "total_tokens": 15},
    }


def make_model(handler: Callable[[httpx.Request], httpx.Response], **kw: Any) -> OpenAICompatModel:
    client = httpx.Client(transport=httpx.MockTransport(handler))
    return OpenAICompatModel("m", base_url="http://mock/v1", api_key="k", http_client=client, **kw)


def test_plain_call_reports_usage() -> None:
    model = make_model(lambda r: httpx.Response(200, json=completion("hello")))
    response = model.complete("hi")
    assert (response.text, response.prompt_tokens, response.completion_tokens) == ("hello", 11, 4)


def test_429_becomes_rate_limited_with_retry_after() -> None:
    model = make_model(lambda r: httpx.Response(429, headers={"retry-after": "7"}, json={"error": {}}))
    with pytest.raises(RateLimited) as info:
        model.complete("hi")
    assert info.value.retry_after == 7.0


def test_500_becomes_server_error() -> None:
    model = make_model(lambda r: httpx.Response(500, json={"error": {"message": "boom"}}))
    with pytest.raises(ServerError) as info:
        model.complete("hi")
    assert info.value.status == 500


def test_timeout_becomes_model_timeout() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    with pytest.raises(ModelTimeout, match="timeout"):
        make_model(handler).complete("hi")


def test_malformed_body_becomes_server_error() -> None:
    model = make_model(lambda r: httpx.Response(200, content=b"{not json",
                                                headers={"content-type": "application/json"}))
    with pytest.raises(ServerError, match="malformed"):
        model.complete("hi")


def test_body_invalid_for_the_schema_is_repaired_then_raises() -> None:
    model = make_model(lambda r: httpx.Response(200, json=completion('{"town": "London"}')))
    with pytest.raises(InvalidOutput) as info:
        complete_structured(model, "where?", City, max_repairs=1)
    assert info.value.raw_text == '{"town": "London"}'


def test_schema_falls_back_from_json_schema_to_json_object_and_remembers() -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        kind = body.get("response_format", {}).get("type", "none")
        seen.append(kind)
        if kind == "json_schema":  # what llama-cpp-python's server does
            return httpx.Response(500, json={"error": {"message": "unsupported"}})
        assert body["response_format"]["schema"]["properties"]["city"]["type"] == "string"
        return httpx.Response(200, json=completion('{"city": "London"}'))

    model = make_model(handler)
    assert complete_structured(model, "where?", City).city == "London"
    assert complete_structured(model, "where?", City).city == "London"
    assert seen == ["json_schema", "json_object", "json_object"]
    assert model.schema_mode == "json_object"


def test_schema_falls_back_to_instructions() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        if "response_format" in body:
            return httpx.Response(400, json={"error": {"message": "response_format not supported"}})
        assert "JSON schema" in body["messages"][-1]["content"]
        return httpx.Response(200, json=completion('```json\n{"city": "Paris"}\n```'))

    assert complete_structured(make_model(handler), "where?", City).city == "Paris"


@pytest.mark.parametrize(("content", "word"), [(None, "no content"), ("", "empty content"), ("  \n", "empty")])
def test_null_or_empty_content_is_invalid_output_and_the_chain_moves_on(content: str | None, word: str) -> None:
    from relaykit.models.fallback import FallbackChain
    from relaykit.testing import ScriptedModel

    body = completion("x")
    body["choices"][0]["message"]["content"] = content
    model = make_model(lambda r: httpx.Response(200, json=body))
    with pytest.raises(InvalidOutput, match=word):
        model.complete("hi")
    backup = ScriptedModel(["ok"], name="backup")
    assert FallbackChain([model, backup], retries=2, sleep=lambda s: None).complete("hi").text == "ok"
    assert backup.calls == 1


def test_content_parts_are_read_as_their_text_and_other_shapes_are_malformed() -> None:
    """Some servers send the content as a list of parts: its text parts are the answer (not the list's repr); a
    number or an object as the content is a malformed answer, which the chain treats as a failure."""
    body = completion("x")
    body["choices"][0]["message"]["content"] = [{"type": "text", "text": "Paris, "}, {"type": "image_url"},
                                                 {"type": "text", "text": "France"}]
    assert make_model(lambda r: httpx.Response(200, json=body)).complete("hi").text == "Paris, France"
    body["choices"][0]["message"]["content"] = [{"type": "image_url", "image_url": {"url": "x"}}]
    with pytest.raises(InvalidOutput, match="empty content"):
        make_model(lambda r: httpx.Response(200, json=body)).complete("hi")
    for content in (42, {"text": "Paris"}, True):
        body["choices"][0]["message"]["content"] = content
        with pytest.raises(ServerError, match="malformed answer"):
            make_model(lambda r: httpx.Response(200, json=body)).complete("hi")


def test_200_with_an_error_object_raises_the_servers_message() -> None:
    model = make_model(lambda r: httpx.Response(200, json={"error": {"message": "context too busy", "code": 503}}))
    with pytest.raises(ServerError, match="context too busy"):
        model.complete("hi")
    limited = make_model(lambda r: httpx.Response(200, json={"error": {"message": "slow down", "code": 429}}))
    with pytest.raises(RateLimited, match="slow down"):
        limited.complete("hi")
    bare = make_model(lambda r: httpx.Response(200, json={"id": "x", "object": "chat.completion"}))
    with pytest.raises(ServerError, match="without choices") as info:
        bare.complete("hi")
    assert "NoneType" not in str(info.value)


def test_model_name_never_shows_url_credentials() -> None:
    model = OpenAICompatModel("m", base_url="http://alice:hunter2pass@127.0.0.1:9/v1", api_key="k")
    assert model.name == "m@http://127.0.0.1:9/v1" and "hunter2pass" not in repr(model)
