"""What a degrade choice is judged by: the fact words a candidate result holds (:class:`FactWords`), counting the items
its digests, facts block and listings list (:func:`fact_items`). :func:`relaykit.trajectory.budget.fit` picks, among the
packings and degrade candidates it builds, the one holding the most."""

from __future__ import annotations

import re

from relaykit import tokens
from relaykit.text import words
from relaykit.trajectory.digest import ACTIONABLE, candidates, shape
from relaykit.trajectory.facts import FACTS_LABEL, long_quotes
from relaykit.trajectory.parse import Step, Trajectory


class FactWords:
    """What a degrade choice is judged by: the distinct words of facts
    (:func:`fact_items`) the steps hold, those of items shaped like values actions
    pass counting 1 + ``ACTIONABLE``, and the ``asked`` words (what a user's request names that no call has passed
    yet: :meth:`relaykit.trajectory.plan.Masker.asked`) ``ACTIONABLE`` more again. The facts block ranks those items
    first (:data:`relaykit.trajectory.facts.PENDING`), but the choice between candidates weighed them as any word,
    and a masked step's digest of eleven airport codes won over a block holding the tweet, hashtag and mention the
    user asked for (bfcl-mp 30%: 2 cases gained, none lost; the weight's size, 1-4, changed nothing). Each step's
    words are found once (steps are shared between choices)."""

    def __init__(self, actionable: frozenset[tuple[str, int]], asked: frozenset[str] = frozenset()) -> None:
        self.actionable, self.asked = actionable, asked
        self._steps: dict[int, tuple[Step, dict[str, float]]] = {}  # id(step) -> (the step, kept alive; weights)

    def step(self, step: Step) -> dict[str, float]:
        key = id(step)
        if key not in self._steps:
            weights: dict[str, float] = {}
            for item in fact_items(step):
                w = 1 + ACTIONABLE if shape(item) in self.actionable else 1.0
                for word in words(item):
                    weight = w + ACTIONABLE if word in self.asked else w
                    weights[word] = max(weight, weights.get(word, 0.0))
            self._steps[key] = (step, weights)
        return self._steps[key][1]

    def score(self, t: Trajectory) -> float:
        total: dict[str, float] = {}
        for step in t.steps:
            for word, w in self.step(step).items():
                if w > total.get(word, 0.0):
                    total[word] = w
        return sum(total.values())


_LABELS = ("facts: ", FACTS_LABEL, "listed: ")
"""What opens a list of items: a digest's (:meth:`relaykit.trajectory.plan.Masker.placeholder`), the facts block's
(:data:`relaykit.trajectory.facts.FACTS_LABEL`) and a listing's (:mod:`relaykit.trajectory.listing`)."""
_LISTED = re.compile(r"(?:(?<=; )|(?<=\())(?:" + "|".join(re.escape(label.rstrip(": ")) for label in
                                                         sorted(_LABELS, key=len, reverse=True))
                     + r"): ([^;\])]*?)(?: \.\.\.)?(?=[;\])]|$)")


def fact_items(step: Step) -> list[str]:
    """The fact items a step holds as a reader sees them: the digest candidates of its text
    (:func:`relaykit.trajectory.digest.candidates`) and every item listed in a digest or a facts block it carries
    ("facts: table lamp, TV remote control" holds both, though neither is shaped like an identifier or a name:
    counted by candidates alone, a digest or block of a text environment's objects was worth almost nothing when
    choosing between degrade candidates), and the long texts a user's turn quotes (:func:`facts.long_quotes`: the
    message or description to pass word for word, one item of the facts block, but longer than a digest's quoted
    item; counted by candidates alone, a step cut to a request quoting a 138-character message was worth less than
    a few more words of the current tool result, and the degrade dropped it)."""
    texts = [tokens.message_text(m) for m in step.messages]
    items = candidates("\n".join(texts))
    items += long_quotes("\n".join(t for m, t in zip(step.messages, texts) if m.get("role") == "user"))
    for m in step.observation:
        text = tokens.message_text(m)
        if any(label in text for label in _LABELS):
            items += [item.strip() for listed in _LISTED.findall(text) for item in listed.split(", ") if item.strip()]
    return items


__all__ = ["FactWords", "fact_items"]
