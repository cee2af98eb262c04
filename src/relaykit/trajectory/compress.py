"""``compress_trajectory``: parse, compress with a method, render, check, and account for it."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from relaykit import tokens
from relaykit.errors import UsageError
from relaykit.trajectory.methods import Plan, TrajectorySettings, get_method
from relaykit.trajectory.parse import Msg, Trajectory, parse, render, render_messages
from relaykit.trajectory.validate import Violation, validate


@dataclass(frozen=True)
class TrajectoryAccounting:
    """What a compression did: tokens in and out, which past steps were kept, masked or dropped."""

    method: str
    tokens_in: int
    tokens_out: int
    kept_steps: tuple[int, ...]
    dropped_steps: tuple[int, ...]
    masked_steps: tuple[int, ...] = ()
    floor_steps: tuple[int, ...] = ()
    scores: tuple[float, ...] = ()
    over_budget: bool = False
    violations: tuple[str, ...] = field(default=())

    @property
    def ratio(self) -> float:
        """Compression ratio, tokens in / tokens out (1.0 = unchanged)."""
        return self.tokens_in / self.tokens_out if self.tokens_out else 1.0

    @property
    def valid(self) -> bool:
        return not self.violations

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "ratio": round(self.ratio, 4), "valid": self.valid}


@dataclass(frozen=True)
class CompressedTrajectory:
    """The compressed trajectory in its input form (message list or ReAct text), with its accounting."""

    messages: list[Msg] | str
    accounting: TrajectoryAccounting
    trajectory: Trajectory


def check_input(messages: Sequence[Mapping[str, Any]]) -> list[Violation]:
    violations = validate(messages)
    if violations:
        listed = "; ".join(str(v) for v in violations)
        raise UsageError(f"the message list is already invalid ({len(violations)} violation(s)): {listed}. "
                         "relaykit never repairs input silently; fix these messages first")
    return violations


def compress_trajectory(
    messages: Sequence[Mapping[str, Any]] | str,
    method: str = "agora",
    keep: float = 0.3,
    *,
    settings: TrajectorySettings | None = None,
    **options: Any,
) -> CompressedTrajectory:
    """Compress an agent trajectory (chat message list or ReAct transcript) with ``method``.

    ``keep`` is the share of past steps beyond the always-kept floor that survive (``budget=N`` makes
    it a token ceiling instead). Other options are :class:`TrajectorySettings` fields (``dropped=
    "placeholder"``, ``k_recent``, ``theta_hi``, ``scorer``, ...). Invalid input raises ``UsageError``.
    """
    try:
        s = settings or TrajectorySettings(keep=keep, **options)
    except TypeError as exc:
        raise UsageError(f"unknown option for compress_trajectory: {exc}") from None
    fn = get_method(method)
    if not isinstance(messages, str):
        check_input(messages)
    trajectory = parse(messages)
    if isinstance(messages, str) and not trajectory.steps:
        warnings.warn("no Thought/Action/Observation steps recognised in the transcript; returned unchanged",
                      stacklevel=2)
    plan = fn(trajectory, s) if trajectory.steps else Plan(trajectory)
    return _finish(method, trajectory, plan, s)


def _finish(method: str, original: Trajectory, plan: Plan, s: TrajectorySettings) -> CompressedTrajectory:
    out = plan.trajectory
    rendered = render(out)
    before, after = render_messages(original), render_messages(out)
    present = {step.index: step for step in out.steps[:-1]}
    past = [step.index for step in original.past]
    tokens_out = _tokens(out, after, s.encoding)
    violations = () if original.form == "react" else tuple(str(v) for v in validate(after))
    accounting = TrajectoryAccounting(
        method=method,
        tokens_in=_tokens(original, before, s.encoding),
        tokens_out=tokens_out,
        kept_steps=tuple(i for i in past if i in present and not present[i].masked),
        dropped_steps=tuple(i for i in past if i not in present),
        masked_steps=tuple(i for i in past if i in present and present[i].masked),
        floor_steps=tuple(sorted(plan.floor)),
        scores=tuple(round(x, 4) for x in plan.scores),
        over_budget=plan.over_budget or (s.budget is not None and tokens_out > s.budget),
        violations=violations,
    )
    return CompressedTrajectory(rendered, accounting, out)


def _tokens(t: Trajectory, messages: list[Msg], encoding: str) -> int:
    if t.form == "react":
        return tokens.count(str(render(t)), encoding)
    return tokens.count_messages(messages, encoding)


__all__ = ["CompressedTrajectory", "TrajectoryAccounting", "compress_trajectory"]
