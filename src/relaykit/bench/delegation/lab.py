"""The delegation lab: each task through each format arm, scored on the environment's gold outcome.

Arms: ``nl`` (prose delegation), ``graph`` (typed graph + graph-aware executor prompt), ``routed``
(the router picks per delegation), ``tfidf-terms`` (the NL plan re-encoded as its top TF-IDF terms, the
schema-unaware baseline). ``oracle`` is derived per task from the nl and graph arms (the better of
the two), so asking for it runs both. One record per (task, arm) goes to the run store as soon as
it finishes; ``resume`` skips recorded units.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from relaykit.bench.delegation.suites import Episode, Suite, SuiteTask, open_suite
from relaykit.bench.delegation.summary import summarize
from relaykit.bench.lab import LabModels, ProgressSink, RunContext, Runner, StderrProgress, Unit, open_run
from relaykit.bench.store import RunInfo, RunStore
from relaykit.delegation import (
    DelegationGraph,
    Format,
    ModelExecutor,
    RouteDecision,
    Router,
    Step,
    classify,
    delegation_cost,
    execute_direct,
    is_directly_executable,
    open_router,
    plan_graph,
    plan_nl,
    tfidf_reencode,
)
from relaykit.delegation.taxonomy import graph_precedence, prose_precedence
from relaykit.errors import ModelError, UsageError
from relaykit.models import Model, Usage

KIND = "delegation"
ARMS = ("nl", "graph", "routed", "tfidf-terms")
DERIVED = {"oracle": ("nl", "graph"), "all": ARMS}


@dataclass(frozen=True)
class LabConfig:
    suite: str
    planner: str = "local"
    executor: str = "local"
    arms: tuple[str, ...] = ("routed",)
    router: str = "model"
    limit: int = 5
    offset: int = 0
    max_steps: int = 12
    direct: bool = True
    plan_repairs: int = 2
    plan_tokens: int = 512
    step_tokens: int = 256

    @classmethod
    def build(cls, *, formats: Iterable[str], **kwargs: Any) -> LabConfig:
        """A config from CLI-style format names (repeatable, comma-separated, ``oracle`` and ``all`` expand)."""
        arms: list[str] = []
        for item in formats:
            for name in filter(None, (part.strip() for part in item.split(","))):
                expanded = DERIVED.get(name, (name,))
                if any(arm not in ARMS for arm in expanded):
                    raise UsageError(f"unknown format {name!r}; use nl, graph, routed, oracle, tfidf-terms or all")
                arms += [arm for arm in expanded if arm not in arms]
        if not arms:
            raise UsageError("give at least one --format")
        if kwargs.get("limit", 1) < 1:
            raise UsageError("--limit must be at least 1")
        return cls(arms=tuple(arms), **kwargs)


@dataclass
class LabContext:
    suite: Suite
    planner: Model
    executor: Model
    router: Router
    config: LabConfig


@dataclass
class TurnOutcome:
    format: str
    cost: dict[str, int]
    steps: list[Step] = field(default_factory=list)
    precedence: list[tuple[str, str]] = field(default_factory=list)
    executed_by: str = "model"
    error: str = ""


class DelegationLab:
    """The delegation lab on the one runner: a unit per (task, arm), grouped by task."""

    kind = KIND

    def __init__(self, config: LabConfig) -> None:
        self.config = config
        self.suite = open_suite(config.suite)  # an unknown suite fails here, before a run is registered
        self._context: LabContext | None = None

    @classmethod
    def from_stored(cls, data: Mapping[str, Any]) -> DelegationLab:
        known = set(LabConfig.__dataclass_fields__)
        return cls(LabConfig(**{k: v for k, v in data.items() if k in known} | {"arms": tuple(data["arms"])}))

    def stored_config(self) -> dict[str, Any]:
        return asdict(self.config)

    def model_specs(self) -> list[str]:
        return list(dict.fromkeys([self.config.planner, self.config.executor]))

    def units(self) -> list[Unit]:
        return [Unit(unit_key(task, arm), group=task.id, uses_model=True, tags={"arm": arm}, data=(task, arm))
                for task in self.suite.tasks(self.config.limit, self.config.offset) for arm in self.config.arms]

    def run_unit(self, unit: Unit, ctx: RunContext) -> dict[str, Any]:
        task, arm = unit.data
        return run_unit(self.context(ctx), task, arm)

    def context(self, ctx: RunContext) -> LabContext:
        if self._context is None:
            planner = ctx.models.get(self.config.planner)
            self._context = LabContext(self.suite, planner, ctx.models.get(self.config.executor),
                                       open_router(self.config.router, planner), self.config)
        return self._context

    def summarize(self, store: RunStore, run: RunInfo) -> dict[str, Any]:
        return summarize(store, run.run_id)


def run_lab(config: LabConfig, store: RunStore, *, resume: str | None = None,
            planner: Model | None = None, executor: Model | None = None,
            progress: ProgressSink | None = None, cache: str | None = None) -> str:
    """Run (or resume) a delegation lab on the one runner; returns the run id."""
    given = {spec: model for spec, model in ((config.planner, planner), (config.executor, executor or planner))
             if model is not None}
    if planner is not None:
        given.setdefault("*", planner)
    models = LabModels(cache=cache, namespace=KIND, given=given)
    lab, run_id = open_run(store, KIND, lambda stored: DelegationLab.from_stored(stored) if stored
                           else DelegationLab(config), resume, models)
    Runner(store, models, progress=progress or StderrProgress(f"delegation lab ({lab.config.suite})")).run(lab, run_id)
    return run_id


def unit_key(task: SuiteTask, arm: str) -> str:
    return f"{task.id}|{arm}"


def run_unit(context: LabContext, task: SuiteTask, arm: str) -> dict[str, Any]:
    """One task through one arm: every turn planned, handed off and executed; then the gold check."""
    episode = context.suite.episode(task)
    usage = {"planner": Usage(), "executor": Usage()}
    turns: list[TurnOutcome] = []
    for index, text in enumerate(task.turns):
        episode.begin_turn(index)
        request = _with_history(task.turns[:index], text)
        outcome = run_turn(context, episode, request, arm, usage)
        turns.append(outcome)
        if outcome.error.startswith("planner"):
            break
    return _record(task, arm, episode.success(), turns, usage)


def _with_history(earlier: Sequence[str], text: str) -> str:
    if not earlier:
        return text
    done = "\n".join(f"- {t}" for t in earlier)
    return f"Already handled earlier:\n{done}\nNow:\n{text}"


def run_turn(context: LabContext, episode: Episode, request: str, arm: str, usage: Mapping[str, Usage]
             ) -> TurnOutcome:
    tools = list(episode.tools())
    decision, route_error = _route(context, request) if arm == "routed" else (None, "")
    fmt = decision.format.value if decision else ("graph" if arm == "graph" else "nl")
    router_tokens = decision.router_tokens if decision else 0
    graph: DelegationGraph | None = None
    try:
        if fmt == "graph":
            graph = plan_graph(context.planner, request, tools, usage=usage["planner"],
                               max_repairs=context.config.plan_repairs, max_tokens=context.config.plan_tokens)
            text = graph.to_json()
        else:
            text = plan_nl(context.planner, request, tools, usage=usage["planner"],
                           max_tokens=context.config.plan_tokens)
            text = tfidf_reencode(text) if arm == "tfidf-terms" else text
    except ModelError as exc:
        return TurnOutcome(fmt, delegation_cost("", fmt, router_tokens=router_tokens).as_dict(),
                           error=f"planner: {exc}")
    outcome = TurnOutcome(fmt, delegation_cost(text, fmt, router_tokens=router_tokens).as_dict(), error=route_error)
    outcome.precedence = graph_precedence(graph) if graph else prose_precedence(text, [t.name for t in tools])
    _execute(context, episode, graph, text, fmt, outcome, usage["executor"])
    return outcome


def _route(context: LabContext, request: str) -> tuple[RouteDecision, str]:
    """The router's decision; if the router fails, NL (the conservative default) and the error."""
    try:
        return context.router.route(request), ""
    except ModelError as exc:
        return RouteDecision(Format.NL, 0, "router failed"), f"router: {exc}"


