"""Counterfactual label sets from real environments' gold trajectories, for ``relaykit trajectory train``."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from relaykit.bench.trajectory.envs import Episode, episode_messages, open_env
from relaykit.models.base import Model
from relaykit.trajectory.labels import GroundedPolicy, context_words, label_prefix
from relaykit.trajectory.train import LabelledSet


@dataclass(frozen=True)
class LabelPlan:
    """How labels are made: which envs, how many episodes and prefixes, which policy."""

    envs: tuple[str, ...] = ("twx", "scienceworld", "bfcl")
    episodes: int = 8
    prefixes: int = 4
    min_past: int = 3
    seed: int = 0
    policy: str = "grounded"  # "grounded" (scripted oracle) or a model spec whose log-probs grade the steps
    threshold: float = 0.5  # nats: a log-prob drop above this labels the step as needed


def prefix_points(n_steps: int, min_past: int, count: int) -> list[int]:
    """Up to ``count`` prefix lengths, evenly spread, each leaving ``min_past`` past steps and a next action."""
    first, last = min_past + 1, n_steps - 1
    if last < first:
        return []
    if last - first + 1 <= count:
        return list(range(first, last + 1))
    step = (last - first) / max(1, count - 1)
    return sorted({round(first + k * step) for k in range(count)})


def gold_episodes(plan: LabelPlan) -> Iterator[Episode]:
    for env in plan.envs:
        yield from open_env(env).episodes(plan.episodes, plan.seed)


def label_episode(episode: Episode, plan: LabelPlan, model: Model | None) -> list[tuple[object, Sequence[int], str]]:
    rows: list[tuple[object, Sequence[int], str]] = []
    group = f"{episode.env}/{episode.episode_id}"
    for t in prefix_points(len(episode.steps), plan.min_past, plan.prefixes):
        messages = episode_messages(episode, t)
        gold = episode.steps[t].action
        if model is None:
            policy = GroundedPolicy(gold, context_words(messages))
            labels = label_prefix(messages, policy)
            rows.append((labels.features, labels.changed, group))
        else:
            labels = label_prefix(messages, gold=gold, scorer_model=model)
            rows.append((labels.features, [int(d > plan.threshold) for d in labels.logprob_drop], group))
    return rows


def collect(plan: LabelPlan, model: Model | None, on_episode: Callable[[Episode], None] | None = None,
            ) -> tuple[LabelledSet, int]:
    """All labels of the plan (and how many episodes they came from)."""
    parts: list[tuple[object, Sequence[int], str]] = []
    count = 0
    for episode in gold_episodes(plan):
        parts += label_episode(episode, plan, model)
        count += 1
        if on_episode is not None:
            on_episode(episode)
    return LabelledSet.stack(parts), count  # type: ignore[arg-type]


__all__ = ["LabelPlan", "collect", "gold_episodes", "prefix_points"]
