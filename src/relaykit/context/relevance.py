"""A keyword relevance fallback for items that carry no relevance hint.

UNVALIDATED. Paper 002 measured everything on human 0-3 labels; the keyword heuristic here was not
part of that study and nobody has checked how well it agrees with human judgement. It exists so the
arranger works on items without scores. Replace it with your retrieval score, a model call or your own
``RelevanceFn`` before relying on it.

Scale (the paper's rubric, in short): 3 = a decision, action item, blocker or commitment; 2 = status a
teammate would want in a weekly summary; 1 = a passing mention of the work; 0 = no bearing on it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol


class RelevanceFn(Protocol):
    """Scores one item's text on the 0-3 relevance scale."""

    def __call__(self, text: str) -> float: ...


ACTION_WORDS = (
    "decided", "decision", "agreed", "action item", "todo", "to-do", "will ", "by monday", "by tuesday",
    "by wednesday", "by thursday", "by friday", "deadline", "due ", "blocker", "blocked", "blocking",
    "commit to", "committed", "owner:", "assigned", "must ", "approve", "sign off", "sign-off", "escalat",
)
STATUS_WORDS = (
    "status", "update", "progress", "released", "release", "deployed", "deploy", "rollout", "merged",
    "milestone", "on track", "behind schedule", "sprint", "metrics", "incident", "fixed", "review",
)
WORK_WORDS = ("project", "team", "roadmap", "meeting", "customer", "build", "service", "api", "design")
NOISE_WORDS = (
    "unsubscribe", "newsletter", "lunch", "birthday", "happy hour", "weekend", "coffee", "webinar",
    "promotion", "% off", "no-reply", "noreply", "automated message", "out of office",
)


@dataclass(frozen=True)
class KeywordRelevance:
    """Counts cue words: action cues give 3, status cues 2, work mentions 1, social/automated cues pull to 0."""

    action_words: tuple[str, ...] = ACTION_WORDS
    status_words: tuple[str, ...] = STATUS_WORDS
    work_words: tuple[str, ...] = WORK_WORDS
    noise_words: tuple[str, ...] = NOISE_WORDS
    _space: re.Pattern[str] = field(default=re.compile(r"\s+"), repr=False, compare=False)

    def __call__(self, text: str) -> float:
        lowered = self._space.sub(" ", text.lower()) + " "
        actions = _hits(lowered, self.action_words)
        status = _hits(lowered, self.status_words)
        work = _hits(lowered, self.work_words)
        noise = _hits(lowered, self.noise_words)
        if noise > actions + status:
            return 0.0
        if actions >= 1:
            return 3.0
        if status >= 1:
            return 2.0
        return 1.0 if work >= 1 else 0.0


def _hits(text: str, words: Iterable[str]) -> int:
    return sum(1 for word in words if word in text)


keyword_relevance: RelevanceFn = KeywordRelevance()
