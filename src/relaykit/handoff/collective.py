"""Verdicts that speak of several options at once, resolved against the options mentioned before them.

"The last two fail", "the first three are out", "all others pass", "the other two are out", "neither works",
"none of them qualifies", "only HS3 survives", "SU-1 is the only one left": the reader (``relaykit.handoff.
evidence``) keeps the ids of the current paragraph in the order they were first named, and these helpers say
which of them a sentence judges, and how. A selector that does not fit the options known (three named where
"the other two" are meant) judges nobody: the verdict stays unknown rather than guessed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relaykit.handoff.lexicon import verdict_of

_COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
           "ten": 10, "both": 2}
_COUNT = r"(?P<n>one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})"
_SELECTOR = re.compile(
    r"^(?:(?:so|and|but|then|thus|hence|therefore|while|whereas),?\s+)?(?:"
    rf"(?:the\s+)?(?P<end>first|last|final|top|bottom)\s+{_COUNT}(?:\s+(?:ones?|options?|of them|candidates?))?"
    r"|(?P<others>(?:all\s+(?:the\s+)?)?(?:the\s+)?(?:others?|rest|remaining(?:\s+ones?)?)"
    rf"(?:\s+{_COUNT.replace('?P<n>', '?P<m>')})?(?:\s+(?:ones?|options?|candidates?))?"
    r"|(?:all|every|each)\s+(?:the\s+)?other(?:\s+(?:ones?|options?|candidates?))?)"
    r"|(?P<neither>neither(?:\s+(?:one|of them|option))?|none(?:\s+of\s+(?:them|these|those|the\s+\w+))?"
    r"|nothing\s+(?:else\s+)?(?=works|passes|qualifies|fits|survives))"
    r")(?=\s|[,:.!]|$)",
    re.IGNORECASE)
"""The start of a clause that names a group of options by position or as "the others", "neither", "none"."""
_ONLY_BEFORE = re.compile(r"(?:^|\b(?:so|and|but|then|thus|hence|therefore|that)\s+|[,:;]\s*)only\s+$", re.IGNORECASE)
_ONLY_AFTER = re.compile(r"^\s+(?:is|was|remains|stays)\s+(?:the\s+)?only\s+(?:one|option|candidate)\b"
                         r"|^\s+alone\b", re.IGNORECASE)
""""Only SU-1 ..." and "SU-1 is the only one ..." / "SU-1 alone ...": one option passes, so the others fail."""


def _count(said: str | None) -> int | None:
    if said is None:
        return None
    return int(said) if said.isdigit() else _COUNTS.get(said.lower())


def group_verdict(clause: str, order: Sequence[str], named: Sequence[str], pair: Sequence[str] | None,
                  subject: str | None) -> tuple[list[str], str] | None:
    """The options an id-less clause judges together, and the verdict ("the last two fail" -> the last two of
    ``order``, ``"fail"``). ``order``: the ids of the paragraph (or trace) in the order first named; ``named``:
    the ids of the same sentence; ``pair``: the two ids a clause named together last; ``subject``: the option
    spoken of last. None when the clause is no such verdict or its group does not fit ``order``."""
    found = _SELECTOR.match(clause)
    if found is None:
        return None
    verdict = verdict_of(clause[found.end():])
    if verdict is None:
        return None
    if found.group("neither"):  # "neither works", "none of them qualifies": a pass word negated
        neither = clause[found.start("neither"):][:7].lower() == "neither"
        ids = list(pair) if neither and pair else list(order) if not neither or len(order) == 2 else []
        return (ids, "fail" if verdict == "pass" else verdict) if ids else None
    if found.group("end"):
        n = _count(found.group("n"))
        if n is None or n > len(order) or n == 0:
            return None
        first = found.group("end").lower() in ("first", "top")
        return (list(order[:n]) if first else list(order[-n:])), verdict
    excluded = set(named) or ({subject} if subject else set())
    others = [i for i in order if i not in excluded]
    wanted = _count(found.group("m"))
    if not excluded or not others or (wanted is not None and wanted != len(others)):
        return None
    if found.group("others").lower().rstrip().endswith("other") and len(others) != 1:  # "the other is our pick"
        return None
    return others, verdict


def only_one(clause: str, option_id: str, at: int) -> bool:
    """Whether ``clause`` (naming ``option_id`` at ``at``) says that option alone is left ("Only HS3 survives.",
    "SU-1 is the only one left", "only LH-401 makes it in time"): with a pass verdict, the others fail."""
    if _ONLY_BEFORE.search(clause[:at]) is None and _ONLY_AFTER.match(clause[at + len(option_id):]) is None:
        return False
    return verdict_of(clause) == "pass"


__all__ = ["group_verdict", "only_one"]
