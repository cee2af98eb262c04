"""An older step's observation cut to its listed items, instead of being dropped whole or masked to a digest.

Under a budget, stage 1 of :func:`relaykit.trajectory.budget.fit` packs whole steps best first; the best step
that does not fit whole (in a text environment, often an older room's listing of objects) used to be dropped
or masked to a digest of 32 tokens. :func:`take_listing` packs whole steps while they fit, then that step with
its largest observation message cut to its items: the digest candidates of its text
(:func:`relaykit.trajectory.digest.candidates`) the context does not hold, ranked as a digest ranks them, inside a
marker (``[... 175 tokens cut; listed: stove, oven, kitchen cupboard ...]``), into a share of the room left, counted
exactly. The budget code then judges this packing against the others by the fact words each holds.
"""

from __future__ import annotations

import math
from dataclasses import replace

from relaykit import tokens
from relaykit.text import words
from relaykit.trajectory.digest import candidates, item_score, pack_items, text_words
from relaykit.trajectory.facts import sibling_items
from relaykit.trajectory.parse import Step, step_request_flags
from relaykit.trajectory.plan import Cost, Masker

LISTING_MIN_TOKENS = 16
"""The least room worth shortening an older step's observation into (less holds little beyond the marker)."""
LISTING_MAX_TOKENS = 1024
"""The most room a listing takes, however much is left (as the facts block's ``MAX_BLOCK_TOKENS``): a huge tool
result under a large budget is cut to at most this many tokens of items, so packing them stays cheap."""
LISTING = "[... {cut} tokens cut; listed: {items} ...]"
"""An older step's observation cut to its listed items."""
LISTING_SHARES = (1.0, 0.5)
"""Stage 1 also tries the best step that does not fit whole shortened into each of these shares of the room
left (the rest packed after it); the result holding the most fact words wins (ties: the plain packing)."""


def take_listing(order: list[int], chosen: dict[int, Step], present: dict[int, Step], room: int, cost: Cost,
                 masker: Masker, share: float) -> int | None:
    """Whole steps of ``order`` while they fit, then the first that does not with its observation shortened
    into ``share`` of the room left (an older room's listing keeps its items instead of going whole or down
    to a digest); the room left, ``None`` when that step does not shorten into it."""
    for i in order:
        c = cost.step(present[i])
        if c <= room:
            chosen[i], room = present[i], room - c
            continue
        free = min(math.floor(share * room), LISTING_MAX_TOKENS)
        short = listed_step(present[i], free, cost, masker) if free >= LISTING_MIN_TOKENS else None
        if short is None:
            return None
        chosen[i] = short
        return room - cost.step(short)
    return None


def listed_step(step: Step, room: int, cost: Cost, masker: Masker) -> Step | None:
    """``step`` with its largest observation message cut to its listed items (the digest candidates of its text
    the context does not hold, best first, inside the marker: ``[... N tokens cut; listed: stove, oven ...]``)
    so that the step costs at most ``room`` tokens, counted exactly; ``None`` when not even one item fits."""
    obs = list(step.observation)
    requests = step_request_flags(step)  # the user's own turn (after a tool result or a text reply), never cut
    answers = [j for j, m in enumerate(obs) if isinstance(m.get("content"), str) and m["content"] and not requests[j]]
    k = max(answers, key=lambda j: cost.message(obs[j]), default=None)
    if k is None or masker.original.form == "react":
        return None
    text = str(obs[k]["content"])
    n = tokens.count(text, cost.encoding)
    known = masker.known_words()
    items = [item for item in candidates(text) if not set(words(item)) <= known]
    items = _ranked(items, text, step, masker)
    bare = {**obs[k], "content": LISTING.format(cut=n, items="")}
    limit = room - (cost.step(step) - cost.message(obs[k]) + cost.message(bare)) - 2
    for _ in range(3):  # the exact count decides; tighten when the estimate was short
        listed = pack_items(items, limit, cost.encoding)
        if not listed:
            return None
        obs[k] = {**obs[k], "content": LISTING.format(cut=n, items=listed)}
        out = replace(step, observation=tuple(obs))
        over = cost.step(out) - room
        if over <= 0:
            return out if cost.step(out) < cost.step(step) else None
        limit -= over
    return None


def _ranked(items: list[str], text: str, step: Step, masker: Masker) -> list[str]:
    """The items best first by a digest's rank (recurrence, capped; the shape of values actions pass; siblings of
    an item a later action named; not yet the bonus of :data:`relaykit.trajectory.digest.REPEATED`, which digests
    and the facts block have: not measured here), ties in their order of appearance: a room's listing cut to what
    fits keeps the objects beside what the agent acted on, not the first ones listed (twx-rooms 50%: 0.837 -> 0.880
    and 0.968 -> 0.984 on two sets of dev episodes, the other dev environments unchanged)."""
    df, actionable, own = masker.frequencies(), masker.actionable(), text_words(text)
    siblings = sibling_items(step, masker.acted())
    return sorted(items, key=lambda item: -item_score(item, df, own, actionable, siblings))


__all__ = ["LISTING", "LISTING_MAX_TOKENS", "LISTING_MIN_TOKENS", "LISTING_SHARES", "listed_step", "take_listing"]
