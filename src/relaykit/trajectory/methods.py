"""Compression methods behind one signature, found through a registry.

A method takes a parsed :class:`Trajectory` and :class:`TrajectorySettings` and returns a
:class:`Plan`: the compressed trajectory plus what the accounting needs. Step-level methods only
keep, mask (action kept, observation replaced by a placeholder) or remove whole steps, so the tool
call / tool result pairing survives by construction. The token-level Selective Context baseline
prunes words inside message contents but never touches roles, tool calls or call ids.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from relaykit import tokens
from relaykit.errors import UsageError
from relaykit.trajectory.floor import floor_steps
from relaykit.trajectory.parse import PLACEHOLDER, Msg, Trajectory, mask_observation, render_messages
from relaykit.trajectory.scorer import RecencyScorer, Scorer, checked_scores, default_scorer
from relaykit.trajectory.selective import TokenInfo, prune_message

Dropped = Literal["remove", "placeholder"]


@dataclass(frozen=True)
class TrajectorySettings:
    """Every knob of trajectory compression, explicit and frozen."""

    keep: float = 0.3
    budget: int | None = None
    k_recent: int = 2
    theta_hi: float = 0.9
    dropped: Dropped = "remove"
    placeholder: str = PLACEHOLDER
    truncate_tokens: int = 2048
    mask_window: int = 10
    scorer: Scorer | None = None
    token_info: TokenInfo | None = field(default=None, compare=False)
    encoding: str = "o200k_base"

    def __post_init__(self) -> None:
        if not 0.0 <= self.keep <= 1.0:
            raise UsageError(f"keep must be a ratio between 0 and 1, not {self.keep}")
        if self.budget is not None and self.budget < 1:
            raise UsageError(f"budget must be a positive number of tokens, not {self.budget}")
        if self.k_recent < 0 or self.mask_window < 1 or self.truncate_tokens < 1:
            raise UsageError("k_recent must be >= 0, and mask_window and truncate_tokens >= 1")
        if self.dropped not in ("remove", "placeholder"):
            raise UsageError(f"dropped must be 'remove' or 'placeholder', not {self.dropped!r}")


@dataclass(frozen=True)
class Plan:
    trajectory: Trajectory
    floor: frozenset[int] = frozenset()
    scores: tuple[float, ...] = ()
    over_budget: bool = False


Method = Callable[[Trajectory, TrajectorySettings], Plan]
METHODS: dict[str, Method] = {}


def register_method(name: str, method: Method) -> None:
    """Make ``compress_trajectory(method=name)`` (and the CLI and lab) use ``method``."""
    METHODS[name] = method


def get_method(name: str) -> Method:
    if name not in METHODS:
        raise UsageError(f"unknown trajectory method {name!r}; use one of: {', '.join(METHODS)}")
    return METHODS[name]


def cost(messages: Sequence[Msg], encoding: str = "o200k_base") -> int:
    """Tokens the messages add to a request (per-message overhead included, reply primer not)."""
    return tokens.count_messages(messages, encoding) - tokens.TOKENS_REPLY_PRIMER if messages else 0


def _fixed_cost(t: Trajectory, encoding: str) -> int:
    current = t.steps[-1].messages if t.steps else ()
    return tokens.count_messages([*t.system, *t.task, *current, *t.pending], encoding)


def select(t: Trajectory, priority: Sequence[int], floor: frozenset[int], s: TrajectorySettings,
           count: int | None) -> tuple[Trajectory, bool]:
    """Keep ``floor`` plus the first ``count`` of ``priority`` (or what fits ``s.budget``); drop or mask the rest."""
    rest = [i for i in priority if i not in floor]
    if count is not None:
        keep, masked, over = set(floor) | set(rest[:count]), set(rest[count:]), False
    else:
        keep, masked, over = _fit_budget(t, rest, floor, s)
    if s.dropped == "remove":
        masked = set()
    steps = [step if step.index in keep else mask_observation(step, t.form, s.placeholder)
             for step in t.past if step.index in keep or step.index in masked]
    return t.with_steps([*steps, *t.steps[-1:]]), over


def _fit_budget(t: Trajectory, rest: Sequence[int], floor: frozenset[int],
                s: TrajectorySettings) -> tuple[set[int], set[int], bool]:
    assert s.budget is not None
    enc, budget = s.encoding, s.budget
    full = {step.index: cost(step.messages, enc) for step in t.past}
    small = ({step.index: cost(mask_observation(step, t.form, s.placeholder).messages, enc) for step in t.past}
             if s.dropped == "placeholder" else dict.fromkeys(full, 0))
    used = _fixed_cost(t, enc) + sum(full[i] for i in floor)
    masked = list(rest) if s.dropped == "placeholder" else []
    used += sum(small[i] for i in masked)
    while used > budget and masked:  # placeholders that do not fit go, lowest priority first
        used -= small[masked.pop()]
    keep = set(floor)
    for i in rest:
        extra = full[i] - (small[i] if i in masked else 0)
        if used + extra <= budget:
            keep.add(i)
            used += extra
    return keep, {i for i in masked if i not in keep}, used > budget


def _keep_count(s: TrajectorySettings, candidates: int) -> int | None:
    return None if s.budget is not None else math.floor(s.keep * candidates + 0.5)


def agora(t: Trajectory, s: TrajectorySettings) -> Plan:
    """The floor, then the highest-scored remaining steps (``keep`` of them, or what fits the budget)."""
    if not t.past:
        return Plan(t)
    scores = checked_scores(s.scorer or default_scorer(), t)
    floor = floor_steps(scores, s.k_recent, s.theta_hi)
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], -i))
    kept, over = select(t, order, floor, s, _keep_count(s, len(scores) - len(floor)))
    return Plan(kept, floor, tuple(scores), over)


def floor_k(t: Trajectory, s: TrajectorySettings) -> Plan:
    """Floor-K: system, task, current step and the last ``k_recent`` steps; nothing else."""
    floor = floor_steps([0.0] * len(t.past), s.k_recent, math.inf)
    kept, over = select(t, [step.index for step in t.past], floor, s, 0)
    if s.budget is not None:
        over = cost(render_messages(kept), s.encoding) > s.budget
    return Plan(kept, floor, (), over)


def truncate(t: Trajectory, s: TrajectorySettings) -> Plan:
    """Truncate-N: the newest steps that fit in N tokens (``budget`` or ``truncate_tokens``), whole steps only."""
    budget = s.budget if s.budget is not None else s.truncate_tokens
    newest_first = [step.index for step in reversed(t.past)]
    kept, over = select(t, newest_first, frozenset(), replace(s, budget=budget), None)
    return Plan(kept, frozenset(), tuple(RecencyScorer().score(t)), over)


def observation_masking(t: Trajectory, s: TrajectorySettings) -> Plan:
    """Keep every action; replace the observations older than the last ``mask_window`` steps by a placeholder."""
    cutoff = len(t.steps) - s.mask_window
    steps = [mask_observation(step, t.form, s.placeholder) if step.index < cutoff else step for step in t.steps]
    return Plan(t.with_steps(steps))


def no_compression(t: Trajectory, s: TrajectorySettings) -> Plan:
    return Plan(t)


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
    return Plan(replace(t, task=task, steps=tuple(steps)))


register_method("agora", agora)
register_method("none", no_compression)
register_method("truncate", truncate)
register_method("floor", floor_k)
register_method("obs-mask", observation_masking)
register_method("selective-context", selective_context)

__all__ = ["METHODS", "Dropped", "Method", "Plan", "TrajectorySettings", "cost", "get_method", "register_method"]
