"""OpenAI Agents SDK: a model-input filter that keeps every model call under a budget, and a hand-off input
filter that compresses the history handed to the next agent.

Install with ``pip install relaykit[openai-agents]``. Histories are Responses API input items, compressed in
that format (reasoning items stay with the call they precede).

    RunConfig(call_model_input_filter=budget_filter(4000), handoff_input_filter=handoff_filter(budget="40%"))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from relaykit import tokens
from relaykit.errors import UsageError
from relaykit.handoff import Handoff, compress_handoff
from relaykit.trajectory.formats import compress_formatted

try:
    from agents import HandoffInputData
    from agents.run_config import CallModelData, ModelInputData
except ImportError as exc:  # pragma: no cover - depends on the extra
    raise ImportError("relaykit.integrations.openai_agents needs the OpenAI Agents SDK: "
                      "pip install 'relaykit[openai-agents]'") from exc


def _compress_items(items: list[Any], budget: int | str | None, method: str, options: dict[str, Any],
                    reserved: int = 0) -> list[Any]:
    if not items:
        return items
    if isinstance(budget, int):
        budget -= reserved
        if budget < 1:
            raise UsageError(f"the budget leaves no room for the history after {reserved} tokens of instructions")
    extra = {**options, **({"budget": budget} if budget is not None else {})}
    return list(compress_formatted([dict(i) for i in items], method, format="responses", **extra).messages)


def budget_filter(budget: int | str, method: str = "agora", **options: Any) -> Callable[[CallModelData[Any]],
                                                                                       ModelInputData]:
    """A ``RunConfig.call_model_input_filter``: instructions + input fit ``budget`` tokens on every call."""

    def apply(data: CallModelData[Any]) -> ModelInputData:
        model_data = data.model_data
        reserved = tokens.count(model_data.instructions or "") + tokens.TOKENS_PER_MESSAGE
        kept = _compress_items(list(model_data.input), budget, method, options, reserved)
        return ModelInputData(input=kept, instructions=model_data.instructions)

    return apply


def _history(data: HandoffInputData) -> list[Any]:
    """Everything before the hand-off turn as input items: the run's input, then the items made since."""
    history = data.input_history
    items: list[Any] = [{"role": "user", "content": history}] if isinstance(history, str) else list(history)
    items.extend(item.to_input_item() for item in data.pre_handoff_items)
    return items


def handoff_filter(budget: int | str | None = None, method: str = "agora",
                   **options: Any) -> Callable[[HandoffInputData], HandoffInputData]:
    """A ``handoff_input_filter``: the next agent receives the history before the hand-off compressed (valid,
    within budget), followed by the hand-off turn itself."""

    def apply(data: HandoffInputData) -> HandoffInputData:
        kept = _compress_items(_history(data), budget, method, options)
        return dataclasses.replace(data, input_history=tuple(kept), pre_handoff_items=())

    return apply


def evidence_handoff_filter(goal: str, method: str = "extract-rules",
                            on_handoff: Callable[[Handoff], None] | None = None,
                            **settings: Any) -> Callable[[HandoffInputData], HandoffInputData]:
    """A ``handoff_input_filter`` that hands over the task plus an evidence table instead of the history.

    The tool outputs gathered before the hand-off are compressed with ``compress_handoff(method=...)`` (the
    inference-free evidence table by default); ``on_handoff`` receives the ``Handoff`` so the caller can
    ``audit`` what the next agent did not receive.
    """

    def apply(data: HandoffInputData) -> HandoffInputData:
        items = _history(data)
        outputs = [str(i.get("output", "")) for i in items if isinstance(i, dict) and
                   i.get("type") == "function_call_output"]
        task = [i for i in items if isinstance(i, dict) and i.get("role") == "user"][:1]
        if not outputs:
            return dataclasses.replace(data, input_history=tuple(items), pre_handoff_items=())
        handoff = compress_handoff("\n".join(outputs), goal, method=method, **settings)
        if on_handoff is not None:
            on_handoff(handoff)
        note = {"role": "user", "content": f"Evidence gathered by the previous agent:\n{handoff.payload_text}"}
        handed: tuple[Any, ...] = (*task, note)
        return dataclasses.replace(data, input_history=handed, pre_handoff_items=())

    return apply


__all__ = ["budget_filter", "evidence_handoff_filter", "handoff_filter"]
