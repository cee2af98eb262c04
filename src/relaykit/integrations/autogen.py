"""AutoGen (autogen-core): a ``ChatCompletionContext`` whose ``get_messages()`` is a budgeted, valid view of the
whole history it keeps.

Install with ``pip install relaykit[autogen]``. Pass it as ``AssistantAgent(..., model_context=
BudgetedChatCompletionContext(budget=2000))``. The budget covers the history the context returns; the agent
adds its own system message on top of it.
"""

from __future__ import annotations

import json
from typing import Any

from relaykit.integrations.core import BudgetPolicy, Msg, compress_objects

try:
    from autogen_core.model_context import ChatCompletionContext
    from autogen_core.models import (
        AssistantMessage,
        FunctionExecutionResultMessage,
        LLMMessage,
        SystemMessage,
        UserMessage,
    )
except ImportError as exc:  # pragma: no cover - depends on the extra
    raise ImportError("relaykit.integrations.autogen needs autogen-core: pip install 'relaykit[autogen]'") from exc


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(c for c in content if isinstance(c, str))
    return str(content)


def to_chat(message: LLMMessage) -> list[Msg]:
    """The chat messages one AutoGen message stands for (a result message holds one per call), as autogen-ext's
    OpenAI client sends them by default (a user message names its source), so that the budget counts what is sent."""
    if isinstance(message, SystemMessage):
        return [{"role": "system", "content": message.content}]
    if isinstance(message, UserMessage):  # the OpenAI client sends the source as the name (2 tokens more)
        return [{"role": "user", "content": _text(message.content), "name": message.source}]
    if isinstance(message, AssistantMessage):
        if isinstance(message.content, list):
            calls = [{"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                     for c in message.content]
            return [{"role": "assistant", "content": message.thought or "", "tool_calls": calls}]
        return [{"role": "assistant", "content": message.content}]
    if isinstance(message, FunctionExecutionResultMessage):
        return [{"role": "tool", "tool_call_id": r.call_id, "content": r.content} for r in message.content]
    return [{"role": "user", "content": json.dumps(message.model_dump(), default=str)}]


def _rebuild(message: LLMMessage, parts: list[tuple[int, Msg]]) -> LLMMessage:
    if isinstance(message, FunctionExecutionResultMessage):
        results = [message.content[j].model_copy(update={"content": str(m.get("content") or "")}) for j, m in parts]
        return message.model_copy(update={"content": results})
    if isinstance(message, (UserMessage, SystemMessage)):
        return message.model_copy(update={"content": str(parts[0][1].get("content") or "")})
    return message


class BudgetedChatCompletionContext(ChatCompletionContext):
    """Keeps every message; returns a budgeted view in which tool calls and their results stay paired."""

    def __init__(self, budget: int | str | None = None, method: str = "agora",
                 initial_messages: list[LLMMessage] | None = None, **options: Any) -> None:
        super().__init__(initial_messages)
        self.policy = BudgetPolicy(budget=budget, method=method, options=options)

    async def get_messages(self) -> list[LLMMessage]:
        if not self._messages:
            return []
        return compress_objects(list(self._messages), to_chat, _rebuild, self.policy).items


__all__ = ["BudgetedChatCompletionContext", "to_chat"]
