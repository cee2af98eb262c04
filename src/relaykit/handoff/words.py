"""The words and typed values of an attributed clause (``relaykit.handoff.evidence``; the reader's mixin
``ClauseWords``): what is evidence (not a stop, filler or verdict word, an option kind or id), typed values encoded
once per distinct amount, a goal's threshold restated in a check left out, the words written as labels."""

from __future__ import annotations

import re
from collections.abc import Sequence

from mypy_extensions import trait

from relaykit.handoff.compact_body import encode
from relaykit.handoff.lexicon import COMPARATORS, DROP_WORDS
from relaykit.handoff.reading import NO_TOKENS, compared_to, token_matches, tokens_inside
from relaykit.handoff.table import TOKEN_WORDS
from relaykit.handoff.text import format_number, normal_date, normal_time, quantity_parts

_COLON_LABEL = r"(?:^|[;,|(])\s*(?:[-*•]\s*)?(?P<label>[A-Za-z][A-Za-z /_-]{0,40}?)\s*:(?!//)\s*(?=\S)"
_EQUALS_LABEL = r"(?P<label2>\b[A-Za-z_][\w-]*)="
_LABEL = re.compile(f"{_COLON_LABEL}|{_EQUALS_LABEL}")
_LABEL_COLON = re.compile(f"{_COLON_LABEL}|(?P<label2>(?!))")  # the same groups, for a text without "="
_LABEL_EQUALS = re.compile(f"(?P<label>(?!))|{_EQUALS_LABEL}")  # and for one without ":"


def _another_amount(tokens: Sequence[re.Match[str]], k: int, unit: str | None) -> bool:
    """Whether the clause states another amount of ``unit`` than its ``k``-th token: the option's own value
    beside a restated bound ("5.1 km exceeds the 3.0 km limit")."""
    return any(j != k and t.lastgroup == "qty" and quantity_parts(t)[1] == unit for j, t in enumerate(tokens))


_OPEN = frozenset({"open", "Open"})


def _describes(tokens: Sequence[re.Match[str]], k: int) -> bool:
    """Whether the filler word at ``k`` ("open") describes the word after it ("open air", "open plan"), not a
    time ("open at 10:00", "open until late", "open 24 hours")."""
    after = tokens[k + 1] if k + 1 < len(tokens) else None
    return after is not None and after.lastgroup == "w" and after.group(0).lower() not in DROP_WORDS


@trait
class ClauseWords:
    """The reader's part that reads a clause's evidence tokens and labels (a mixin of ``evidence._Reader``)."""

    wanted: frozenset[str]
    bounds: dict[str | None, tuple[float, ...]]
    kinds: set[str]
    kept_words: dict[str, bool]
    kinds_known: int
    quantities: dict[str, tuple[float, str | None, str]]
    def _is_option(self, word: str) -> bool:
        raise NotImplementedError


    def _evidence(self, text: str, blocked: list[tuple[int, int]], spans: list[tuple[int, int]]) -> tuple[str, ...]:
        """The clause's words and typed values (encoded), except those in ``blocked``, and a goal's wanted
        value a fail phrase compares with ("does not match business")."""
        tokens = token_matches(text)
        wanted, bounds = self.wanted, self.bounds
        if len(self.kinds) != self.kinds_known:  # a word's fate depends on the kinds: they only grow
            self.kept_words.clear()
            self.kinds_known = len(self.kinds)
        kept_words, quantities = self.kept_words, self.quantities
        shut = tokens_inside(tokens, blocked) if blocked else NO_TOKENS
        out: list[str] = []
        for k, m in enumerate(tokens):
            kind = m.lastgroup
            if kind == "w":
                value = m[0]
                if blocked and (k in shut or (spans and value.lower() in wanted
                                              and compared_to(text, spans, m.start()))):
                    continue
                kept = kept_words.get(value)
                if kept is None:
                    kept = self._keeps(value)
                if kept or (value == "A" and k and tokens[k - 1].lastgroup == "w") \
                        or (value in _OPEN and _describes(tokens, k)):  # a grade: "grip A"; "open air"
                    out.append(value)
            elif kind == "qty":
                said = m[0]
                known = quantities.get(said)
                if known is None:  # the same amounts recur ("4 stars", "USD 180"): each is parsed once
                    number, unit = quantity_parts(m)
                    known = number, unit, encode(format_number(number), unit or "#")
                    if len(quantities) >= 8192:
                        quantities.clear()
                    quantities[said] = known
                limits = bounds.get(known[1])
                if not (limits and self._is_threshold(known[0], limits, tokens[max(0, k - 3):k])
                        and _another_amount(tokens, k, known[1])):  # "costs exactly our limit of 200 USD" stays
                    out.append(known[2])
            elif kind == "time":
                out.append(encode(normal_time(m.group(0)), "time"))
            elif kind == "date":
                out.append(encode(normal_date(m.group(0)), "date"))
        return tuple(out)

    def _keeps(self, value: str) -> bool:
        """Whether a word is evidence: not a stop, filler or verdict word, an option kind ("hotel"), or an
        option id (also "KE3's"). Remembered per word (a bounded memory, emptied when a kind is learnt)."""
        word = value.lower()
        kept = word not in DROP_WORDS and word not in self.kinds and not self._is_option(value) \
            and not (word.endswith("'s") and self._is_option(value[:-2]))  # "KE3's price"
        if len(self.kept_words) >= 8192:
            self.kept_words.clear()
        self.kept_words[value] = kept
        return kept

    def _labels(self, text: str) -> tuple[tuple[str, ...], ...]:
        """The words written as labels ("hourly rate: $2.70", "rate=2.70"), one tuple per label."""
        pattern = _LABEL if "=" in text and ":" in text else _LABEL_COLON if ":" in text else _LABEL_EQUALS
        return tuple(tuple(w.lower() for w in TOKEN_WORDS.findall(m.group("label") or m.group("label2")))
                     for m in pattern.finditer(text))

    def _is_threshold(self, number: float, limits: tuple[float, ...], before: Sequence[re.Match[str]]) -> bool:
        """A goal threshold restated in a check ("5.1 km exceeds the 3.0 km limit"), not the option's value:
        the number of a threshold of the same unit (``limits``; ``Quantity.same_as``), after a comparator."""
        close = 1e-9 * max(1.0, abs(number))
        for value in limits:
            if abs(number - value) <= close:
                return any(m.lastgroup == "w" and m.group(0).lower() in COMPARATORS for m in before)
        return False


__all__ = ["ClauseWords"]
