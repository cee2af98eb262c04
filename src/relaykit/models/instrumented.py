"""``Instrumented``: a model wrapper that reports every call as a ``pipeline.llm.call`` event."""

from __future__ import annotations

import re
import time
from typing import Any

from relaykit.models.base import ChatRequest, ChatResponse, Model, ModelWrapper
from relaykit.telemetry import LLM_CALL, Telemetry, content_hash

# Family names matched as prefixes of a model's base name (after any "provider/" or "spec:" part).
FAMILIES: tuple[str, ...] = (
    "gpt-4o", "gpt-4.1", "gpt-5", "gpt-4", "gpt-3.5", "o1", "o3", "o4", "claude", "gemini", "llama", "mistral",
    "mixtral", "deepseek", "qwen", "phi", "kimi", "grok", "gemma", "smollm",
)


def model_family(name: str) -> str:
    """A coarse family for cost/quality comparisons: ``gpt-4o-mini`` -> ``gpt-4o``, ``Llama-3.3-70B`` -> ``llama``."""
    base = re.split(r"[/:#]", name.lower())[-1]
    matches = [f for f in FAMILIES if base.startswith(f)]
    if matches:
        return max(matches, key=len)
    return re.split(r"[-_.\d]", base, maxsplit=1)[0] or base


class Instrumented(ModelWrapper):
    """Wraps ``model``; each call emits ``pipeline.llm.call`` with estimated and actual tokens,
    latency, model family and hashes of the messages (the messages themselves only when the
    telemetry records content). Failed calls are reported with ``error_type`` and re-raised."""

    def __init__(self, model: Model, telemetry: Telemetry, *, family: str | None = None) -> None:
        super().__init__(model)
        self.telemetry = telemetry
        self.family = family or model_family(model.name)





    def _complete(self, request: ChatRequest) -> ChatResponse:
        estimate = self.model.count_messages(request.messages)
        start = time.perf_counter()
        try:
            response = self.model.complete(request)
        except Exception as exc:
            self._emit(request, estimate, start, None, type(exc).__name__)
            raise
        self._emit(request, estimate, start, response, None)
        return response

    def _emit(self, request: ChatRequest, estimate: int, start: float, response: ChatResponse | None,
              error_type: str | None) -> None:
        fields: dict[str, Any] = {
            "model": self.model.name,
            "model_family": self.family,
            "input_tokens_est": estimate,
            "output_tokens_est": request.max_tokens if response is None else self.model.count_tokens(response.text),
            "prompt_tokens": None if response is None else response.prompt_tokens,
            "completion_tokens": None if response is None else response.completion_tokens,
            "latency_ms": round((time.perf_counter() - start) * 1000.0, 3),
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "messages": list(request.messages),
            "cache_key_hash": content_hash(request.cache_key_material()),
        }
        if response is not None:
            fields.update(response_model=response.model, finish_reason=response.finish_reason,
                          cached=bool(response.metadata.get("cached")),
                          fallback_count=response.metadata.get("fallback_count"))
        if error_type is not None:
            fields["error_type"] = error_type
        self.telemetry.emit(LLM_CALL, **fields)

