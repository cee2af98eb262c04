"""Decision-point evaluation: every method at a token budget, before every gold action t >= 3.

For each episode and each gold step t >= ``min_step``, the history before t (system, task, steps 0..t-1, the
last of which holds the current observation, and the request of the user's turn that action t opens, if it opens
one: :func:`relaykit.bench.trajectory.envs.history_before`) is compressed to each budget (a share of its tokens), and we
record: validity; whether the output is within the budget; whether the floor survived (system and task
unchanged, the current action present); and grounding recall, the share of the entities action t names
(:func:`entities`) that the history mentioned and the compressed history still holds (0 when invalid or
over budget: strict). The lab's stricter all-words recall (verbs, function and parameter names too) is
recorded next to it.

A case is *feasible* when the budget holds system + task + the current step with its observation cut to a
marker, a user's request after its tool results whole (:func:`relaykit.trajectory.budget.minimum_budget`); on the
others a method must raise
``BudgetTooSmall`` with that minimum. The two are reported apart.

It runs on the one lab runner (:mod:`relaykit.bench.lab`: resume, run lock, progress). Method labels may
name a registered method or one of :data:`VARIANTS` (settings fixed for an ablation).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from relaykit.bench.lab import ProgressSink, RunContext, Runner, Unit, open_run
from relaykit.bench.store import RunInfo, RunStore
from relaykit.bench.trajectory.envs import Episode, GoldStep, history_before, open_env, pinned_episodes
from relaykit.errors import UsageError
from relaykit.tokens import count
from relaykit.trajectory import METHODS, BudgetTooSmall, compress_trajectory, parse, resolve_budget
from relaykit.trajectory.budget import minimum_budget, minimum_history
from relaykit.trajectory.facts import argument_values
from relaykit.trajectory.features import words
from relaykit.trajectory.labels import context_words
from relaykit.trajectory.parse import Msg, Trajectory, render_messages

KIND = "trajectory-decisions"

VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "agora": ("agora", {"dropped": "placeholder"}),  # scorer + masks with a digest + the facts block
    "agora-no-block": ("agora", {"dropped": "placeholder", "facts_share": 0.0}),  # ablation: per-step digests only
    "agora-block-only": ("agora", {"dropped": "placeholder", "digest_tokens": 0}),  # ablation: the block only
    "agora-plain-mask": ("agora", {"dropped": "placeholder", "digest_tokens": 0, "facts_share": 0.0}),  # no facts
    "agora-remove": ("agora", {"dropped": "remove"}),  # ablation: no masks at all
    "agora-no-prior": ("agora", {"dropped": "placeholder", "recency_prior": 0.0}),  # ablation: the scorer's order alone
    "recency-digest": ("recency", {"dropped": "placeholder"}),  # ablation: digests without the scorer
    "floor-digest": ("floor", {"dropped": "placeholder"}),  # ablation: the floor with digests, no scorer
    "obs-mask": ("obs-mask", {"dropped": "placeholder"}),
    "recency": ("recency", {"dropped": "remove"}),  # baseline: system + task + newest steps that fit
    "head-tail": ("head-tail", {"dropped": "remove"}),  # baseline: first step + newest steps that fit
}
CEILING = "ceiling"
"""Not a method: an optimistic bound on what any method could keep at each budget (see :func:`ceiling`)."""
DEFAULT_METHODS = ("agora", "agora-no-block", "agora-block-only", "agora-plain-mask", "agora-remove", "agora-no-prior",
                   "recency-digest", "floor-digest", "floor", "truncate", "obs-mask", "recency", "head-tail", CEILING)


@dataclass(frozen=True)
class DecisionConfig:
    envs: tuple[str, ...]
    methods: tuple[str, ...] = DEFAULT_METHODS
    budgets: tuple[str, ...] = ("30%", "50%")
    episodes: int = 5
    seed: int = 105  # unseen by the shipped scorer's training episodes in every default environment
    min_step: int = 3
    # where the digest and degrade rules were tuned; every other environment is held out
    dev_envs: tuple[str, ...] = ("twx", "twx-rooms", "textworld", "tau2-retail", "tau2-airline", "scienceworld-dev",
                                 "bfcl-dev")


def check_methods(methods: Sequence[str]) -> None:
    unknown = [m for m in methods if m not in VARIANTS and m not in METHODS and m != CEILING]
    if unknown or not methods:
        known = sorted({*VARIANTS, *METHODS.names(), CEILING})
        raise UsageError(f"unknown method(s) {unknown or list(methods)}; use: {', '.join(known)}")


def case(messages: list[Msg], target: frozenset[str], label: str, budget: str) -> dict[str, Any]:
    """One decision point, one method, one budget."""
    method, options = VARIANTS.get(label, (label, {}))
    trajectory = parse(messages)
    minimum = minimum_budget(trajectory)
    tokens_in = compress_trajectory(messages, method="none").accounting.tokens_in
    limit = resolve_budget(budget, tokens_in)
    assert limit is not None
    row: dict[str, Any] = {"budget_tokens": limit, "tokens_in": tokens_in, "minimum": minimum,
                           "feasible": limit >= minimum, "needed": len(target)}
    if label == CEILING:
        return {**row, **ceiling(trajectory, target, limit, minimum)}
    try:
        out = compress_trajectory(messages, method=method, budget=budget, **options)
    except BudgetTooSmall as exc:
        return {**row, "error": "BudgetTooSmall", "stated_minimum": exc.minimum, "valid": True, "within": False,
                "floor_kept": False, "hits": 0, "tokens_out": 0, "kept_words": frozenset()}
    acc = out.accounting
    result = out.messages if isinstance(out.messages, list) else []
    valid, within = out.valid, acc.tokens_out <= limit
    current = trajectory.steps[-1].action if trajectory.steps else None
    floor_kept = result[:len(trajectory.system) + len(trajectory.task)] == messages[
        :len(trajectory.system) + len(trajectory.task)] and (current is None or current in result)
    kept = context_words(result) if valid and within else frozenset()
    return {**row, "error": None, "valid": valid, "within": within, "floor_kept": floor_kept,
            "hits": len(target & kept), "tokens_out": acc.tokens_out, "kept_words": kept}


def entities(step: GoldStep) -> frozenset[str]:
    """The words of what an action names: a tool call's argument values (not the function or parameter
    names), or a text command without its verb ("take purple potato" -> purple, potato)."""
    if step.call is not None:
        return words(" ".join(argument_values(step.call.get("arguments"))))
    parts = step.action.split(maxsplit=1)
    return words(parts[1]) if len(parts) > 1 else frozenset()


def episode_cases(episode: Episode, label: str, budget: str, min_step: int) -> list[dict[str, Any]]:
    out = []
    for t in range(min_step, len(episode.steps)):
        messages = history_before(episode, t)
        mentioned = context_words(messages)
        row = case(messages, entities(episode.steps[t]) & mentioned, label, budget)
        # the lab's stricter notion: every word (the ceiling bounds entity words only: no all-words figure)
        everything = words(episode.steps[t].action) & mentioned if label != CEILING else frozenset()
        kept = row.pop("kept_words")
        out.append({"t": t, **row, "word_hits": len(everything & kept), "word_needed": len(everything)})
    return out


def ceiling(trajectory: Trajectory, target: frozenset[str], limit: int, minimum: int) -> dict[str, Any]:
    """The ``case`` fields of an optimistic bound: the history every output must hold (system, task, pending
    turn, the current step with its observation cut to the bare marker: ``minimum`` tokens) keeps its words for
    free, and the budget's remaining ``limit - minimum`` tokens take the other target words, cheapest first,
    each at the tokens of the word alone (lower-cased, after a space: an approximation, as a word can tokenize
    differently in its own text). It leaves out what any real container of those words costs (a marker,
    separators, the rest of a sentence), so no method reaches it on every case: the gap between a method and
    this row is about the most that better choices could still win at that budget. It bounds entity recall only
    (the lab leaves its all-words recall empty)."""
    if limit < minimum:
        return {"error": "BudgetTooSmall", "stated_minimum": minimum, "valid": True, "within": False,
                "floor_kept": False, "hits": 0, "tokens_out": 0, "kept_words": frozenset()}
    held = context_words(render_messages(minimum_history(trajectory)))
    room, added = limit - minimum, set()
    for cost, word in sorted((count(f" {w}"), w) for w in target - held):
        if cost > room:
            break
        room -= cost
        added.add(word)
    return {"error": None, "valid": True, "within": True, "floor_kept": True, "hits": len(target & held) + len(added),
            "tokens_out": limit - room, "kept_words": held | added}


class DecisionLab:
    """Decision points on the one lab runner: a unit per (environment, episode, method, budget), grouped by
    episode; the episodes are generated once per lab (``units`` is asked twice by the runner)."""

    kind = KIND

    def __init__(self, cfg: DecisionConfig) -> None:
        check_methods(cfg.methods)
        for budget in cfg.budgets:
            resolve_budget(budget, 100)  # a bad budget fails before any environment starts
        self.cfg = cfg
        self._units: list[Unit] | None = None
        self._run: tuple[RunStore, str] | None = None

    def pin(self, store: RunStore, run_id: str) -> None:
        """Read the run's episodes from ``store`` (stored there the first time they are generated), so that a resumed
        run scores the same gold paths as the units it already holds: TextWorld-Express and ScienceWorld do not
        regenerate the same gold path for a seed from one process to the next."""
        self._run = (store, run_id)

    def stored_config(self) -> dict[str, Any]:
        return asdict(self.cfg)

    def model_specs(self) -> list[str]:
        return []

    def units(self) -> list[Unit]:
        if self._units is None:
            cfg = self.cfg
            self._units = [
                Unit(f"{env}/{episode.episode_id}/{label}/{budget}", group=f"{env}/{episode.episode_id}",
                     tags={"method": label, "budget": budget}, data=(env, episode, label, budget))
                for env, episode in self._episodes()
                for label in cfg.methods for budget in cfg.budgets]
        return self._units

    def _episodes(self) -> list[tuple[str, Episode]]:
        cfg = self.cfg

        def generate() -> list[tuple[str, Episode]]:
            return [(env, episode) for env in cfg.envs for episode in open_env(env).episodes(cfg.episodes, cfg.seed)]

        return pinned_episodes(self._run, generate)

    def run_unit(self, unit: Unit, ctx: RunContext) -> dict[str, Any]:
        env, episode, label, budget = unit.data
        split = "dev" if env in self.cfg.dev_envs else "held-out"
        return {"env": env, "split": split, "episode": episode.episode_id, "method": label, "budget": budget,
                "cases": episode_cases(episode, label, budget, self.cfg.min_step)}

    def summarize(self, store: RunStore, run: RunInfo) -> Any:
        from relaykit.bench.trajectory.decisions_report import summarize

        return summarize(store.results(run.run_id))


def run_decisions(cfg: DecisionConfig, store: RunStore, *, run_id: str | None = None,
                  progress: ProgressSink | None = None) -> str:
    """Run (or resume ``run_id``, using its stored settings) on the one lab runner; one stored unit per
    (environment, episode, method, budget)."""
    def make(stored: Mapping[str, Any] | None) -> DecisionLab:
        if stored is None:
            return DecisionLab(cfg)
        config: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in stored.items()}
        return DecisionLab(DecisionConfig(**config))

    lab, run_id = open_run(store, KIND, make, run_id)
    lab.pin(store, run_id)
    Runner(store, progress=progress).run(lab, run_id)
    return run_id


def units(cfg: DecisionConfig) -> int:
    return len(cfg.envs) * cfg.episodes * len(cfg.methods) * len(cfg.budgets)


__all__ = ["CEILING", "DEFAULT_METHODS", "KIND", "VARIANTS", "DecisionConfig", "DecisionLab", "case", "ceiling",
           "check_methods", "entities", "episode_cases", "run_decisions", "units"]