def _execute(context: LabContext, episode: Episode, graph: DelegationGraph | None, text: str, fmt: str,
             outcome: TurnOutcome, usage: Usage) -> None:
    if graph is not None and context.config.direct and is_directly_executable(graph, list(episode.tools())):
        trace = execute_direct(graph, episode)
    else:
        try:
            trace = ModelExecutor(context.executor, max_steps=context.config.max_steps,
                                  max_tokens=context.config.step_tokens).run(text, fmt, episode)
        except ModelError as exc:
            outcome.error = f"executor: {exc}"
            return
        usage.requests += trace.usage.requests
        usage.prompt_tokens += trace.usage.prompt_tokens
        usage.completion_tokens += trace.usage.completion_tokens
    outcome.steps, outcome.executed_by = trace.steps, trace.executed_by
    outcome.error = "; ".join(filter(None, [outcome.error, trace.error]))


def _record(task: SuiteTask, arm: str, success: bool, turns: Sequence[TurnOutcome],
            usage: Mapping[str, Usage]) -> dict[str, Any]:
    steps = [s for t in turns for s in t.steps]
    precedence = [p for t in turns for p in t.precedence]
    total: Callable[[str], int] = lambda key: sum(t.cost[key] for t in turns)  # noqa: E731
    return {
        "task": task.id,
        "arm": arm,
        "success": success,
        "formats": [t.format for t in turns],
        "router_tokens": total("router_tokens"),
        "handoff_tokens": total("handoff_tokens"),
        "prefill_tokens": total("prefill_tokens"),
        "total_tokens": total("total"),
        "planner_tokens": usage["planner"].total_tokens,
        "executor_tokens": usage["executor"].total_tokens,
        "steps": len(steps),
        "executed_by": [t.executed_by for t in turns],
        "errors": [t.error for t in turns if t.error],
        "planner_failed": any(t.error.startswith("planner") for t in turns),
        "taxonomy": classify(steps, precedence).as_dict(),
        "trace": [s.as_dict() for s in steps[:40]],
    }


__all__ = ["ARMS", "KIND", "DelegationLab", "LabConfig", "run_lab", "run_unit", "summarize"]
