"""The Selective Context core shared by the hand-off and trajectory baselines (layer 1: no model imports).

Selective Context (Li et al.) deletes the least informative pieces of a text, where a piece's information
is its self-information ``-log p`` under a language model. The model call belongs to the caller; this
module holds the two model-free steps both packages need: spreading token scores over words, and keeping
the most informative units in their original order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_WORD = re.compile(r"\S+")


def spread_over_words(text: str, pieces: Sequence[tuple[str, float]]) -> list[tuple[int, int, float]]:
    """(start, end, information) per whitespace word of ``text``, from scored token ``pieces`` (token text,
    information). Pieces are laid end to end over ``text`` (scaled when the detokenised length differs); a
    piece's information is split evenly over the words it touches."""
    words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    info = [0.0] * len(words)
    scale = len(text) / max(1, sum(len(token) for token, _ in pieces))
    position, first = 0.0, 0
    for token, value in pieces:
        start, end = position, position + len(token) * scale
        position = end
        while first < len(words) and words[first][1] <= start:
            first += 1
        last = first
        while last < len(words) and words[last][0] < end:
            last += 1
        touched = range(first, max(last, min(first + 1, len(words))))
        for k in touched:
            info[k] += value / len(touched)
    return [(s, e, info[k]) for k, (s, e) in enumerate(words)]


def most_informative(information: Sequence[float], n: int) -> list[int]:
    """Indices of the ``n`` highest-information units, in their original order (ties: the earlier unit)."""
    ranked = sorted(range(len(information)), key=lambda k: (-information[k], k))[:max(0, n)]
    return sorted(ranked)


__all__ = ["most_informative", "spread_over_words"]
