"""Compression methods behind one signature, found through a registry.

A method takes a parsed :class:`Trajectory` and :class:`TrajectorySettings` and returns a
:class:`Plan`: the compressed trajectory plus what the accounting and the budget need. Step-level
methods only keep, mask (action kept, observation replaced by a placeholder with a digest) or remove
whole steps, so the tool call / tool result pairing survives by construction. The token-level Selective
Context baseline prunes words inside message contents but never touches roles, tool calls or call ids.

With a budget, a method proposes (its floor, the order its other steps matter) and
:func:`relaykit.trajectory.budget.fit` enforces the ceiling, the same way for every method.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace

from relaykit.errors import UsageError
from relaykit.registry import Registry
from relaykit.trajectory.floor import floor_steps
from relaykit.trajectory.parse import Trajectory
from relaykit.trajectory.plan import Cost, Dropped, Masker, Plan, TrajectorySettings
from relaykit.trajectory.scorer import RecencyScorer, checked_scores, default_scorer
from relaykit.trajectory.selective import prune_message

Method = Callable[[Trajectory, TrajectorySettings], Plan]


def _check_method(item: object) -> Method:
    if not callable(item):
        raise UsageError(f"a trajectory method is a function (trajectory, settings) -> Plan, not {item!r}")
    return item  # type: ignore[return-value]


METHODS: Registry[Method] = Registry("trajectory method", "relaykit.trajectory", check=_check_method)
"""Every trajectory method by name; plugins register through the entry-point group ``relaykit.trajectory``."""


def register_method(name: str, method: Method) -> Method:
    """Make ``compress_trajectory(method=name)`` (and the CLI and lab) use ``method``."""
    return METHODS.register(name, method)


def get_method(method: str | Method) -> Method:
    """A registered method by name, or ``method`` itself when it is already a method function."""
    if isinstance(method, str):
        return METHODS.get(method)
    return _check_method(method)


def method_name(method: str | Method) -> str:
    if isinstance(method, str):
        return method
    return str(getattr(method, "name", None) or getattr(method, "__name__", type(method).__name__))


def select(t: Trajectory, priority: Sequence[int], floor: frozenset[int], s: TrajectorySettings,
           count: int) -> Trajectory:
    """Keep ``floor`` plus the first ``count`` of ``priority``; mask (placeholder modes) or drop the rest."""
    rest = [i for i in priority if i not in floor]
    keep = set(floor) | set(rest[:count])
    if s.dropped == "remove":
        steps = [step for step in t.past if step.index in keep]
    else:
        masker = Masker(t, s)
        steps = [step if step.index in keep else masker.mask(step) for step in t.past]
    return t.with_steps([*steps, *t.steps[-1:]])


def _keep_count(s: TrajectorySettings, candidates: int) -> int:
    return math.floor(s.keep * candidates + 0.5)


def _newest_first(t: Trajectory) -> tuple[int, ...]:
    return tuple(step.index for step in reversed(t.past))


def recency_blend(order: Sequence[int], weight: float) -> tuple[int, ...]:
    """``order`` (past-step indices, best first) re-ranked by rank + ``weight`` x age (steps back from the newest
    past step); ties: the newer first."""
    n = len(order)
    rank = {i: k for k, i in enumerate(order)}
    return tuple(sorted(order, key=lambda i: (rank[i] + weight * (n - 1 - i), -i)))


def agora(t: Trajectory, s: TrajectorySettings) -> Plan:
    """The floor, then the highest-scored remaining steps (``keep`` of them, or what fits the budget: there the
    scorer's rank is blended with recency, :func:`recency_blend`)."""
    if not t.past:
        return Plan(t)
    scores = checked_scores(s.scorer or default_scorer(), t)
    floor = floor_steps(scores, s.k_recent, s.theta_hi)
    order = tuple(sorted(range(len(scores)), key=lambda i: (-scores[i], -i)))
    if s.budget is not None:
        return Plan(t, floor, tuple(scores), priority=recency_blend(order, s.recency_prior))
    kept = select(t, order, floor, s, _keep_count(s, len(scores) - len(floor)))
    return Plan(kept, floor, tuple(scores), priority=order)


def floor_k(t: Trajectory, s: TrajectorySettings) -> Plan:
    """Floor-K: system, task, current step and the last ``k_recent`` steps; nothing else."""
    floor = floor_steps([0.0] * len(t.past), s.k_recent, math.inf)
    kept = select(t, _newest_first(t), floor, s, 0)
    return Plan(kept, floor, (), priority=_newest_first(t))


def truncate(t: Trajectory, s: TrajectorySettings) -> Plan:
    """Truncate-N: the newest whole steps that fit in N tokens (``budget`` or ``truncate_tokens``)."""
    scores = tuple(RecencyScorer().score(t))
    if s.budget is not None:
        return Plan(t, frozenset(), scores, priority=_newest_first(t), contiguous=True)
    cost = Cost(t.form, s.encoding)
    used, kept = cost.fixed(t), []
    for step in reversed(t.past):
        used += cost.step(step)
        if used > s.truncate_tokens:
            break
        kept.append(step)
    notices = ((f"truncate: the whole history fits in truncate_tokens={s.truncate_tokens}, so nothing was cut; "
                "give a budget (e.g. '30%') to make it smaller"),) if len(kept) == len(t.past) else ()
    return Plan(t.with_steps([*reversed(kept), *t.steps[-1:]]), frozenset(), scores, notices=notices)


def recency(t: Trajectory, s: TrajectorySettings) -> Plan:
    """Recency window: system, task and the newest steps (``keep`` of them, or what fits the budget)."""
    newest = _newest_first(t)
    if s.budget is not None:
        return Plan(t, frozenset(), (), priority=newest, contiguous=True)
    return Plan(select(t, newest, frozenset(), s, _keep_count(s, len(newest))), priority=newest)


def head_tail(t: Trajectory, s: TrajectorySettings) -> Plan:
    """Head and tail: the first ``head_steps`` steps and the newest ones (as AutoGen's HeadAndTail context)."""
    head = tuple(step.index for step in t.past[:s.head_steps])
    order = (*head, *(i for i in _newest_first(t) if i not in head))
    if s.budget is not None:
        return Plan(t, frozenset(), (), priority=order)
    return Plan(select(t, order, frozenset(), s, _keep_count(s, len(order))), priority=order)


def observation_masking(t: Trajectory, s: TrajectorySettings) -> Plan:
    """Keep every action; replace the observations older than the last ``mask_window`` steps by a placeholder."""
    cutoff = len(t.steps) - s.mask_window
    masker = Masker(t, s)
    steps = [masker.mask(step) if step.index < cutoff else step for step in t.steps]
    floor = floor_steps([0.0] * len(t.past), s.k_recent, math.inf)
    return Plan(t.with_steps(steps), floor, priority=_newest_first(t), mask_rest=True)


def no_compression(t: Trajectory, s: TrajectorySettings) -> Plan:
    return Plan(t, priority=_newest_first(t), contiguous=True)


def selective_context(t: Trajectory, s: TrajectorySettings) -> Plan:
    """Token-level baseline: drop the lowest self-information tokens of the task and step contents."""
    if s.token_info is None:
        from relaykit.trajectory.selective import model_token_info

        info = model_token_info()
    else:
        info = s.token_info
    task = tuple(prune_message(m, info, s.keep) for m in t.task)
    steps = [replace(step, action=prune_message(step.action, info, s.keep),
                     observation=tuple(prune_message(m, info, s.keep) for m in step.observation))
             for step in t.steps]
    floor = floor_steps([0.0] * len(t.past), s.k_recent, math.inf)
    return Plan(replace(t, task=task, steps=tuple(steps)), floor, priority=_newest_first(t))


for _name, _method in (("agora", agora), ("none", no_compression), ("truncate", truncate), ("floor", floor_k),
                       ("obs-mask", observation_masking), ("selective-context", selective_context),
                       ("recency", recency), ("head-tail", head_tail)):
    register_method(_name, _method)

__all__ = ["METHODS", "Dropped", "Method", "Plan", "TrajectorySettings", "get_method", "method_name",
           "recency_blend", "register_method", "select"]
