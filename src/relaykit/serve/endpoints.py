"""What differs between the two endpoints the gateway serves: ``/v1/chat/completions`` and ``/v1/responses``.

Each endpoint names the body field that holds the history, how that history is checked, compressed and seen
as chat messages (for the semantic cache's key), which upstream answers may be cached, the text of an answer
(only plain-text answers are found by similarity), and the answer a semantic hit is served as.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from relaykit.serve.config import Route
from relaykit.serve.policy import Shaped, check, check_responses, responses_chat_view, shape, shape_responses
from relaykit.serve.state import cacheable as chat_cacheable


@dataclass(frozen=True)
class Endpoint:
    name: str
    path: str  # the upstream path under the upstream's base_url
    field: str  # the body field holding the history
    accepts: Callable[[Any], bool]  # is the history field of a usable type
    check: Callable[[Route, Any], list[str]]
    shape: Callable[[Route, dict[str, Any], int | None], Shaped]  # (route, body, tokens before if counted)
    chat_view: Callable[[Any], list[dict[str, Any]]]
    cacheable: Callable[[dict[str, Any]], bool]
    text_of: Callable[[dict[str, Any]], str | None]  # a plain-text answer's text, else None
    from_text: Callable[[str, str, str], dict[str, Any]]  # (text, model, finish_reason) -> a reply body


def _chat_text(reply: dict[str, Any]) -> str | None:
    choices = reply.get("choices")
    if not isinstance(choices, list) or len(choices) != 1 or not isinstance(choices[0], dict):
        return None
    message = choices[0].get("message") or {}
    content = message.get("content")
    return content if isinstance(content, str) and content and not message.get("tool_calls") else None


def _chat_reply(text: str, model: str, finish_reason: str) -> dict[str, Any]:
    return {"id": f"chatcmpl-relaykit-{uuid.uuid4().hex[:24]}", "object": "chat.completion",
            "created": int(time.time()), "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                         "finish_reason": finish_reason}],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}}


def responses_cacheable(reply: dict[str, Any]) -> bool:
    """A completed Responses answer with some output (never an incomplete, failed or empty one)."""
    output = reply.get("output")
    return reply.get("status") == "completed" and isinstance(output, list) and bool(output) \
        and not reply.get("error") and not reply.get("incomplete_details")


def _responses_text(reply: dict[str, Any]) -> str | None:
    output = reply.get("output")
    if not isinstance(output, list) or not output:
        return None
    texts: list[str] = []
    for item in output:
        if not isinstance(item, dict) or item.get("type") != "message" or not isinstance(item.get("content"), list):
            return None  # a call, a reasoning item or anything else: exact hits only
        texts += [str(p.get("text", "")) for p in item["content"]
                  if isinstance(p, dict) and p.get("type") == "output_text"]
    text = "".join(texts)
    return text or None


def _responses_reply(text: str, model: str, finish_reason: str) -> dict[str, Any]:
    ident = uuid.uuid4().hex[:24]
    return {"id": f"resp_relaykit_{ident}", "object": "response", "created_at": int(time.time()),
            "status": "completed", "model": model, "error": None, "incomplete_details": None,
            "output": [{"type": "message", "id": f"msg_relaykit_{ident}", "status": "completed", "role": "assistant",
                        "content": [{"type": "output_text", "text": text, "annotations": []}]}],
            "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
            "usage": {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}}


CHAT = Endpoint("chat", "/chat/completions", "messages", lambda v: isinstance(v, list), check, shape,
                lambda messages: list(messages), chat_cacheable, _chat_text, _chat_reply)
RESPONSES = Endpoint("responses", "/responses", "input", lambda v: isinstance(v, (list, str)), check_responses,
                     shape_responses, responses_chat_view, responses_cacheable, _responses_text, _responses_reply)

__all__ = ["CHAT", "RESPONSES", "Endpoint", "responses_cacheable"]
