"""Remarks of the hand-off reader (``relaykit.handoff.evidence``): an id-less sentence that only judges is the
verdict of the option spoken of just before ("Crossed off because of the pets.", "Fine, keep it.", "this one is
out."), unless it speaks of several options ("none of the others", "all", "the rest")."""

from __future__ import annotations

import re

from relaykit.handoff.lexicon import (
    _APPROVAL_RE,
    _FAIL_EXTRA_RE,
    _FAIL_PHRASE_RE,
    _FAIL_RARE_RE,
    _PASS_RE,
    _WRONG_RE,
    folded,
    verdict_of,
)

_QUANTIFIED = re.compile(r"\b(?<!meets )(?<!meet )(?<!clears )(?<!satisfies )(?<!passes )(?<!fails )"  # "meets both"
                         r"(?:none|all(?!\s+(?:good|fine|set|clear)\b)|others?|every\w*|rest|remaining|both|each|"
                         r"any\w*|no option\w*)\b",
                         re.IGNORECASE)  # the word boundary first: most places fail there, before the lookbehinds
_LEADING = re.compile(r"^(?:(?:so|then|and|but|thus|hence|therefore)[\s,]+)?", re.IGNORECASE)
_INTERJECTION = re.compile(r"^(?:fine|ok|okay|yes|yep|yeah|no|nope|nah|right|well|sure|alright|good|great|agreed|"
                           r"sadly|unfortunately|honestly|frankly|actually|alas|hmm|ah|oh|nice|cool|perfect|meh|ugh)\s*[,!.–—-]+\s*",
                           re.IGNORECASE)
"""A word a verdict remark may open with ("Fine, keep it.", "No - drop it.", "Sadly, ruled out.")."""
_NEGATED_START = re.compile(r"(?:not|no longer|never|didn't|doesn't|won't|isn't|did not|does not|will not|is not)"
                            r"\s+(?:really\s+|quite\s+)?(?:an?\s+)?", re.IGNORECASE)
"""A negation a remark may open with ("Not in the running.", "Didn't make the cut.")."""


def quantified(text: str) -> bool:
    """Whether a clause speaks of several options ("none of the others", "all", "the rest")."""
    return _QUANTIFIED.search(text) is not None


def opens_with_verdict(text: str) -> bool:
    """Whether a sentence starts with a verdict phrase ("Crossed off because of the pets.", "So: ruled out.",
    "Fine, keep it.", "Not in the running."): a verdict about whatever the previous sentences described."""
    if _QUANTIFIED.search(text):  # "Rejected: none.", "Eliminated: all the others." speak of several options
        return False
    if _opens(text):
        return True
    said = _INTERJECTION.match(text)
    return said is not None and _opens(text[said.end():])


def _opens(text: str) -> bool:
    start = _LEADING.match(text)
    at = start.end() if start else 0
    rest = text[at:].lstrip(" :-")
    negated = _NEGATED_START.match(rest)  # "Not in the running any more." (but "Not for us." is one phrase)
    return _judges(rest) or (negated is not None and _judges(rest[negated.end():]))


def _judges(rest: str) -> bool:
    low = folded(rest)
    return bool(_FAIL_PHRASE_RE.match(low) or _FAIL_EXTRA_RE.match(low) or _FAIL_RARE_RE.match(low)
                or _PASS_RE.match(low)
                or _APPROVAL_RE.match(low) or _WRONG_RE.match(low))


_REMARK_WORDS = re.compile(r"[A-Za-z']+")
_THIS_ONE = re.compile(r"\b(?:this|that) one\b", re.IGNORECASE)
_NOT_A_REMARK = frozenset({"only", "one", "two", "three", "which", "who", "whichever", "if", "unless", "when",
                          "summary", "overall", "recommendation", "recommend", "conclusion", "finally", "best",
                          "cheapest", "closest", "nearest", "fastest", "largest", "biggest", "smallest", "lowest",
                          "highest", "shortest", "longest", "earliest", "latest", "newest"})
"""Words of a sentence about the whole search, not the option just described ("Recommendation: go with the
cheapest.", "Only one passes.")."""


def is_remark(text: str) -> bool:
    """Whether an id-less sentence is a verdict about the option spoken of just before: it opens with a verdict
    (``opens_with_verdict``), or it is short (six words at most), states a verdict and no value, and speaks of
    no other option ("this one is out.", "let's drop it.", "right, that works.")."""
    if opens_with_verdict(text):
        return True
    words = _REMARK_WORDS.findall(_THIS_ONE.sub("it", text))  # "this one" is the option spoken of
    if not 0 < len(words) <= 6 or _QUANTIFIED.search(text) or any(w.lower() in _NOT_A_REMARK for w in words):
        return False
    return not any(c.isdigit() for c in text) and verdict_of(text) is not None


def without_interjection(text: str) -> str:
    """A verdict remark without the word it opens with ("Fine, keep it." -> "keep it."); other text, and a
    remark whose first word is its verdict ("No-go."), as it is."""
    said = _INTERJECTION.match(text)
    if said is None or _QUANTIFIED.search(text) or _opens(text) or not is_remark(text[said.end():]):
        return text
    return text[said.end():]


__all__ = ["is_remark", "opens_with_verdict", "quantified", "without_interjection"]
