"""``compress_trajectory``: parse, compress with a method, keep the budget, render, check, and account for it."""

from __future__ import annotations

import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from relaykit import tokens
from relaykit.accounting import Accounting, Usage
from relaykit.errors import UsageError
from relaykit.trajectory.budget import BudgetTooSmall, fit, resolve_budget
from relaykit.trajectory.digest import forget_long_texts
from relaykit.trajectory.methods import Method, get_method, method_name
from relaykit.trajectory.parse import Msg, Trajectory, parse, render, render_messages
from relaykit.trajectory.plan import Cost, Masker, Plan, TrajectorySettings
from relaykit.trajectory.recall import ReferenceStore, SQLiteReferenceStore, handle_for, put_all
from relaykit.trajectory.validate import Violation, validate


@dataclass(frozen=True)
class CompressedTrajectory:
    """The compressed trajectory in its input form (message list or ReAct text), with its accounting.

    ``accounting`` is relaykit's one :class:`~relaykit.accounting.Accounting` (units are past-step indices;
    ``ratio`` = tokens_out / tokens_in). Trajectory-specific facts live here: the floor, the scores, the
    structural ``violations`` of the output (always empty for chat input) and, with
    ``dropped="reference"``, the handle of every elided step.
    """

    messages: list[Msg] | str
    accounting: Accounting
    trajectory: Trajectory
    floor_steps: tuple[int, ...] = ()
    scores: tuple[float, ...] = ()
    violations: tuple[str, ...] = ()
    references: dict[str, int] = field(default_factory=dict)

    @property
    def valid(self) -> bool:
        return not self.violations

    def to_dict(self) -> dict[str, Any]:
        return {"messages": self.messages, "accounting": self.accounting.to_dict(), "valid": self.valid,
                "violations": list(self.violations), "floor_steps": list(self.floor_steps),
                "scores": list(self.scores), "references": dict(self.references)}


def check_input(messages: Sequence[Mapping[str, Any]]) -> list[Violation]:
    violations = validate(messages)
    if violations:
        listed = "; ".join(str(v) for v in violations)
        raise UsageError(f"the message list is already invalid ({len(violations)} violation(s)): {listed}. "
                         "relaykit never repairs input silently; fix these messages first")
    return violations


def compress_trajectory(
    messages: Sequence[Mapping[str, Any]] | str,
    method: str | Method = "agora",
    keep: float = 0.3,
    *,
    budget: int | str | None = None,
    settings: TrajectorySettings | None = None,
    **options: Any,
) -> CompressedTrajectory:
    """Compress an agent trajectory (chat message list or ReAct transcript) with ``method`` (a name or a
    method function).

    ``keep`` is the share of past steps beyond the always-kept floor that survive. ``budget`` (``1200``
    tokens, or ``"30%"`` of the input) is a hard ceiling instead: the output fits it, or
    :class:`~relaykit.trajectory.budget.BudgetTooSmall` (a ``UsageError``) states the minimum. Other options
    are :class:`TrajectorySettings` fields (``dropped="placeholder"|"reference"``, ``k_recent``,
    ``digest_tokens``, ``scorer``, ``store``, ...). Invalid input raises ``UsageError``.
    """
    started = time.perf_counter()
    try:
        s = settings or TrajectorySettings(keep=keep, budget=budget, **options)
    except TypeError as exc:
        raise UsageError(f"unknown option for compress_trajectory: {exc}") from None
    try:
        return _compress(messages, method, s, started)
    finally:
        forget_long_texts()  # a long observation's scan is shared within the call, never kept alive after it


def _compress(messages: Sequence[Mapping[str, Any]] | str, method: str | Method, s: TrajectorySettings,
              started: float) -> CompressedTrajectory:
    fn, name = get_method(method), method_name(method)
    if not isinstance(messages, str):
        check_input(messages)
    trajectory = parse(messages)
    if isinstance(messages, str) and not trajectory.steps:
        warnings.warn("no Thought/Action/Observation steps recognised in the transcript; returned unchanged",
                      stacklevel=2)
    cost = Cost("chat", s.encoding)  # one per call: the input's messages are counted once, kept ones reused
    tokens_in = _tokens(trajectory, cost)
    limit = resolve_budget(s.budget, tokens_in)
    s = replace(s, budget=limit)
    if limit is not None:
        plan = _planned(fn, trajectory, s, limit, cost)
    else:
        plan = fn(trajectory, s) if trajectory.steps else Plan(trajectory)
    return _finish(name, trajectory, plan, s, tokens_in, time.perf_counter() - started, cost)


