"""Shared text and retrieval primitives: one word tokeniser, one stop-word list, one sentence splitter,
TF-IDF weights, and ``pack`` (fill a token budget greedily). Every feature package uses these; none keeps
its own copy.

Everything here is a pure function over strings, linear in the input.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Literal, TypeVar

T = TypeVar("T")

WORD = re.compile(r"[a-z0-9_]+(?:[.'][a-z0-9_]+)*")
"""A lower-cased word: letters, digits and underscores, with inner dots or apostrophes (1.5, don't)."""

_STOP_TEXT = (
    "a an the and or of to in on at for with by from into onto about over under after before as is are was were "
    "be been being it its this that these those then than so do does did not no yes you your we our they their "
    "he she his her i me my will would should can could may might must have has had if else when which who whom "
    "what how where why all any some there here out up down"
)
STOPWORDS = frozenset(_STOP_TEXT.split())
"""English function words that carry no content for ranking (identifiers and numbers are never stop words)."""


TERM = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)*|#?[A-Z]?\d[\w.-]*\w|#?[A-Z]?\d|[A-Za-z_][A-Za-z0-9_']*")
"""A word or identifier in its original case: e-mail addresses, ids such as #W123 or H07, and numbers with
inner dots (2.5) stay whole, for text that must keep its identifiers verbatim."""


def terms(text: str) -> list[str]:
    """The words and identifiers of ``text`` in their original case (see ``TERM``); ``words`` lower-cases."""
    return TERM.findall(text)


def words(text: str) -> list[str]:
    """The lower-cased words of ``text`` (see ``WORD``)."""
    return WORD.findall(text.lower())


def content_words(text: str) -> list[str]:
    """``words(text)`` without ``STOPWORDS``."""
    return [w for w in words(text) if w not in STOPWORDS]


_BOUNDARY = re.compile(r"(?<=[.!?])[ \t]+(?=[A-Z0-9\"'(\[$£€¥])|[ \t]*(?:\r?\n)+[ \t]*")


def iter_lines(text: str) -> Iterator[str]:
    """Lines one at a time (``str.splitlines`` would copy the whole text at once)."""
    start, size = 0, len(text)
    while start < size:
        end = text.find("\n", start)
        end = size if end < 0 else end
        yield text[start:end]
        start = end + 1


def iter_sentences(text: str) -> Iterator[str]:
    """The sentences of ``text`` in order: split at line breaks and at ``.!?`` before a capital or digit."""
    for line in iter_lines(text):
        yield from line_sentences(line)


_LINE_BOUNDARY = re.compile(r"[.!?]([ \t]+)(?=[A-Z0-9\"'(\[$£€¥])")
"""``_BOUNDARY`` inside a line: the same spaces (group 1), found several times faster (the stop is matched, not
looked behind at from every position)."""


def line_sentences(line: str) -> list[str]:
    """The sentences of one line (a text without a line break), as ``iter_sentences`` splits it."""
    if "\n" in line:
        return list(iter_sentences(line))
    out = []
    if ". " in line or "! " in line or "? " in line or "\t" in line:
        start = 0
        for match in _LINE_BOUNDARY.finditer(line):
            piece = line[start:match.start(1)].strip()
            if piece:
                out.append(piece)
            start = match.end(1)
        line = line[start:]
    line = line.strip()
    if line:
        out.append(line)
    return out


def split_sentences(text: str) -> list[str]:
    return list(iter_sentences(text))


IdfForm = Literal["smooth", "plain"]


def idf_weights(documents: Iterable[Iterable[str]], form: IdfForm = "smooth") -> dict[str, float]:
    """Inverse document frequency of every term over ``documents`` (each an iterable of terms).

    ``smooth``: ln((1 + n) / (1 + df)) + 1 (never zero, scikit-learn's default); ``plain``: ln((1 + n) / df)
    (a term in every document weighs ln((n + 1) / n), close to zero).
    """
    doc_freq: Counter[str] = Counter()
    n = 0
    for doc in documents:
        doc_freq.update(set(doc))
        n += 1
    if form == "smooth":
        return {t: math.log((1 + n) / (1 + df)) + 1.0 for t, df in doc_freq.items()}
    return {t: math.log((1 + n) / df) for t, df in doc_freq.items()}


def tfidf_mean(terms: Sequence[str], idf: dict[str, float]) -> float:
    """Mean TF-IDF weight of one document's terms (0 for an empty document)."""
    if not terms:
        return 0.0
    return sum(c * idf.get(t, 0.0) for t, c in Counter(terms).items()) / len(terms)


def pack(items: Iterable[T], cost: Callable[[T], int], budget: int, *, separator: int = 0) -> list[T]:
    """Items taken in the given order while their cost (plus ``separator`` each) fits ``budget``.

    Items that do not fit are skipped, not a stopping point: a later, smaller item may still fit.
    """
    taken: list[T] = []
    used = 0
    for item in items:
        c = cost(item) + separator
        if used + c <= budget:
            taken.append(item)
            used += c
    return taken


def runs(items: Iterable[T], cost: Callable[[T], int], budget: int | None, *,
         max_items: int | None = None) -> list[list[T]]:
    """Consecutive runs of ``items`` whose cost stays within ``budget`` and whose length within ``max_items``
    (None: no limit). Nothing is dropped: an item over ``budget`` on its own gets a run of its own."""
    out: list[list[T]] = []
    current: list[T] = []
    used = 0
    for item in items:
        c = cost(item) if budget is not None else 0
        full = (max_items is not None and len(current) >= max_items) or (
            budget is not None and bool(current) and used + c > budget)
        if full:
            out.append(current)
            current, used = [], 0
        current.append(item)
        used += c
    if current:
        out.append(current)
    return out


__all__ = [
    "STOPWORDS",
    "TERM",
    "WORD",
    "content_words",
    "idf_weights",
    "iter_lines",
    "iter_sentences",
    "line_sentences",
    "pack",
    "runs",
    "split_sentences",
    "terms",
    "tfidf_mean",
    "words",
]
