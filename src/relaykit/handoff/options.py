"""Which ids in a trace name options (``option_ids``): the ids of a letter prefix that two or more distinct ids
share, leaving out a family whose every mention follows a rating word ("rated AA1", "class B2": ratings, not
options)."""

from __future__ import annotations

import re
from collections import Counter

from relaykit.handoff.compact import family
from relaykit.handoff.lexicon import folded
from relaykit.handoff.text import DEFAULT_ID_RE

_RATING_WORDS = "rated|rating|ratings|grade|graded|class|certified|certification|classification|standard|protection"
_RATING = rf"\b(?:{_RATING_WORDS})"
_RATING_AT = re.compile(_RATING, re.IGNORECASE)
_RATING_FOLDED = re.compile(_RATING_WORDS)  # on folded text: its first letters let the search skip ahead
_CHUNK = 1 << 16


def rated_somewhere(trace: str) -> bool:
    """Whether ``_RATING_AT`` finds a rating word in ``trace``. Searching a trace that has none case-insensitively
    tries every position; here the words are looked for in the folded text (``lexicon.folded``: the same letters
    as case-insensitive matching takes them) a chunk at a time, and each place found is confirmed by
    ``_RATING_AT`` on the trace itself (its word boundary). Chunks overlap by more than a word's length."""
    for start in range(0, len(trace), _CHUNK):
        low = folded(trace[start:start + _CHUNK + 16])
        if any(_RATING_AT.match(trace, start + m.start()) for m in _RATING_FOLDED.finditer(low)):
            return True
    return False
_RATING_BEFORE = re.compile(_RATING + r"\s*(?:[:=]\s*|of\s+|an?\s+)?$", re.IGNORECASE)


def _ratings(trace: str, id_re: re.Pattern[str], family_of: dict[str, str]) -> set[str]:
    """The ids of families named only after a rating word ("rated IP67", "class A2"): values, not options."""
    rated: dict[str, bool] = {}
    for m in id_re.finditer(trace):
        name = family_of.get(m.group(0))
        if name is not None and rated.get(name, True):
            rated[name] = _RATING_BEFORE.search(trace[max(0, m.start() - 30):m.start()]) is not None
    return {i for i, name in family_of.items() if rated.get(name)}


_ID_REACH = 9
"""How far past a match's start ``DEFAULT_ID_RE`` reads (three capitals, a hyphen, four digits, and the character
its closing word boundary looks at): a search stopped that far past a start finds the match there unchanged."""


_RATING_STEMS = tuple(w for w in _RATING_WORDS.split("|") if not any(w != v and w.startswith(v)
                                                                    for v in _RATING_WORDS.split("|")))
"""The rating words without those another one starts ("ratings": "rating"): where one of these is not found,
no rating word is."""


def _rated_near(trace: str, found: list[str], family_of: dict[str, str]) -> set[str]:
    """What ``_ratings`` gives for ``DEFAULT_ID_RE``, reading only the id matches a rating word may precede: a
    family is rated when every match of its ids is, and a match is only where that id pattern matches (its
    matches cannot overlap, so a search over a stretch finds those of the whole trace there). ``_RATING_BEFORE``
    needs a rating word inside the 30 characters before the match: every place of one (``_RATING_STEMS`` found
    in the folded text, a chunk at a time) is searched for matches up to 30 characters past its end; each is
    checked as ``_ratings`` checks it, and a family is rated when its rated matches are all its matches
    (``found``: every match, as ``findall`` lists them)."""
    rated: dict[int, str] = {}
    for start in range(0, len(trace), _CHUNK):
        low = folded(trace[start:start + _CHUNK + 16])
        for stem in _RATING_STEMS:
            at = low.find(stem)
            while at >= 0:
                reach = start + at + len(stem) + 30
                for m in DEFAULT_ID_RE.finditer(trace, start + at, reach + _ID_REACH):
                    if m.start() <= reach and m.start() not in rated \
                            and _RATING_BEFORE.search(trace[max(0, m.start() - 30):m.start()]) is not None:
                        rated[m.start()] = m.group(0)
                at = low.find(stem, at + 1)
    if not rated:
        return set()
    hits = Counter(family_of[i] for i in rated.values())
    counts = Counter(found)
    totals = Counter({name: 0 for name in hits})
    for i, n in counts.items():
        if family_of[i] in hits:
            totals[family_of[i]] += n
    return {i for i, name in family_of.items() if name in hits and hits[name] == totals[name]}


def option_ids(trace: str, id_re: re.Pattern[str], exclude: frozenset[str]) -> frozenset[str] | None:
    """The ids that name options: those of a letter prefix shared by two or more distinct ids (so a stray
    "ISO-9001" is not an option), or every id when no prefix repeats. None when every match counts."""
    found = id_re.findall(trace) if not id_re.groups else [m.group(0) for m in id_re.finditer(trace)]
    every = set(found)
    family_of = {i: family(i) for i in every}  # once per id (a large trace names many)
    if rated_somewhere(trace):
        every -= _rated_near(trace, found, family_of) if id_re is DEFAULT_ID_RE else _ratings(trace, id_re, family_of)
    others = Counter(family_of[i] for i in every if i not in exclude)
    # an id the goal names is still an option when other ids of its family name options too (a persona that
    # mentions "H9" must not hide hotel H9); the goal's own id, a family of its own, is not one
    distinct = {i for i in every if i not in exclude or others[family_of[i]] >= 1}
    prefixes = Counter(family_of[i] for i in distinct)
    families = {p for p, n in prefixes.items() if n >= 2}
    return frozenset(i for i in distinct if family_of[i] in families or not families)


__all__ = ["option_ids", "rated_somewhere"]
