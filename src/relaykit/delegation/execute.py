"""Executing a delegation: directly from a complete graph, or with a model for everything else."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from relaykit.accounting import Tally
from relaykit.delegation.graph import DelegationGraph
from relaykit.delegation.prompts import executor_system_prompt
from relaykit.delegation.tools import ToolSpec
from relaykit.delegation.validate import call_order, missing_args, validate_graph
from relaykit.errors import InvalidOutput, UsageError
from relaykit.models import Model, complete_structured


@dataclass(frozen=True)
class ToolResult:
    ok: bool
    output: str


class ToolEnv(Protocol):
    """What an executor acts on: a tool list and a way to call one tool."""

    def tools(self) -> Sequence[ToolSpec]: ...

    def call(self, name: str, args: Mapping[str, Any]) -> ToolResult: ...


@dataclass(frozen=True)
class ToolStep:
    """One tool call an executor made and what came back."""

    tool: str
    args: dict[str, Any]
    ok: bool
    output: str
    node: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"tool": self.tool, "args": self.args, "ok": self.ok, "output": self.output[:300], "node": self.node}

    as_dict = to_dict  # deprecated: the labs' runners still call it; the one verb is to_dict()


@dataclass
class Trace:
    """Everything an execution did: steps, the final answer, who executed it, and the model usage."""

    steps: list[ToolStep] = field(default_factory=list)
    answer: str = ""
    executed_by: str = "model"
    finished: bool = False
    usage: Tally = field(default_factory=Tally)
    error: str = ""


def is_directly_executable(graph: DelegationGraph, tools: Sequence[ToolSpec]) -> bool:
    """True when the graph is valid, has tool calls, and each carries every required argument."""
    by_name = {t.name: t for t in tools}
    report = validate_graph(graph, tools)
    return report.valid and bool(graph.tool_calls()) and not missing_args(graph, by_name)


def execute_direct(graph: DelegationGraph, env: ToolEnv, *, stop_on_error: bool = True) -> Trace:
    """Run the graph's tool calls in topological order, no model involved.

    An argument written ``"$t1"`` is replaced by the output of tool_call ``t1`` (which must come
    earlier in the order). ``UsageError`` if the graph is invalid or an argument is missing.
    """
    tools = list(env.tools())
    report = validate_graph(graph, tools)
    if not report.valid:
        raise UsageError(f"the graph cannot be executed: {report.summary()}")
    gaps = missing_args(graph, {t.name: t for t in tools})
    if gaps:
        listed = "; ".join(f"{node}: {', '.join(params)}" for node, params in gaps.items())
        raise UsageError(f"these tool calls lack required arguments, so a model executor must fill them: {listed}")
    trace = Trace(executed_by="direct")
    outputs: dict[str, str] = {}
    for node in call_order(graph):
        args = {k: _resolve(v, outputs) for k, v in graph.call_args(node.id).items()}
        result = env.call(str(node.value), args)
        trace.steps.append(ToolStep(str(node.value), args, result.ok, result.output, node.id))
        outputs[node.id] = result.output
        if not result.ok and stop_on_error:
            trace.error = f"{node.id} ({node.value}) failed: {result.output[:200]}"
            return trace
    trace.finished = True
    return trace


def _resolve(value: Any, outputs: Mapping[str, str]) -> Any:
    if isinstance(value, str) and value.startswith("$") and value[1:] in outputs:
        return outputs[value[1:]]
    return value


class ExecutorStep(BaseModel):
    """One executor turn: call a tool, or finish with an answer."""

    model_config = ConfigDict(extra="ignore")

    action: Literal["call", "finish"]
    tool: str | None = None
    args: dict[str, JsonValue] = Field(default_factory=dict)
    answer: str | None = None


@dataclass(frozen=True)
class ExecutorSettings:
    """The settings of ``ModelExecutor``: turns allowed, tokens per turn, repairs of an invalid turn."""

    max_steps: int = 12
    max_tokens: int = 256
    max_repairs: int = 1

    def __post_init__(self) -> None:
        if self.max_steps < 1 or self.max_tokens < 1 or self.max_repairs < 0:
            raise UsageError(f"executor settings need max_steps >= 1, max_tokens >= 1, max_repairs >= 0: {self}")


@dataclass(frozen=True, init=False)
class ModelExecutor:
    """Carries out a graph or prose delegation with a model (the resource), one tool call per turn.

    ``ModelExecutor(model, ExecutorSettings(...))``, or keyword overrides: ``ModelExecutor(model, max_steps=5)``.
    """

    model: Model
    settings: ExecutorSettings

    def __init__(self, model: Model, settings: ExecutorSettings | None = None, **overrides: int) -> None:
        object.__setattr__(self, "model", model)
        object.__setattr__(self, "settings", replace(settings or ExecutorSettings(), **overrides))

    @property
    def max_steps(self) -> int:
        return self.settings.max_steps

    @property
    def max_tokens(self) -> int:
        return self.settings.max_tokens

    @property
    def max_repairs(self) -> int:
        return self.settings.max_repairs

    def run(self, delegation: str, fmt: str, env: ToolEnv, *, history: Sequence[dict[str, Any]] = ()) -> Trace:
        """Execute ``delegation`` (a graph's JSON when ``fmt == "graph"``, prose otherwise) against ``env``."""
        trace = Trace()
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": executor_system_prompt(fmt, env.tools())},
            *history,
            {"role": "user", "content": delegation},
        ]
        for _ in range(self.max_steps):
            try:
                step = complete_structured(self.model, messages, ExecutorStep, max_repairs=self.max_repairs,
                                           usage=trace.usage, max_tokens=self.max_tokens)
            except InvalidOutput as exc:
                trace.error = f"executor output invalid: {exc}"
                return trace
            if step.action == "finish" or not step.tool:
                trace.answer, trace.finished = step.answer or "", True
                return trace
            result = env.call(step.tool, step.args)
            trace.steps.append(ToolStep(step.tool, dict(step.args), result.ok, result.output))
            messages += [{"role": "assistant", "content": step.model_dump_json(exclude_none=True)},
                         {"role": "user", "content": f"Result ({'ok' if result.ok else 'error'}): "
                                                     f"{result.output[:1500]}"}]
        trace.error = f"stopped after {self.max_steps} steps without finishing"
        return trace


class DictToolEnv:
    """A ``ToolEnv`` over plain Python callables (handy for tests and small scripts)."""

    def __init__(self, functions: Mapping[str, Any], specs: Sequence[ToolSpec] | None = None) -> None:
        self._functions = dict(functions)
        self._specs = list(specs) if specs is not None else [ToolSpec(name) for name in functions]

    def tools(self) -> Sequence[ToolSpec]:
        return self._specs

    def call(self, name: str, args: Mapping[str, Any]) -> ToolResult:
        fn = self._functions.get(name)
        if fn is None:
            return ToolResult(False, f"unknown tool {name!r}")
        try:
            return ToolResult(True, str(fn(**args)))
        except Exception as exc:  # a tool's failure is an observation, not a crash
            return ToolResult(False, f"{type(exc).__name__}: {exc}")
