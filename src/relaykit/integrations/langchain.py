"""LangChain v1 / LangGraph: an agent middleware and a LangGraph ``pre_model_hook`` that give the model a valid
history under a token budget (an ``AIMessage``'s tool calls and their ``ToolMessage`` answers stay together).

Install with ``pip install relaykit[langchain]``. The agent's state keeps the full history; only what is sent
to the model is compressed, afresh for every call.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from relaykit.integrations.core import BudgetPolicy, Msg, compress_objects

try:
    from langchain.agents.middleware import AgentMiddleware, ModelRequest
    from langchain_core.messages import BaseMessage, SystemMessage, convert_to_openai_messages
except ImportError as exc:  # pragma: no cover - depends on the extra
    raise ImportError("relaykit.integrations.langchain needs LangChain: pip install 'relaykit[langchain]'") from exc


def _to_chat(message: BaseMessage) -> list[Msg]:
    converted = convert_to_openai_messages([message])
    out = []
    for item in converted if isinstance(converted, list) else [converted]:
        m = dict(item)
        if m.get("role") == "assistant" and m.get("tool_calls") and not m.get("content"):
            m["content"] = None
        out.append(m)
    return out


def _rebuild(message: BaseMessage, parts: list[tuple[int, Msg]]) -> BaseMessage:
    text = parts[0][1].get("content")
    return message.model_copy(update={"content": text if isinstance(text, str) else message.content})


def compress_langchain_messages(messages: Sequence[BaseMessage], policy: BudgetPolicy) -> list[BaseMessage]:
    """``messages`` (system first if any) compressed under ``policy``; unchanged messages are the same objects."""
    return compress_objects(list(messages), _to_chat, _rebuild, policy).items


def _after_head(head: Sequence[BaseMessage], messages: Sequence[BaseMessage], policy: BudgetPolicy) -> list[Any]:
    """``messages`` compressed together with the system prompt the framework sends before them (``head``, counted
    against the budget, never returned)."""
    return compress_langchain_messages([*head, *messages], policy)[len(head):]


class RelaykitMiddleware(AgentMiddleware):  # type: ignore[misc]
    """``create_agent(..., middleware=[RelaykitMiddleware(budget=2000)])``: every model call sees a budgeted,
    valid history that still holds the system prompt and the task."""

    def __init__(self, budget: int | str | None = None, method: str = "agora", **options: Any) -> None:
        super().__init__()
        self.policy = BudgetPolicy(budget=budget, method=method, options=options)

    def _budgeted(self, request: ModelRequest) -> ModelRequest:
        system = request.system_message
        head = [system] if isinstance(system, SystemMessage) else []
        return request.override(messages=_after_head(head, request.messages, self.policy))

    def wrap_model_call(self, request: ModelRequest, handler: Callable[[ModelRequest], Any]) -> Any:
        return handler(self._budgeted(request))

    async def awrap_model_call(self, request: ModelRequest,
                               handler: Callable[[ModelRequest], Awaitable[Any]]) -> Any:
        return await handler(self._budgeted(request))


def pre_model_hook(budget: int | str | None = None, method: str = "agora", *, prompt: str | None = None,
                   **options: Any) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A LangGraph ``pre_model_hook``: returns ``llm_input_messages`` (the state's messages stay whole).

    LangGraph's ``create_react_agent(..., prompt=P)`` puts its prompt in front of what the hook returns, after the
    hook: pass the same ``prompt=P`` here so that the request as sent, prompt included, keeps the budget (the
    hook compresses the prompt and the history together, as the middleware does, and returns the history)."""
    policy = BudgetPolicy(budget=budget, method=method, options=options)
    head = [SystemMessage(content=prompt)] if prompt else []

    def hook(state: dict[str, Any]) -> dict[str, Any]:
        return {"llm_input_messages": _after_head(head, state["messages"], policy)}

    return hook


__all__ = ["RelaykitMiddleware", "compress_langchain_messages", "pre_model_hook"]