def _planned(fn: Method, trajectory: Trajectory, s: TrajectorySettings, budget: int, cost: Cost) -> Plan:
    """The method's plan fitted to ``budget``, or ``BudgetTooSmall`` with the least budget that was tried and fits.
    The packer's minimum is an estimate of the exact count (a message's framing, ReAct text counted whole) and a
    method plans for its budget, so candidates are planned and fitted anew: stepping up in growing steps from the
    estimate until one fits, then halving the gap down to the least that fits (never below the estimate)."""
    try:
        return _within(trajectory, fn, budget, s, cost)
    except BudgetTooSmall as exc:
        # the estimate never overstates (nothing below it fits): one check when it is right, the common case
        short, least = max(budget, exc.minimum - 1), max(exc.minimum, budget + 1)  # ``short`` does not fit

    def fits(candidate: int) -> bool:
        try:
            _within(trajectory, fn, candidate, replace(s, budget=candidate), cost)
        except BudgetTooSmall:
            return False
        return True

    step = 1
    while not fits(least):
        short, least, step = least, least + step, step * 2
        if step > 1 << 20:  # pragma: no cover - every method fits some budget: the input's own size
            raise BudgetTooSmall(budget, least)
    while least - short > 1:
        middle = (short + least) // 2
        short, least = (short, middle) if fits(middle) else (middle, least)
    raise BudgetTooSmall(budget, least)


def _within(original: Trajectory, fn: Method, budget: int, s: TrajectorySettings, cost: Cost) -> Plan:
    """The plan fitted to the budget; ReAct text is counted whole, so tighten until the exact count fits."""
    plan = fn(original, s) if original.steps else Plan(original)
    masker = Masker(original, s)
    target = budget
    for _ in range(8):
        try:
            fitted = fit(plan, target, s, masker)
        except BudgetTooSmall as exc:
            raise BudgetTooSmall(budget, exc.minimum + (budget - target)) from None
        used = _tokens(fitted.trajectory, cost)
        if used <= budget:
            return fitted
        target -= used - budget
    raise BudgetTooSmall(budget, budget + 1)  # pragma: no cover - the count converges within a few rounds


def _finish(name: str, original: Trajectory, plan: Plan, s: TrajectorySettings, tokens_in: int,
            seconds: float, cost: Cost) -> CompressedTrajectory:
    out = plan.trajectory
    present = {step.index: step for step in out.steps[:-1]}
    past = [step.index for step in original.past]
    tokens_out = _tokens(out, cost)
    violations = () if original.form == "react" else tuple(str(v) for v in validate(render_messages(out)))
    dropped = tuple(i for i in past if i not in present)
    masked = tuple(i for i in past if i in present and present[i].masked)
    notices = list(plan.notices)
    budget = s.token_budget
    if budget is not None and tokens_out > budget:  # never silently: fit() makes this unreachable
        notices.append(f"over the budget of {budget} tokens by {tokens_out - budget}")
    references = _store_references(original, dropped + masked, s)
    accounting = Accounting(
        tokens_in=tokens_in, tokens_out=tokens_out, method=name, encoding=s.encoding, budget=budget,
        kept=tuple(i for i in past if i in present and not present[i].masked), dropped=dropped, masked=masked,
        notices=(*notices, *violations), usage=Usage(seconds=round(seconds, 6)))
    return CompressedTrajectory(render(out), accounting, out, tuple(sorted(plan.floor)),
                                tuple(round(x, 4) for x in plan.scores), violations, references)


def _store_references(original: Trajectory, elided: Sequence[int], s: TrajectorySettings) -> dict[str, int]:
    if s.dropped != "reference" or not elided:
        return {}
    store: ReferenceStore = s.store if s.store is not None else SQLiteReferenceStore()
    references, items = {}, []
    for i in sorted(elided):
        step = original.steps[i]
        handle = handle_for(step.messages)
        items.append((handle, step.messages))
        references[handle] = i
    put_all(store, items)
    return references


def _tokens(t: Trajectory, cost: Cost) -> int:
    """The accounting's count: ``tokens.count_messages`` of the rendered list (its per-message sum over the
    messages it copies, memoised per message in ``cost``, a chat :class:`Cost`), or ``tokens.count`` of the
    rendered ReAct text."""
    if t.form == "react":
        return tokens.count(str(render(t)), cost.encoding)
    return cost.base + cost.messages((*t.system, *t.task, *(m for step in t.steps for m in step.messages), *t.pending))


__all__ = ["CompressedTrajectory", "compress_trajectory"]
