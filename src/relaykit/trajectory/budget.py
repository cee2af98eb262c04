"""The token budget: a hard ceiling every trajectory method keeps, with one documented degrade order.

A method proposes a plan (what it keeps, its floor, the order its other steps matter). When the plan is
over the budget, :func:`fit` degrades it, each stage going only as far as needed:

1. **drop scored steps**: the floor stays; the method's other steps are packed best first (whole, then
   masked with a digest when the settings or the method mask), the rest are dropped;
2. **mask the observations of older floor steps**, oldest first (action kept, placeholder with a digest);
3. **lower K**: drop those masked floor steps, oldest first;
4. **shorten the current observation**: keep its first and last lines and the lines, sentences or JSON
   fields that carry the most facts (:mod:`relaykit.trajectory.shorten`), with a marker saying how many
   tokens were cut and the facts of the cut parts.

A user's request that follows the current step's tool results (a multi-turn user's new turn: what the next call
answers) is never cut; like the task and the pending turn it counts whole. When even system + task + pending turn +
the current step with its observation cut to the bare marker do not fit, :class:`BudgetTooSmall` says the minimum.
Costs are exact for chat lists (the count the accounting reports); ``compress_trajectory`` re-checks ReAct text,
counted whole, and tightens if needed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import replace

from relaykit import tokens
from relaykit.errors import UsageError
from relaykit.text import words
from relaykit.trajectory.facts import (
    ELIDED_WINDOW,
    FACTS_LABEL,
    MAX_BLOCK_TOKENS,
    MIN_BLOCK_TOKENS,
    block_slot,
    block_text,
    rank_items,
    with_block,
)
from relaykit.trajectory.facts import context_words as facts_context
from relaykit.trajectory.factwords import FactWords
from relaykit.trajectory.listing import LISTING_SHARES, take_listing
from relaykit.trajectory.parse import Msg, Step, Trajectory, step_request_flags
from relaykit.trajectory.plan import Cost, Masker, Plan, TrajectorySettings
from relaykit.trajectory.shorten import MARKER, marker, shorten

CURRENT_SHARES = (1.0, 0.75, 0.5, 0.25)
"""When the floor is over the budget, stages 2-4 run with the current observation keeping each of these shares
of the tokens left for it and the past steps (masked floor steps, with their digests, get the rest before it
is shortened further), and stage 3 drops floor steps oldest first or least important first (the method's
priority); the result that holds the most fact words wins (ties: the later one)."""
BREADTH_MAX_STEPS = 1000
"""Stage 1 tries the masked-first (breadth) packing, and the degrade its candidate with every floor step dropped for
the facts block, only up to this many past steps (each costs digests and counts of facts; on longer histories the
newest-first packing alone keeps the 3 s target)."""
BLOCK_SHARE_SLOPE = 3.0
BLOCK_SHARE_CAP = 2.0
BLOCK_SHARE_MAX = 0.75
"""How the facts block's share grows as the budget tightens (:func:`block_share`; tuned on the dev environments:
at 30% of the input it holds 0.4 of the room, 0.25 at half)."""
STAGE1_BLOCK_SHARES = (1.0, 2.0)
BLOCK_SHARE_TOP = 0.9
"""Stage 1 packs the room once for each of these multiples of the facts block's share (:func:`block_share`, never past
``BLOCK_SHARE_TOP`` of the room) and keeps the packing that holds the most fact words: what a block is worth beside
whole steps depends on how many new items the elided steps hold, which one fixed share cannot know (all dev sets
pooled, 30% 0.915 -> 0.926 and 50% 0.944 -> 0.953, 24 cases gained and 1 lost; a third multiple, 0.5x or 3x, adds
nothing). Like the other extra packings, only up to :data:`BREADTH_MAX_STEPS` past steps."""
_SHARE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*%\s*$")


class BudgetTooSmall(UsageError):
    """Not even the floor (system, task, current step with its observation cut to a marker) fits."""

    def __init__(self, budget: int, minimum: int) -> None:
        super().__init__(f"a budget of {budget} tokens is too small: system + task + the current step (its "
                         f"observation cut to a marker) need at least {minimum} tokens; give a budget of at "
                         f"least {minimum}, or use a keep ratio instead")
        self.budget = budget
        self.minimum = minimum


def resolve_budget(budget: int | str | None, tokens_in: int) -> int | None:
    """Tokens from ``1200``, ``"1200"`` or a share of the input such as ``"30%"`` (rounded down, at least 1)."""
    if budget is None:
        return None
    if isinstance(budget, bool) or not isinstance(budget, (int, str)):
        raise UsageError(f"budget must be a number of tokens (1200) or a share of the input ('30%'), not {budget!r}")
    if isinstance(budget, int):
        if budget < 1:
            raise UsageError(f"budget must be a positive number of tokens, not {budget}")
        return budget
    share = _SHARE.match(budget)
    if share:
        pct = float(share.group(1))
        if not 0 < pct <= 100:
            raise UsageError(f"a budget share must be above 0% and at most 100%, not {budget!r}")
        return max(1, math.floor(tokens_in * pct / 100))
    if budget.strip().isdigit():
        return resolve_budget(int(budget), tokens_in)
    raise UsageError(f"budget must be a number of tokens (1200) or a share of the input ('30%'), not {budget!r}")


def fit(plan: Plan, budget: int, s: TrajectorySettings, masker: Masker) -> Plan:
    """``plan`` brought within ``budget`` tokens by the degrade order above (unchanged if it fits)."""
    t = plan.trajectory
    cost = Cost(t.form, s.encoding)
    if cost.total(t) <= budget or not t.steps:
        if cost.total(t) > budget:
            raise BudgetTooSmall(budget, cost.total(t))
        return plan
    present = {step.index: step for step in t.past}
    floor = [i for i in sorted(plan.floor) if i in present]
    room = budget - cost.fixed(t) - sum(cost.step(present[i]) for i in floor)
    s = replace(s, facts_share=block_share(s.facts_share, budget, cost.total(t)))
    masking = s.dropped != "remove" or plan.mask_rest
    reserve = _held(s.facts_share, budget - minimum_budget(t, s.encoding)) if masking else 0
    facts = FactWords(masker.actionable(), masker.asked() if masking else frozenset())
    # the degrade holds the block its share of the room when the floor leaves it less (or is over the budget), and
    # tries every floor step dropped (a user's request kept, as stage 3 keeps it) with that room held for the block
    helds = (0, reserve) if room < 0 else (reserve,) if masking and room < reserve else ()
    whole: int | None = None
    if masking and len(present) <= BREADTH_MAX_STEPS:
        asks = [r for r in (masker.requests(masker.original.steps[i]) for i in floor) if r is not None]
        spare = budget - cost.total(t.with_steps([*asks, *t.steps[-1:]]))
        whole = spare if spare > reserve else None
    first: tuple[float, Trajectory, list[str]] | None = None
    if room >= 0:
        out = _stage1(plan, present, floor, room, budget, cost, masker, s, facts)
        if not helds and whole is None:
            return replace(plan, trajectory=_top_up(out, plan, present, budget, cost, masker, s))
        first = (facts.score(out), out, [])  # the degrade candidates win only with strictly more fact words
    best = _degrade_best(plan, present, floor, room, budget, cost, masker, s, helds, facts, whole)
    if best is None or (first is not None and first[0] >= best[0]):
        assert first is not None
        best = first
    out = _top_up(best[1], plan, present, budget, cost, masker, s)
    return replace(plan, trajectory=out, notices=(*plan.notices, *_given_back(best[2], best[1], out, floor, present)))


def _given_back(notices: list[str], before: Trajectory, after: Trajectory, floor: list[int], present: dict[int, Step],
                how: str = "with the room left") -> list[str]:
    """The degrade's ``notices``, the first (what happened to the floor) also saying which floor steps missing from
    ``before`` a later stage (the facts block's host, the top-up) gave back in ``after``: without it, a notice said
    "dropped floor step 5" of a result that holds step 5."""
    had = {step.index for step in before.past}
    now = {step.index: step for step in after.past}
    back = _came_back([i for i in floor if i not in had and i in now], now, present, how)
    return [f"{notices[0]}, {', '.join(back)}", *notices[1:]] if notices and back else notices


def _came_back(indices: list[int], kept: dict[int, Step], present: dict[int, Step],
               how: str = "with the room left") -> list[str]:
    """What a notice says of floor steps dropped by the degrade and given back by a later stage (``how``)."""
    return [f"floor step {i} came back {'whole' if kept[i] is present[i] else 'masked'} {how}" for i in indices]


def _top_up(t: Trajectory, plan: Plan, present: dict[int, Step], budget: int, cost: Cost, masker: Masker,
            s: TrajectorySettings) -> Trajectory:
    """``t`` with the tokens its facts block left unused given back to the method's other steps, best first: whole
    while they fit, then masked. The block is held a share of the room before it knows how many new items it has;
    when most of what the elided steps said is already in the result, that share went unused (67 tokens of a 624-token
    budget at one ScienceWorld decision point). Only with masks (without them there is no block, and the packing
    already filled the room) and not for a contiguous method (a recency window stays a window)."""
    if plan.contiguous or not (s.dropped != "remove" or plan.mask_rest):
        return t
    room = budget - cost.total(t)
    if room <= 0:
        return t
    kept = {step.index: step for step in t.past}
    order = [i for i in (plan.priority or ()) if i in present and i not in kept]
    listed = set(order)
    order += [i for i in sorted(present, reverse=True) if i not in kept and i not in listed]
    left = _take(order, kept, lambda i: present[i], room, cost, False)
    _take([i for i in order if i not in kept], kept, lambda i: masker.mask(present[i]), left, cost, False,
          lambda i: masker.least(present[i], cost))
    return t if len(kept) == len(t.past) else _with_past(t, kept)


def _stage1(plan: Plan, present: dict[int, Step], floor: list[int], room: int, budget: int, cost: Cost,
            masker: Masker, s: TrajectorySettings, facts: FactWords) -> Trajectory:
    """Stage 1 (the floor fits): pack the other steps into ``room`` less the facts block's share, newest or
    best first and masked first for breadth (the one holding more fact words wins), then the facts block."""
    t = plan.trajectory
    masking = s.dropped != "remove" or plan.mask_rest
    packs: list[dict[int, Step]] = []
    blocks = (dict.fromkeys(min(BLOCK_SHARE_TOP, m * s.facts_share) for m in STAGE1_BLOCK_SHARES)
              if masking and s.facts_share > 0 and not plan.contiguous and len(present) <= BREADTH_MAX_STEPS
              else (s.facts_share,))
    for share_held in blocks:  # each share of the room held for the facts block: the one holding most facts wins
        steps_room = room - (_held(share_held, room) if masking else 0)  # the rest: the facts block
        packs += [_pack(plan, present, floor, steps_room, cost, masker, s) or {}]
        if masking and len(present) <= BREADTH_MAX_STEPS:  # or masks first
            packs.append(_pack_masked_first(plan, present, floor, steps_room, cost, masker))
        if masking and not plan.contiguous and len(present) <= BREADTH_MAX_STEPS:  # or the best step left out shortened
            packs += [p for p in (_pack(plan, present, floor, steps_room, cost, masker, s, share)
                                  for share in LISTING_SHARES) if p is not None]
    outs = [_with_past(t, kept) for kept in packs]
    if masking and s.facts_share > 0:
        outs = [_facts(out, budget, cost, masker, facts) for out in outs]
    if len(outs) == 1:
        return outs[0]
    return max(outs, key=facts.score)  # ties: the first


def _degrade_best(plan: Plan, present: dict[int, Step], floor: list[int], room: int, budget: int, cost: Cost,
                  masker: Masker, s: TrajectorySettings, helds: tuple[int, ...], facts: FactWords,
                  whole: int | None = None) -> tuple[float, Trajectory, list[str]] | None:
    """Stages 2-4 for each share of the current observation, each drop order and each room ``held`` for the
    facts block (then filled), and once with ``whole`` held (every floor step dropped: the current observation whole,
    oldest first): the result holding the most fact words (ties: the later one)."""
    best: tuple[float, Trajectory, list[str]] | None = None
    rank = {i: k for k, i in enumerate(plan.priority or ())}
    orders = [floor] + ([sorted(floor, key=lambda i: -rank.get(i, -1))] if plan.priority else [])
    masking = s.dropped != "remove" or plan.mask_rest
    tries = [(share, drop_order, held) for share in CURRENT_SHARES  # the current observation keeping each share
             for drop_order in orders  # lower K oldest first, or least important first
             for held in dict.fromkeys(h if h >= MIN_BLOCK_TOKENS else 0 for h in helds)]
    tries += [(1.0, floor, whole)] if whole is not None else []
    for share, drop_order, held in tries:
        try:
            out, notices = _degrade(plan, present, floor, drop_order, held - room, budget, share, cost, masker, s,
                                    held)
        except BudgetTooSmall:
            if not held and room < 0:
                raise
            continue
        if masking and s.facts_share > 0:  # a floor step dropped above may come back masked, holding the block
            filled = _facts(out, budget, cost, masker, facts)
            notices, out = _given_back(notices, out, filled, floor, present, "to hold the facts block"), filled
        score = facts.score(out)
        if best is None or score >= best[0]:  # ties: the later (smaller share; least important dropped; whole)
            best = (score, out, notices)
    return best


def _degrade(plan: Plan, present: dict[int, Step], floor: list[int], drop_order: list[int], over: int,
             budget: int, share: float, cost: Cost, masker: Masker, s: TrajectorySettings,
             held: int = 0) -> tuple[Trajectory, list[str]]:
    """Stages 2 to 4 for a floor ``over`` tokens over the budget less ``held`` (tokens kept for the facts
    block), the current observation keeping ``share`` of the tokens left for it and the past steps; stage 3
    drops floor steps in ``drop_order``."""
    t = plan.trajectory
    kept = {i: present[i] for i in floor}
    floor_cost, done = cost.total(_with_past(t, kept)), []
    for i in floor:  # stage 2: mask older floor steps, oldest first
        if over <= 0:
            break
        masked = masker.mask(kept[i])
        over -= cost.step(kept[i]) - cost.step(masked)
        kept[i] = masked
        done.append(f"masked floor step {i}")
    obs_cost = cost.messages(t.steps[-1].observation)
    history = sum(cost.step(step) for step in kept.values())
    room_all = obs_cost + history - over  # for the current observation and the kept history
    history_room = room_all - min(obs_cost, math.ceil(share * room_all))
    history_room = max(history, history_room) if over <= 0 else history_room
    masking = s.dropped != "remove" or plan.mask_rest
    history = _lower_k(kept, drop_order, history, history_room, cost, masker if masking else None, done)
    gone = [i for i in floor if i not in kept]
    if history < history_room:  # slack left by the last stage: refill it with scored steps, best first
        history += _refill(plan, present, kept, history_room - history, cost, masker, s)
    out = _with_past(t, kept)
    shortened = obs_cost + history > room_all
    if shortened:  # stage 4: shorten the current observation (beside the oldest kept steps only if its marker fits)
        before = [i for i in floor if i in kept]
        out = _shorten_with_history(t, kept, budget - held, cost, s)
        done += [f"dropped floor step {i}" for i in before if i not in kept]
    done += _came_back([i for i in gone if i in kept], kept, present)
    why = (f"is over the budget of {budget}" if floor_cost > budget else
           f"fits the budget of {budget}, but its room holds more as facts of elided steps")
    notices = [f"the floor ({floor_cost} tokens) {why}: {', '.join(done) or 'no step'}"]
    if shortened:
        notices.append("the current observation was shortened (the parts that carry its facts kept, with a marker)")
    return out, notices


def _lower_k(kept: dict[int, Step], drop_order: list[int], history: int, history_room: int, cost: Cost,
             masker: Masker | None, done: list[str]) -> int:
    """Stage 3: floor steps go in ``drop_order`` until the history fits ``history_room``; the tokens it then
    costs. With masks (``masker``), a step holding a user's request after its tool results is first cut to that
    request (:meth:`Masker.requests`): in a multi-turn conversation the newest request names what the next
    calls pass (a tweet's text, a ticket's title), and dropping the step with it lost them. Those requests go
    too, in the same order, when the history still does not fit."""
    cut: set[int] = set()
    for i in drop_order:
        if history > history_room and i in kept:
            history -= cost.step(kept.pop(i))
            request = masker.requests(masker.original.steps[i]) if masker is not None else None
            if request is not None:
                kept[i], history = request, history + cost.step(request)
                cut.add(i)
                done.append(f"cut floor step {i} to the user's request")
            else:
                done.append(f"dropped floor step {i}")
    for i in drop_order:
        if history > history_room and i in cut:
            history -= cost.step(kept.pop(i))
            done.append(f"dropped floor step {i}")
    return history


def _pack(plan: Plan, present: dict[int, Step], floor: list[int], room: int, cost: Cost, masker: Masker,
          s: TrajectorySettings, listing: float = 0.0) -> dict[int, Step] | None:
    """Stage 1: the floor, then the method's other steps best first, whole; then masked versions. With
    ``listing``, the first step that does not fit whole is shortened into that share of the room left
    (:func:`relaykit.trajectory.listing.take_listing`; ``None`` when it cannot be)."""
    rest = [i for i in (plan.priority or ()) if i in present and i not in floor]
    listed = set(rest)
    rest += sorted((i for i in present if i not in floor and i not in listed), reverse=True)
    chosen = {i: present[i] for i in floor}
    if listing:
        left = take_listing(rest, chosen, present, room, cost, masker, listing)
        if left is None:
            return None
        room, rest = left, [i for i in rest if i not in chosen]
    room = _take(rest, chosen, lambda i: present[i], room, cost, plan.contiguous)
    if s.dropped != "remove" or plan.mask_rest:
        _take([i for i in rest if i not in chosen], chosen, lambda i: masker.mask(present[i]), room, cost,
              plan.contiguous, lambda i: masker.least(present[i], cost))
    return chosen


def _take(order: list[int], chosen: dict[int, Step], version: Callable[[int], Step], room: int, cost: Cost,
          contiguous: bool, least: Callable[[int], int] | None = None) -> int:
    """Add ``version(i)`` of each step in ``order`` to ``chosen`` while it fits ``room`` (a contiguous method
    stops at the first that does not); the room left. ``least(i)``, a lower bound of the version's cost, spares
    building versions that cannot fit (:meth:`Masker.least`)."""
    for i in order:
        if least is not None and least(i) > room:
            if contiguous:
                break
            continue
        step = version(i)
        c = cost.step(step)
        if c <= room:
            chosen[i], room = step, room - c
        elif contiguous:
            break
    return room


def _pack_masked_first(plan: Plan, present: dict[int, Step], floor: list[int], room: int, cost: Cost,
                       masker: Masker) -> dict[int, Step]:
    """Stage 1 for breadth: the floor, then masked versions of the other steps best first, then as many of
    them as fit made whole again, best first."""
    rest = [i for i in (plan.priority or sorted(present, reverse=True)) if i in present and i not in floor]
    chosen = {i: present[i] for i in floor}
    room = _take(rest, chosen, lambda i: masker.mask(present[i]), room, cost, plan.contiguous,
                 lambda i: masker.least(present[i], cost))
    for i in rest:
        if i in chosen and chosen[i] is not present[i]:
            extra = cost.step(present[i]) - cost.step(chosen[i])
            if extra <= room:
                chosen[i], room = present[i], room - extra
    return chosen


def _refill(plan: Plan, present: dict[int, Step], kept: dict[int, Step], room: int, cost: Cost,
            masker: Masker, s: TrajectorySettings) -> int:
    """Dropped steps, in the method's priority order, into ``room`` tokens of slack (the tokens used): masked
    versions (whole ones with ``dropped="remove"``, unless the method masks)."""
    used = 0
    masking = s.dropped != "remove" or plan.mask_rest
    for i in plan.priority or sorted(present, reverse=True):
        if i in kept or i not in present:
            continue
        if masking and masker.least(present[i], cost) > room:
            if plan.contiguous:
                break
            continue
        step = masker.mask(present[i]) if masking else present[i]
        c = cost.step(step)
        if c <= room:
            kept[i], room, used = step, room - c, used + c
        elif plan.contiguous:
            break
    return used


def block_share(base: float, budget: int, total: int) -> float:
    """The share of the room kept for the facts block at ``budget`` for an input of ``total`` tokens: ``base``
    while the budget keeps at least half of the input, then rising linearly with the share that must go
    (:data:`BLOCK_SHARE_SLOPE` per unit), up to :data:`BLOCK_SHARE_CAP` times ``base`` (and never past
    :data:`BLOCK_SHARE_MAX` unless ``base`` is): the tighter the budget,
    the more steps are elided and the more a deduplicated list of their facts is worth beside whole steps."""
    if base <= 0 or total <= 0:
        return base
    pressure = 1 - budget / total
    grown = min(BLOCK_SHARE_CAP * base, base * (1 + BLOCK_SHARE_SLOPE * (pressure - 0.5)), BLOCK_SHARE_MAX)
    return max(base, grown)


def _held(share: float, room: int) -> int:
    """The tokens of ``room`` kept for the facts block."""
    return min(math.floor(share * room), MAX_BLOCK_TOKENS)


def _facts(t: Trajectory, budget: int, cost: Cost, masker: Masker, facts: FactWords) -> Trajectory:
    """``t`` with one deduplicated block of the facts of its elided steps in the tokens the budget leaves
    (:mod:`relaykit.trajectory.facts`), inside the oldest masked step's placeholder; with no masked step, inside
    the newest dropped step's (masked for it, its action back too) or after the current observation, whichever
    holds more fact words by ``facts`` (the caller's count, whose per-step words carry over between calls; a short
    step masks to itself, and hosting the block in it can cost more than the items it gives way to; ties: the
    host); unchanged when there is no room or nothing new to say."""
    room = budget - cost.total(t)
    original = masker.original.steps
    chosen = {step.index: step for step in t.past}
    elided = [s for s in masker.original.past if s.index not in chosen or chosen[s.index].masked][-ELIDED_WINDOW:]
    if room < MIN_BLOCK_TOKENS or not elided:
        return t
    host = min((i for i in chosen if chosen[i].masked and block_slot(chosen[i], t.form) is not None), default=None)
    placements: list[tuple[int | None, dict[int, Step]]] = [(host, chosen)]
    if host is None:
        placements = [(None, chosen)]  # after the current observation: no host step to pay for
        new = next((s.index for s in reversed(elided) if block_slot(masker.mask(s), t.form) is not None
                    and cost.step(masker.mask(s)) + MIN_BLOCK_TOKENS <= room), None)
        if new is not None:  # first, the newest dropped step masked to hold it (its action comes back too)
            placements.insert(0, (new, {**chosen, new: masker.mask(original[new])}))
    filled = [f for f in (_placed(t, kept, at, elided, budget, cost, masker) for at, kept in placements)
              if f is not None]
    if not filled:
        return t
    return max(filled, key=facts.score)  # ties: the first


def _placed(t: Trajectory, kept: dict[int, Step], host: int | None, elided: list[Step], budget: int, cost: Cost,
            masker: Masker) -> Trajectory | None:
    """``t`` with the kept past steps and the facts block inside ``host`` (a masked kept step), or after the current
    observation (``host=None``); ``None`` when not even one item fits there (a host re-masked from a dropped step
    can leave too little room beside it: the block then tries the current observation)."""
    current = t.steps[-1]
    if host is None and block_slot(current, t.form) is None:
        return None
    room = budget - cost.total(_with_past(t, kept))
    items = rank_items(elided, len(masker.original.steps), facts_context(_with_past(t, kept)), masker.frequencies(),
                       masker.actionable(), masker.acted(), masker.passed())
    target = kept[host] if host is not None else current
    base, limit = cost.step(target), room - tokens.count(FACTS_LABEL, cost.encoding) - 2
    for _ in range(4):  # the exact cost of the host with its block decides; tighten if the estimate was short
        block = block_text(items, limit, cost.encoding)
        if not block:
            return None
        filled = with_block(target, block, t.form, inside=host is not None)
        over = cost.step(filled) - base - room
        if over <= 0:
            if host is None:
                return t.with_steps([*(kept[i] for i in sorted(kept)), filled])
            return _with_past(t, {**kept, host: filled})
        limit -= over
    return None


def _with_past(t: Trajectory, kept: dict[int, Step]) -> Trajectory:
    return t.with_steps([*(kept[i] for i in sorted(kept)), *t.steps[-1:]])


def _shorten_with_history(t: Trajectory, kept: dict[int, Step], budget: int, cost: Cost,
                          s: TrajectorySettings) -> Trajectory:
    """The current observation shortened to fit beside the kept history; if even its bare marker does not fit
    beside it, the oldest kept steps go first (the minimum stated is that of the current step alone)."""
    while True:
        try:
            return _shorten_current(_with_past(t, kept), budget, cost, s)
        except BudgetTooSmall:
            if not kept:
                raise
            kept.pop(min(kept))


def _shorten_current(t: Trajectory, budget: int, cost: Cost, s: TrajectorySettings) -> Trajectory:
    if cost.total(t) <= budget:  # fits as it is (the caller dropped enough kept steps): nothing to cut
        return t
    current = t.steps[-1]
    obs = list(current.observation)
    asks = step_request_flags(current)
    bare = _bare_observation(current, cost, s.encoding)
    others = cost.total(t) - cost.messages(obs)
    minimum = others + cost.messages(bare)
    if minimum > budget or not any(_shortenable(m) and not ask for m, ask in zip(obs, asks, strict=True)):
        raise BudgetTooSmall(budget, minimum)
    over = cost.total(t) - budget
    known = _context_words(t)
    for k in sorted(range(len(obs)), key=lambda k: -cost.message(obs[k])):  # largest first
        if over <= 0:
            break
        m = obs[k]
        if not _shortenable(m) or asks[k]:  # a user's request after the tool results is never cut
            continue
        text = str(m["content"])
        target = max(0, tokens.count(text, s.encoding) - over)
        short = shorten(text, target, s.encoding, known=known)
        new: Msg = {**m, "content": short or marker(tokens.count(text, s.encoding))}
        over -= cost.message(m) - cost.message(new)
        obs[k] = new
    if over > 0:
        raise BudgetTooSmall(budget, minimum)
    return t.with_steps([*t.past, replace(current, observation=tuple(obs))])


def _context_words(t: Trajectory) -> frozenset[str]:
    """Words the result holds outside the current observation and the system prompt (not worth keeping twice when
    shortening; a system prompt's example words are no facts of the episode)."""
    current = t.steps[-1]
    blocks = [*t.task, *(m for step in t.past for m in step.messages), current.action, *t.pending]
    return frozenset(w for m in blocks for w in words(tokens.message_text(m)))


def minimum_budget(t: Trajectory, encoding: str = "o200k_base") -> int:
    """The smallest budget any method can meet for ``t``: system, task, pending turn and the current step with
    its observation cut to the bare marker, a user's request after its tool results whole (the figure
    :class:`BudgetTooSmall` states)."""
    cost = Cost(t.form, encoding)
    floor = t.with_steps(t.steps[-1:])
    if not t.steps:
        return cost.total(floor)
    return (cost.total(floor) - cost.messages(t.steps[-1].observation)
            + cost.messages(minimum_history(t, encoding).steps[-1].observation))


def minimum_history(t: Trajectory, encoding: str = "o200k_base") -> Trajectory:
    """What :func:`minimum_budget` counts: system, task, pending turn and the current step with its observation
    cut to the bare marker, a user's request after its tool results whole (no past step)."""
    if not t.steps:
        return t.with_steps(())
    current = t.steps[-1]
    return t.with_steps([replace(current, observation=_bare_observation(current, Cost(t.form, encoding), encoding))])


def _bare_observation(step: Step, cost: Cost, encoding: str) -> tuple[Msg, ...]:
    """The step's observation with every message cut to its bare marker but the user's own turns (whole): what the
    minimum counts, and what the current observation's shortening may go down to (one computation for both, so
    that the two never disagree)."""
    return tuple(m if ask else _bare(m, cost, encoding)
                 for m, ask in zip(step.observation, step_request_flags(step), strict=True))


def _bare(m: Msg, cost: Cost, encoding: str) -> Msg:
    """The message with its content cut to the bare marker (unchanged if that would not be shorter)."""
    if not _shortenable(m):
        return m
    cut = {**m, "content": marker(tokens.count(m["content"], encoding))}
    return cut if cost.message(cut) < cost.message(m) else m


def _shortenable(m: Msg) -> bool:
    return isinstance(m.get("content"), str) and bool(m["content"])


__all__ = ["MARKER", "BudgetTooSmall", "block_share", "fit", "marker", "minimum_budget", "minimum_history",
           "resolve_budget", "shorten"]
