"""What a passing row of a compact evidence table need not write: the words the header's limits want.

A header cell ``region == eu-west`` (or ``amenities contains pool``) is a limit every row is checked against,
and a row marked ``+`` passed every limit. So a passing row that has the wanted word need not write it: the
reader (``relaykit.handoff.compact_read``) gives every passing row of the family the words no passing row
writes. The writer (``relaykit.handoff.compact``) leaves the word out only where that reads back exactly:

- every passing row of the family has it (a passing row the trace never gave the word must not gain it);
- the limit still speaks of the family once the word is gone: one family, or some other row writes it
  (``applying``: a limit speaks of a family where some row has its word);
- the limit is a cell of the first header. A ``constraints:`` line promises nothing: where some family's
  passing rows all lack a word the header's limit would give them, the limits go on that line instead.

Rows that are out keep their words (``us-east``, or ``=`` for the wanted word): they are the reasons.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from relaykit.handoff.compact_rules import Wanted, stems

PASS = "pass"


def shares(want: Wanted, words: Iterable[str]) -> bool:
    """Whether some word of ``words`` is one the limit wants (``want.words`` are lower case)."""
    return any(w.lower() in want.words for w in words)


def implied(wants: Sequence[Wanted], rows: Sequence[tuple[str | None, Sequence[str]]]) -> list[Wanted]:
    """The reader's side: of the limits that speak of a family (``wants``, from header cells), those whose
    words no passing row writes, where the family has a passing row; each passing row has them."""
    passing = [words for verdict, words in rows if verdict == PASS]
    return [w for w in wants if passing and not any(shares(w, words) for words in passing)]


@dataclass
class Promise:
    """The writer's side: per family, the limits whose words its passing rows leave out; ``broken`` where a
    family's passing rows all lack a word a header limit would give them (the limits then go on a
    ``constraints:`` line, which promises nothing)."""

    dropped: list[list[Wanted]] = field(default_factory=list)
    broken: bool = False

    @property
    def any(self) -> bool:
        return any(self.dropped)


class _Row(Protocol):
    body: str

    @property
    def verdict(self) -> str | None: ...


def _words(body: str) -> frozenset[str]:
    """A row body's tokens, lower case (its values too: no wanted word looks like one)."""
    return frozenset(body.lower().split(" "))


def promise(wants: Sequence[Wanted], families: Sequence[Sequence[_Row]]) -> Promise:
    """Which words each family's passing rows leave out, from each row's verdict and body (a wanted word never
    moves into a header, so a row writes it where its body has it). Bodies are split once per limit and
    family, never held: a table may have 100k rows."""
    out = Promise([[] for _ in families])
    one = len(families) == 1  # a table of one family: every limit speaks of it
    for want in wants:
        for k, rows in enumerate(families):
            having, passing, shared = [], [], False
            for row in rows:
                words = _words(row.body)
                has = not want.lacking(words)
                having.append(has)
                if row.verdict == PASS:
                    passing.append(has)
                    shared = shared or shares(want, words)
            if not passing or not (one or any(having)):
                continue  # no passing row, or the limit does not speak of this family
            others = any(h for row, h in zip(rows, having, strict=True) if row.verdict != PASS)
            if all(passing) and (one or others):
                out.dropped[k].append(want)
            elif not shared:  # the reader would give these passing rows the word: the promise is off
                return Promise([[] for _ in families], broken=True)
    return out


def leave_out(words: list[str], wants: Sequence[Wanted], protected: frozenset[str] = frozenset()) -> list[str]:
    """A passing row's words without the ones ``wants`` want (the reader gives them back), and without the label
    of the limit's name right before one ("certification none" under ``certified == none``: the label goes
    with its value, as it goes with ``=``), unless the goal wants that word too."""
    out: list[str] = []
    for word in words:
        want = next((w for w in wants if word.lower() in w.words), None)
        if want is None:
            out.append(word)
            continue
        if out and stems(out[-1]) & stems(want.name) and out[-1].lower() not in protected:
            out.pop()
    return out


__all__ = ["PASS", "Promise", "implied", "leave_out", "promise", "shares"]
