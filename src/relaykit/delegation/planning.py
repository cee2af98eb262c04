"""Planning a delegation: a typed graph through constrained decoding, or prose."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from relaykit.accounting import Tally
from relaykit.delegation.graph import DelegationGraph
from relaykit.delegation.prompts import GRAPH_PLANNER_PROMPT, NL_PLANNER_PROMPT, planner_user_prompt
from relaykit.delegation.tools import ToolSpec, load_tools
from relaykit.delegation.validate import GraphReport, validate_graph
from relaykit.errors import InvalidOutput, UsageError
from relaykit.models import Model, complete_structured


@dataclass(frozen=True)
class PlanSettings:
    """The settings of planning: repairs allowed for an invalid graph, tokens of one planner answer."""

    max_repairs: int = 2
    max_tokens: int = 768

    def __post_init__(self) -> None:
        if self.max_repairs < 0:
            raise UsageError(f"max_repairs must be 0 or more, not {self.max_repairs}")
        if self.max_tokens < 1:
            raise UsageError(f"max_tokens must be at least 1, not {self.max_tokens}")


def _settings(settings: PlanSettings | None, overrides: dict[str, int | None]) -> PlanSettings:
    return replace(settings or PlanSettings(), **{k: v for k, v in overrides.items() if v is not None})


def plan_graph(
    model: Model,
    task: str,
    tools: Sequence[ToolSpec] | Sequence[dict[str, Any]] = (),
    *,
    settings: PlanSettings | None = None,
    usage: Tally | None = None,
    max_repairs: int | None = None,
    max_tokens: int | None = None,
) -> DelegationGraph:
    """Ask ``model`` for a delegation graph of ``task`` and return it validated.

    The graph schema goes to the backend for constrained decoding; a graph that parses but breaks
    a rule (cycle, unknown tool, bad argument, ...) goes back to the model with its violations, at
    most ``max_repairs`` times in all, then ``InvalidOutput`` is raised. ``model`` and ``usage`` are resources;
    ``settings`` (or the ``max_repairs`` / ``max_tokens`` overrides) are the method's settings.
    """
    chosen = _settings(settings, {"max_repairs": max_repairs, "max_tokens": max_tokens})
    max_repairs, max_tokens = chosen.max_repairs, chosen.max_tokens
    specs = load_tools(tools)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": GRAPH_PLANNER_PROMPT},
        {"role": "user", "content": planner_user_prompt(task, specs)},
    ]
    attempts = Tally()  # every call counts against one bound, schema repairs and rule repairs alike
    try:
        while True:
            left = max_repairs - attempts.model_calls
            graph = complete_structured(model, messages, DelegationGraph, max_repairs=left, usage=attempts,
                                        temperature=0.0, max_tokens=max_tokens)
            report = validate_graph(graph, specs if specs else None)
            if report.valid:
                return graph
            if attempts.model_calls > max_repairs:
                raise _invalid(model, report, graph)
            messages += [{"role": "assistant", "content": graph.to_json()},
                         {"role": "user", "content": _repair_text(report)}]
    finally:
        if usage is not None:  # the tokens were spent whether or not a valid graph came back
            usage.add(attempts.usage)


def _repair_text(report: GraphReport) -> str:
    listed = "\n".join(f"- {v.message}" for v in report.violations[:10])
    return f"The graph breaks these rules:\n{listed}\nAnswer again with one corrected graph."


def _invalid(model: Model, report: GraphReport, graph: DelegationGraph) -> InvalidOutput:
    return InvalidOutput(
        f"{model.name} kept producing invalid delegation graphs: {report.summary()}",
        raw_text=graph.to_json(),
        errors=[v.message for v in report.violations],
    )


def plan_nl(
    model: Model,
    task: str,
    tools: Sequence[ToolSpec] | Sequence[dict[str, Any]] = (),
    *,
    settings: PlanSettings | None = None,
    usage: Tally | None = None,
    max_tokens: int | None = None,
) -> str:
    """Ask ``model`` for a prose delegation of ``task``."""
    max_tokens = _settings(settings, {"max_tokens": max_tokens}).max_tokens
    specs = load_tools(tools)
    messages = [
        {"role": "system", "content": NL_PLANNER_PROMPT},
        {"role": "user", "content": planner_user_prompt(task, specs)},
    ]
    response = model.complete(messages, temperature=0.0, max_tokens=max_tokens)
    if usage is not None:
        usage.add(response)
    text = response.text.strip()
    if not text:
        raise InvalidOutput(f"{model.name} wrote an empty delegation", raw_text=response.text)
    return text
