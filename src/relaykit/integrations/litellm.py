"""LiteLLM: a function for ``litellm.completion`` messages, and a pre-call hook for the LiteLLM proxy.

Install with ``pip install relaykit[litellm]`` (pinned to LiteLLM 1.82.6: releases 1.82.7 and 1.82.8 were
reported compromised). Messages are in the OpenAI chat format LiteLLM uses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from relaykit.integrations.core import BudgetPolicy, Msg, compress_objects

try:
    from litellm.integrations.custom_logger import CustomLogger
except ImportError as exc:  # pragma: no cover - depends on the extra
    raise ImportError("relaykit.integrations.litellm needs LiteLLM: pip install 'relaykit[litellm]'") from exc


def _to_chat(message: Mapping[str, Any]) -> list[Msg]:
    return [dict(message)]


def _rebuild(message: Mapping[str, Any], parts: list[tuple[int, Msg]]) -> Mapping[str, Any]:
    return {**message, "content": parts[0][1].get("content")}


def compress_messages(messages: Sequence[Mapping[str, Any]], budget: int | str | None = None, method: str = "agora",
                      **options: Any) -> list[Mapping[str, Any]]:
    """``messages`` for ``litellm.completion(messages=...)``, valid and under ``budget`` tokens."""
    policy = BudgetPolicy(budget=budget, method=method, options=options)
    return compress_objects(list(messages), _to_chat, _rebuild, policy).items


class RelaykitHook(CustomLogger):  # type: ignore[misc]
    """A LiteLLM proxy callback: ``litellm_settings: callbacks: relaykit_hook.hook`` where that module holds
    ``hook = RelaykitHook(budget=4000)``. Chat-completion requests reach the model budgeted and valid."""

    def __init__(self, budget: int | str | None = None, method: str = "agora", **options: Any) -> None:
        super().__init__()
        self.policy = BudgetPolicy(budget=budget, method=method, options=options)

    async def async_pre_call_hook(self, user_api_key_dict: Any, cache: Any, data: dict[str, Any],
                                  call_type: str) -> dict[str, Any]:
        if call_type in ("completion", "acompletion") and isinstance(data.get("messages"), list):
            data["messages"] = compress_objects(data["messages"], _to_chat, _rebuild, self.policy).items
        return data


__all__ = ["RelaykitHook", "compress_messages"]
