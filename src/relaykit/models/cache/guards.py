"""Guards a semantic hit must pass besides similarity: texts that embed alike but ask opposite things."""

from __future__ import annotations

import re
from collections.abc import Callable

Guard = Callable[[str, str], bool]

_NEGATION = re.compile(
    r"\b(?:not|no|never|none|nothing|nobody|nor|neither|without|cannot|dont|doesnt|didnt|isnt|arent|wasnt|"
    r"werent|wont|wouldnt|shouldnt|cant|couldnt|mustnt|stop|avoid)\b|n't\b",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def negation_count(text: str) -> int:
    """How many negation cues ``text`` holds ("do not", "don't", "never", "without", ...)."""
    return len(_NEGATION.findall(text.replace("’", "'")))


def same_negation(query: str, cached: str) -> bool:
    """"cancel my order" must not hit "do not cancel my order": the negation cues must agree."""
    return negation_count(query) == negation_count(cached)


def same_numbers(query: str, cached: str) -> bool:
    """"refund order 1234" must not hit "refund order 1243": the numbers must be the same."""
    return sorted(_NUMBER.findall(query)) == sorted(_NUMBER.findall(cached))


DEFAULT_GUARDS: tuple[Guard, ...] = (same_negation, same_numbers)
