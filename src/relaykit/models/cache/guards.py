"""Guards a semantic hit must pass besides similarity: texts that embed alike but ask different things.

- ``same_negation``: as many negation cues ("not", "never", "don't", "without", "unless", ...).
- ``same_polarity``: the same poles of every opposition in the lexicon, in the same order ("approve" never
  serves "reject", "except" never serves "including", "now" never serves "later"), and no word negated by
  a prefix or suffix on one side only ("eligible" / "ineligible", "lock" / "unlock", "careful" / "careless").
- ``same_content``: not one content word swapped for another ("window seat" / "aisle seat").
- ``same_reference``: no possessive swapped for another person's ("my invoice" / "your invoice") and no tense for
  another ("who is" / "who was"); either side may have none (a paraphrase drops them).
- ``same_slots``: the same typed values (numbers with sign and unit, dates, times, ordinals, identifiers,
  months, weekdays, names, secrets) in the same roles: each value with the same role preposition
  ("from 3 pm" is not "to 3 pm"), and in the same order unless every value keeps its neighbouring word
  ("transfer 100 USD to account 200" never serves "transfer 200 USD to account 100").

A guard is a plain ``(query, cached_query) -> bool`` function; pass your own list to ``Cached(guards=...)``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from relaykit.models.cache.lexicon import (
    DEFAULT_POLES,
    FILLERS,
    LIGHT_WORDS,
    NEGATING_PREFIXES,
    NEGATIONS,
    OPPOSED_SUFFIXES,
    PHRASES,
    POSSESSIVES,
    TENSES,
    base_forms,
    pole_of,
)
from relaykit.models.cache.slots import Slot, Token, analyse, name_occurrences
from relaykit.text import STOPWORDS

CONTRACTION = re.compile(r"'(?:s|re|d|ll|ve|m)$")

Guard = Callable[[str, str], bool]


def _plain_words(tokens: list[Token]) -> list[str]:
    """The words no slot took, with two-word phrases ("turn on", "at least") read as one word."""
    words = [CONTRACTION.sub("", t.low).replace("'", "") for t in tokens
             if t.kind == "word" and t.slot is None and not t.consumed]
    out: list[str] = []
    i = 0
    while i < len(words):
        phrase = PHRASES.get((words[i], words[i + 1])) if i + 1 < len(words) else None
        out.append(phrase or words[i])
        i += 2 if phrase else 1
    return out


def negation_count(text: str) -> int:
    """How many negation cues ``text`` holds ("do not", "don't", "never", "without", "unless", ...)."""
    words = [t.low for t in analyse(text)[0] if t.kind == "word"]
    return sum(1 for w in words if w.replace("'", "") in NEGATIONS or w.endswith("n't"))


def same_negation(query: str, cached: str) -> bool:
    """"cancel my order" must not hit "do not cancel my order": the negation cues must agree."""
    return negation_count(query) == negation_count(cached)


def _pole_sequences(words: list[str]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for word in words:
        found = pole_of(word)
        if found is None:
            continue
        poles = out.setdefault(found[0], [])
        if not poles or poles[-1] != found[1]:
            poles.append(found[1])
    for concept, pole in DEFAULT_POLES.items():
        out.setdefault(concept, [pole])
    return out


def _stems(words: set[str]) -> set[str]:
    return {form for word in words for form in base_forms(word)}


def _negated_by_affix(ours: set[str], theirs: set[str]) -> bool:
    """Does a word on our side only negate, by a prefix or suffix, a word on their side only?"""
    their_stems = _stems(theirs)
    for word in ours:
        for prefix in NEGATING_PREFIXES:
            rest = word[len(prefix):]
            if word.startswith(prefix) and len(rest) >= 3 and not their_stems.isdisjoint(base_forms(rest)):
                return True
        for positive, negative in OPPOSED_SUFFIXES:
            if word.endswith(negative) and word[: -len(negative)] + positive in their_stems:
                return True
    return False


def same_polarity(query: str, cached: str) -> bool:
    """The same poles of every opposition, in order, and no affix-negated word on one side only."""
    a, b = _plain_words(analyse(query)[0]), _plain_words(analyse(cached)[0])
    if _pole_sequences(a) != _pole_sequences(b):
        return False
    only_a, only_b = set(a) - set(b), set(b) - set(a)
    return not (_negated_by_affix(only_a, only_b) or _negated_by_affix(only_b, only_a))


def _slots(text: str, names: set[str]) -> list[Slot]:
    tokens, slots = analyse(text)
    found = [s for s in slots if s.kind != "name"] + name_occurrences(tokens, names)
    found += [s for s in slots if s.kind == "name"]
    return sorted(found, key=lambda s: s.pos)


def same_slots(query: str, cached: str) -> bool:
    """The same typed values with the same role prepositions, in the same order, or in another order only
    when every value keeps its neighbouring word."""
    names = {s.value for text in (query, cached) for s in analyse(text)[1] if s.kind == "name"}
    a, b = _slots(query, names), _slots(cached, names)
    if Counter((s.kind, s.value, s.prep) for s in a) != Counter((s.kind, s.value, s.prep) for s in b):
        return False
    if [(s.kind, s.value) for s in a] == [(s.kind, s.value) for s in b]:
        return True
    return Counter((s.kind, s.value, s.prep, s.prev) for s in a) == Counter((s.kind, s.value, s.prep, s.prev)
                                                                            for s in b)


same_numbers = same_slots  # the guard's earlier name: numbers are one kind of slot


def _content_words(text: str) -> list[str]:
    words = _plain_words(analyse(text)[0])
    return [w for w in words if len(w) > 1 and w not in STOPWORDS and w not in FILLERS and w not in NEGATIONS
            and w not in LIGHT_WORDS and pole_of(w) is None]


def same_content(query: str, cached: str) -> bool:
    """Two requests that differ by exactly one content word swapped for another (not the same word in
    another form) are different requests: "window seat" is not "aisle seat", "part-time" not "full-time".
    A swap the opposition lexicon knows as synonyms ("buy" / "purchase") is left to ``same_polarity``."""
    rest = _content_words(cached)
    unmatched = []
    for word in _content_words(query):
        forms = set(base_forms(word))
        match = next((i for i, other in enumerate(rest) if not forms.isdisjoint(base_forms(other))), None)
        if match is None:
            unmatched.append(word)
        else:
            rest.pop(match)
    return not (len(unmatched) == 1 and len(rest) == 1)


def same_reference(query: str, cached: str) -> bool:
    """Whose thing and when: the possessives' persons and the verbs' tenses agree wherever both sides have some
    ("send my invoice" never serves "send your invoice", "who is the manager" never "who was the manager"); one side
    without any (a paraphrase that drops them: "can you tell me where my order is" / "where's my order") passes."""
    a = [t.low for t in analyse(query)[0] if t.kind == "word"]
    b = [t.low for t in analyse(cached)[0] if t.kind == "word"]
    for table in (POSSESSIVES, TENSES):
        ours, theirs = {table[w] for w in a if w in table}, {table[w] for w in b if w in table}
        if ours and theirs and ours != theirs:
            return False
    return True


DEFAULT_GUARDS: tuple[Guard, ...] = (same_negation, same_polarity, same_slots, same_content, same_reference)
