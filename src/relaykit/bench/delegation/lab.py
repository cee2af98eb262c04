"""The delegation lab: each task through each format arm, scored on the environment's gold outcome.

Arms: ``nl`` (prose delegation), ``graph`` (typed graph + graph-aware executor prompt), ``routed``
(the router picks per delegation), ``tfidf`` (the NL plan re-encoded as its top TF-IDF terms, the
schema-unaware baseline). ``oracle`` is derived per task from the nl and graph arms (the better of
the two), so asking for it runs both. One record per (task, arm) goes to the run store as soon as
it finishes; ``resume`` skips recorded units.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from rich.progress import Progress

from relaykit.bench.delegation.suites import Episode, Suite, SuiteTask, open_suite
from relaykit.bench.delegation.summary import summarize
from relaykit.bench.store import RunStore
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
from relaykit.models import Model, Usage, open_model

KIND = "delegation"
ARMS = ("nl", "graph", "routed", "tfidf")
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
                    raise UsageError(f"unknown format {name!r}; use nl, graph, routed, oracle, tfidf or all")
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


def run_lab(config: LabConfig, store: RunStore, *, resume: str | None = None,
            planner: Model | None = None, executor: Model | None = None) -> str:
    """Run (or resume) a delegation lab; returns the run id."""
    if resume is not None:
        run = store.get_run(resume)
        if run.kind != KIND:
            raise UsageError(f"run {resume} is a {run.kind} run, not a delegation run")
        known = set(LabConfig.__dataclass_fields__)
        config = LabConfig(**{k: v for k, v in run.config.items() if k in known} | {"arms": tuple(run.config["arms"])})
        run_id = resume
    else:
        run_id = store.create_run(KIND, asdict(config))
    planner_model = planner or open_model(config.planner)
    executor_model = executor or (planner_model if config.executor == config.planner else open_model(config.executor))
    context = LabContext(open_suite(config.suite), planner_model, executor_model,
                         open_router(config.router, planner_model), config)
    tasks = context.suite.tasks(config.limit, config.offset)
    done = store.done_keys(run_id)
    units = [(task, arm) for task in tasks for arm in config.arms if unit_key(task, arm) not in done]
    with Progress(transient=True) as progress:
        bar = progress.add_task(f"delegation lab ({config.suite})", total=len(units))
        for task, arm in units:
            store.record(run_id, unit_key(task, arm), run_unit(context, task, arm))
            progress.advance(bar)
    store.finish(run_id)
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
            text = tfidf_reencode(text) if arm == "tfidf" else text
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


__all__ = ["ARMS", "KIND", "LabConfig", "run_lab", "run_unit", "summarize"]
