"""Where the missed entity words were: a diagnostic for tuning the budget, on dev environments only.

For every decision point (as :mod:`relaykit.bench.trajectory.decisions` defines it) and every entity word
of the gold action that the compressed history lost, it says where the word was in the input (the newest
place holding it: the current observation, a floor step, another past step) and what the budget did to
that step (kept, masked, dropped; the current observation: shortened), and whether the floor fitted
(stage 1) or had to degrade (stages 2-4). The biggest bucket is the one to fix first.

    PYTHONPATH=src python -m relaykit.bench.trajectory.decisions_misses --env twx,tau2-retail --budget 30%

Run it on dev environments: reading held-out misses one by one is tuning on them.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Iterable, Sequence

from relaykit.bench.trajectory.decisions import CEILING, VARIANTS, DecisionConfig, check_methods, entities
from relaykit.bench.trajectory.envs import Episode, history_before, open_env
from relaykit.errors import UsageError
from relaykit.trajectory import BudgetTooSmall, compress_trajectory, parse
from relaykit.trajectory.budget import minimum_budget
from relaykit.trajectory.features import words
from relaykit.trajectory.labels import context_words
from relaykit.trajectory.parse import Msg

Bucket = tuple[str, str, str]
"""(stage 1 | degraded, where the word was, what happened to it)."""


def misses(messages: list[Msg], target: frozenset[str], label: str, budget: str) -> list[Bucket]:
    """One bucket per word of ``target`` that ``label`` at ``budget`` lost ([] when infeasible)."""
    method, options = VARIANTS.get(label, (label, {}))
    t = parse(messages)
    try:
        out = compress_trajectory(messages, method=method, budget=budget, **options)
    except BudgetTooSmall:
        return []
    if out.accounting.budget is not None and out.accounting.budget < minimum_budget(t):
        return []
    result = out.messages if isinstance(out.messages, list) else []
    lost = target - context_words(result)
    acc = out.accounting
    path = "degraded" if any(n.startswith("the floor (") for n in acc.notices) else "stage 1"
    floor = set(out.floor_steps)
    buckets = []
    for word in sorted(lost):
        if t.steps and word in words(t.steps[-1].observation_text):
            buckets.append((path, "current observation", "shortened"))
            continue
        holders = [s.index for s in t.past if word in words(f"{s.action_text}\n{s.observation_text}")]
        if not holders:
            buckets.append((path, "elsewhere", "lost"))
            continue
        i = max(holders)
        fate = "kept" if i in acc.kept else "masked" if i in acc.masked else "dropped"
        buckets.append((path, "floor step" if i in floor else "other step", fate))
    return buckets


def episode_misses(episode: Episode, label: str, budget: str, min_step: int = 3) -> Counter[Bucket]:
    table: Counter[Bucket] = Counter()
    for t in range(min_step, len(episode.steps)):
        messages = history_before(episode, t)
        table.update(misses(messages, entities(episode.steps[t]) & context_words(messages), label, budget))
    return table


def miss_table(envs: Iterable[str], label: str, budgets: Sequence[str], episodes: int, seed: int,
               min_step: int = 3) -> Counter[tuple[str, str, str, str, str]]:
    """(budget, environment, path, where, what happened) -> missed entity words."""
    check_methods([label])
    if label == CEILING:
        raise UsageError(f"{CEILING!r} is a bound, not a method: it loses nothing it could keep; name a method")
    table: Counter[tuple[str, str, str, str, str]] = Counter()
    for env in envs:
        for episode in open_env(env).episodes(episodes, seed):
            for budget in budgets:
                for bucket, n in episode_misses(episode, label, budget, min_step).items():
                    table[(budget, env, *bucket)] += n
    return table


def main(argv: Sequence[str] | None = None) -> None:
    cfg = DecisionConfig(envs=())
    parser = argparse.ArgumentParser(description="Where the entity words a method lost were (dev environments).")
    parser.add_argument("--env", default=",".join(cfg.dev_envs))
    parser.add_argument("--method", default="agora")
    parser.add_argument("--budget", default="30%,50%")
    parser.add_argument("--episodes", type=int, default=cfg.episodes)
    parser.add_argument("--seed", type=int, default=cfg.seed)
    args = parser.parse_args(argv)
    table = miss_table(args.env.split(","), args.method, args.budget.split(","), args.episodes, args.seed)
    for key, n in table.most_common():
        print(f"{n:4d}  " + " | ".join(key))


if __name__ == "__main__":
    main()


__all__ = ["Bucket", "episode_misses", "main", "miss_table", "misses"]
