"""Which words of an id family's rows label its columns, and which of a row's words go into the header.

The compact writer (``relaykit.handoff.compact``) states a column's label once in its header (``price night
USD``) and leaves it out of every row. ``Labelling`` holds one family's rows and what their columns look like
(the writer's ``_Group`` fills ``labels`` in its pass over the rows), and the rules that decide word by word:
what else labels a column (a synonym of its label, ``_synonyms``; a word that stands where other rows name
it, ``_stand_in``; the noun its unit measures, ``_measure``), which words a row loses to its header
(``_strip``, ``_written``), which labels that lead a clause go once into the ``other`` header (``_free``,
``_pair_labels``) and which clauses hold only label words (``_bare_labels``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from relaykit.handoff.compact_body import BREAK, Item
from relaykit.handoff.compact_body import side_run as _side_run
from relaykit.handoff.compact_body import sides as _sides
from relaykit.handoff.compact_rules import (
    GENERIC_LABELS,
    MEASURE_NOUNS,
    MONEY_LABELS,
    RATE_ADJECTIVES,
    RATE_WORDS,
    filler_form,
    known_labels,
    singular,
    unit_words,
)
from relaykit.handoff.text import CURRENCY_CODES

_NONE: frozenset[str] = frozenset()
_CURRENCIES = frozenset(CURRENCY_CODES)  # the same codes, looked up by hash (a row's every value is checked)
_ANY_VALUE = MONEY_LABELS | GENERIC_LABELS | RATE_WORDS  # they stand next to any value, so they name no column
_BARE = frozenset({"yes", "no", "none", "not", "true", "false", "y", "n"})  # values that need their label


class RowLike(Protocol):
    id: str
    body: str
    reason: str

    @property
    def verdict(self) -> str | None: ...


Key = tuple[str, int]  # (unit, rank of the value among the row's values of that unit)
Moved = tuple[tuple[str, int], ...]  # words moved off a value, with their place relative to it


def _placed(items: list[Item], moved: list[int], i: int) -> Moved:
    """The words ``moved`` off value ``i`` (indices, maybe twice), lower case, in order, with their place."""
    if len(moved) == 1:  # most values lose one word: nothing to sort
        return ((items[moved[0]][0].lower(), moved[0] - i),)
    return tuple([(items[j][0].lower(), j - i) for j in sorted(set(moved))])


@dataclass
class Labelling:
    """The rows of one id family and what their columns look like, with the rules that say which words label
    them."""

    rows: list[RowLike]
    protected: frozenset[str]
    written_labels: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()
    columns: list[Key] = field(default_factory=list)
    labels: dict[Key, set[str]] = field(default_factory=dict)
    labelled: dict[str, None] = field(default_factory=dict)
    other: bool = False
    cache: list[tuple[list[Item], dict[int, Key]]] | None = None
    stripped: list[set[int]] | None = None
    freed: list[list[str]] | None = None  # each cached row's words as prepare() found them (see lines())
    before: list[set[str]] = field(default_factory=list)  # per column, its header words that lead its values

    near_words: dict[Key, set[str]] = field(default_factory=dict)  # every word seen touching a column's values
    label_words: frozenset[str] | None = None  # every word that labels something here (see _bare_labels)
    priced_rates: frozenset[str] = frozenset()  # rate adjectives seen next to a price (see _bare_labels)
    goal_names: frozenset[str] = frozenset()  # the goal's attribute names, singular (``names`` adds reasons)
    pairs: set[tuple[str, str]] = field(default_factory=set)  # two-word labels (see _pair_labels)
    phrases: frozenset[tuple[str, str]] = frozenset()  # the goal's two-word attribute names ("work mode")
    valued: dict[Key, set[str]] = field(default_factory=dict)  # see _note_valued
    goal_stems: frozenset[str] = frozenset()  # the first five letters of the longer goal names
    bound_words: dict[Key, frozenset[str]] = field(default_factory=dict)  # see bound_words()
    side_words: dict[tuple[Key, bool], tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict)
    touching: dict[Key, tuple[int, Counter[str], Counter[str]]] = field(default_factory=dict)  # see _stand_in
    keep: bool = False  # hold the rows parsed by _labels for load() (see compact._HELD_ROWS)
    bare_kinds: dict[str, tuple[bool, bool, bool, bool]] = field(default_factory=dict)  # see _bare_kind
    free_kinds: dict[str, tuple[str, bool, bool, bool, bool, bool]] = field(default_factory=dict)  # see _free_kind

    def _note_valued(self, items: list[Item], i: int, key: Key) -> None:
        """Remember the word right before value ``i`` when a label or name stands before it ("location
        hybrid 6 weeks"): it is the value of that label, never a label of ``i``."""
        if i >= 2 and items[i - 1][1] is None and items[i - 2][1] is None \
                and (items[i - 2][0].lower() in self.names or items[i - 2][0].lower() in self.written_labels):
            self.valued.setdefault(key, set()).add(items[i - 1][0].lower())

    def _synonyms(self, slots: dict[int, Counter[str]], word: str, rows: int, valued: Iterable[str],
                  unit: str) -> set[str]:
        """The labels that stand right before the value where a label does in other rows ("price 288" /
        "rate 311"): every row has a word there, each in two rows at least (a value seen once is a value),
        plain lower-case words, none the goal wants, none after a label (``valued``). A word in every row is
        a label already; this takes its synonyms too. Beside a word that names any value ("price"), only
        words known to name this one ("rate", the goal's names): "premium 300 USD" / "price 120 USD" keeps
        "premium", which may be a cabin."""
        here = slots.get(-1, Counter())
        if here[word] == 0 or sum(here.values()) < rows or any(
                n < 2 or not w.isalpha() or not w.islower() or w in self.protected for w, n in here.items()) \
                or not set(here).isdisjoint(valued):
            return set()
        if word in _ANY_VALUE:
            known = known_labels(unit, True) | MEASURE_NOUNS.get(unit, _NONE) | unit_words(unit)
            if any(w not in known and w not in self.names and w not in self.written_labels for w in here):
                return set()
        return set(here)

    @staticmethod
    def _alone(slots: dict[int, Counter[str]], word: str, candidates: set[str], rows: int) -> bool:
        """At the word's usual place, only label candidates stand, and some stands in every row (a word
        that some rows lack with nothing in its place might be an optional value: "breakfast")."""
        place = max(slots, key=lambda s: slots[s][word])
        return all(other in candidates for other in slots[place]) and sum(slots[place].values()) >= rows

    def _strip(self, items: list[Item], keys: dict[int, Key]) -> tuple[set[int], dict[Key, Moved]]:
        """The word indices that move to the header, and each value's moved words (its label here)."""
        gone: set[int] = set()
        sides: dict[int, tuple[list[int], list[int]]] = {}
        said: dict[int, list[int]] = {}  # by value index (a row's keys are distinct), the prices first
        for i, key in keys.items():
            sides[i] = _sides(items, i)
            if key[0] in _CURRENCIES:
                said[i] = []
        money = list(said)
        # what a price is per binds to the price (after it, then before it)
        for side in (1, 0):
            for i in money:
                if sides[i][side]:
                    moved = _side_run(items, sides[i][side], gone, RATE_WORDS, _NONE, _NONE, _NONE)
                    gone.update(moved)
                    said[i] += moved
        # then a word before a value is its label, then one after
        known = self.side_words
        written = bool(self.written_labels)  # without them, _written finds none
        for before in (True, False):
            names, side = (self.names, 0) if before else (_NONE, 1)
            for i, key in keys.items():
                moved = said.setdefault(i, [])
                if sides[i][side]:
                    labels, bound = known.get((key, before)) or self._side_words(key, before)
                    # "nightly" of "nightly rate of USD 270": past a price's label, what it is per goes with it
                    per = RATE_ADJECTIVES if before and key[0] in _CURRENCIES else _NONE
                    run = _side_run(items, sides[i][side], gone, labels, names, bound, per)
                    if before and written:  # (no word right before the value: _written finds none either)
                        run += self._written(items, i, gone)  # may take the run's words again: the set drops them
                    gone.update(run)
                    moved += run
        return gone, {keys[i]: _placed(items, js, i) if js else () for i, js in said.items()}

    def _side_words(self, key: Key, before: bool) -> tuple[frozenset[str], frozenset[str]]:
        """The words that label a value of column ``key`` on one side, and the words its bound and unit say
        (remembered per column: ``labels`` and ``bound_words`` are fixed before any row is stripped)."""
        found = self.side_words.get((key, before))
        if found is None:
            labels = frozenset(self.labels.get(key, _NONE) | known_labels(key[0], before) | self._measure(key))
            bound = frozenset(self.bound_words.get(key, _NONE) | unit_words(key[0]))
            found = (labels | self._stand_in(key, before, labels, bound), bound)
            self.side_words[(key, before)] = found
        return found

    def _measure(self, key: Key) -> frozenset[str]:
        """The noun that says what the column's unit measures ("memory" of "48 GB memory", "uptime" of "99.9%
        uptime"), where the column is the only one of its unit and no other such noun touches its values ("16
        GB memory" / "512 GB storage" might be two attributes in one column)."""
        nouns = MEASURE_NOUNS.get(key[0], _NONE)
        found = nouns & self.near_words.get(key, set()) - self.protected
        if len(found) != 1 or any(k[0] == key[0] and k != key for k in self.columns):
            return _NONE
        return frozenset(found)

    def _stand_in(self, key: Key, before: bool, labels: frozenset[str], bound: frozenset[str]) -> set[str]:
        """The word that stands right next to the column's values where other rows hold its name there ("48 GB
        cards" / "48 GB memory": "cards" says the bound, so "memory" names the column too): every row has a word
        at that place, all of them the column's bound or unit words (before the value, its labels too) but one
        plain lower-case word, in two rows at least, that the goal does not want. A place where some rows hold
        nothing ("120 USD breakfast" / "130 USD") or two other words take turns ("premium" / "economy") holds
        values; so does one beside a word that names any value or what a price is per ("premium 300 USD" /
        "price 120 USD", "150 USD breakfast" / "120 USD night")."""
        rows, before_counts, after_counts = self.touching.get(key, (0, Counter(), Counter()))
        here = before_counts if before else after_counts
        if sum(here.values()) < rows:
            return set()
        # after a value, not its labels: the next clause's label stands there too
        free = [w for w in here if w in _ANY_VALUE or not (singular(w) in bound or (before and w in labels))]
        if len(free) != 1 or here[free[0]] < 2 or here[free[0]] == rows:
            return set()
        word = free[0]
        if not (word.isalpha() and word.islower()) or word in self.protected or word in _ANY_VALUE \
                or word in self.valued.get(key, _NONE):
            return set()
        return {word}

    def _written(self, items: list[Item], i: int, gone: set[int]) -> list[int]:
        """The words right before value ``i`` that the trace wrote as a label ("hourly rate: €100")."""
        moved = []
        j = i - 1
        while j >= 0 and items[j][1] is None and j not in gone:
            word = items[j][0].lower()
            if word not in self.written_labels or word in self.protected:
                break
            moved.append(j)
            j -= 1
        return moved

    def _pair_labels(self, seen: dict[str, list[tuple[str, str]]]) -> None:
        """Two-word labels (``departure window``): a goal attribute name that follows a label taken out in
        every row where that label stands (two at least), before words that differ from row to row, or
        that the goal names as one ("work mode of hybrid"). So "cabin premium economy" keeps "premium"
        (other rows say "cabin business"), and "facilities spa pool" keeps "spa" (no goal name)."""
        for first, after in seen.items():
            seconds = {n for n, _ in after}
            values = {m for _, m in after}
            second = next(iter(seconds))
            if len(after) >= 2 and len(seconds) == 1 and singular(second) in self.goal_names \
                    and "" not in values and (len(values) >= 2 or (first, second) in self.phrases) \
                    and second not in self.protected:
                self.pairs.add((first, second))
                self.labelled[second] = None

    def _free(self, items: list[Item], gone: set[int], labelled: dict[str, None],
              seen: dict[str, list[tuple[str, str]]] | None = None) -> list[str]:
        """The row's words that stay: not moved or bare labels (``gone``, see ``_bare_labels``), and not the
        label that leads a clause naming a category (``region us-east``, ``pets allowed``); such labels go once
        into the ``other`` header. ``seen`` gathers the two words after each label taken out (for
        ``_pair_labels``)."""
        out: list[str] = []
        leading = True  # nothing of this clause kept yet
        stripped = ""  # the word before, when it was a label taken out
        last = len(items) - 1
        kinds = self.free_kinds
        for j, (word, unit) in enumerate(items):
            if unit == BREAK:
                leading = True
                continue
            if unit is not None or j in gone:
                continue
            lowered, filler, named, goal_name, leading_label, free = kinds.get(word) or self._free_kind(word)
            if filler:
                continue  # "charged", "offered": how the trace said it, not what it said
            label = leading_label if leading else self._labels_too(lowered, goal_name, stripped)
            after = items[j + 1][0].lower() if label and j < last and items[j + 1][1] is None else ""
            if label and free and after and after not in _BARE:
                # a clause's leading label, or the goal's name for an attribute before a word elsewhere in it
                # ("airline easyJet window night cabin economy"): said once in the header
                labelled[lowered] = None
                # one label word at a time ("cabin premium economy" keeps "premium"), but for a label the
                # trace wrote as one ("Departure Window" over a table column) or a pair (_pair_labels)
                if seen is not None:
                    then = items[j + 2][0].lower() if j + 1 < last and items[j + 2][1] is None else ""
                    seen[lowered].append((after, then))
                leading = False
                stripped = lowered
                continue
            if not leading and out and out[-1].lower() not in _BARE and named \
                    and free and items[j + 1:j + 2] in ([], [(BREAK, BREAK)]):
                continue  # the goal's name after the clause's value ("national network"): the header says it
            out.append(word)
            leading, stripped = False, ""
        return out

    def _free_kind(self, word: str) -> tuple[str, bool, bool, bool, bool, bool]:
        """What ``_free`` asks of a word, worked out once per family (``free_kinds``): its lower case; whether it
        is a filler verb form (not protected); a goal name (singular); one or the stem of a long one; a label
        where it leads a clause (that, or a name, or a label the trace wrote); not protected."""
        lowered = word.lower()
        free = lowered not in self.protected
        named = singular(lowered) in self.goal_names
        goal_name = named or lowered[:5] in self.goal_stems
        leading_label = goal_name or lowered in self.names or lowered in self.written_labels
        kind = (lowered, filler_form(lowered) and free, named, goal_name, leading_label, free)
        self.free_kinds[word] = kind
        return kind

    def _labels_too(self, word: str, goal_name: bool, stripped: str) -> bool:
        """Whether a word past a clause's start labels too: the goal's name for an attribute (right after a label
        taken out only where the trace wrote it as a label or it pairs with that label), or the second word of
        a label the trace wrote ("work mode: onsite")."""
        if goal_name and (not stripped or word in self.written_labels or (stripped, word) in self.pairs):
            return True
        return stripped in self.written_labels and word in self.written_labels

    def _bare_labels(self, items: list[Item]) -> set[int]:
        """The words of clauses that hold no value and only label words (``capacity ;`` left over from
        "MR02 capacity check: 6 seats", whose value the row already holds; ``price hour ;``): they say nothing."""
        if self.label_words is None:  # not the reasons' words: "drops out because of us-west" names a value
            # not RATE_WORDS on their own: "departure window night", "| night |", "billed monthly" are values
            found = self.written_labels | self.goal_names
            sides = (self._side_words(key, before)[0] for key in self.columns for before in (True, False))
            self.label_words = frozenset(found.union(*self.labels.values(), *sides) - self.protected - RATE_WORDS)
            # a rate adjective seen next to a price of this family ("hourly rate 4.10 USD") is that price's label
            self.priced_rates = frozenset(w for key, near in self.near_words.items() if key[0] in CURRENCY_CODES
                                          for w in near) & RATE_ADJECTIVES
        out: set[int] = set()
        start, bare = 0, True  # where the clause began, and whether all of it so far is label words
        # a money label in the clause; what a price is per ("price hour": a label too); a rate adjective last
        # ("billed monthly": a value), where before a label it only qualifies it ("hourly uptime", left over
        # from "hourly rate and uptime SLA" once the row holds both values)
        priced = per = last = False
        kinds = self.bare_kinds
        for j, (word, unit) in enumerate([*items, (BREAK, BREAK)]):
            if unit == BREAK:
                if bare and j > start and (priced or not (per or last)):
                    out.update(range(start, min(j, len(items))))
                start, bare, priced, per, last = j + 1, True, False, False, False
            elif unit is not None:
                bare = False  # a value: not a bare clause (so what else it holds no longer matters)
            elif bare:
                money, rate_per, rate_last, bare = kinds.get(word) or self._bare_kind(word)
                priced = priced or money
                per = per or rate_per
                last = rate_last  # "hourly" alone, left over from "hourly rate"
        return out

    def _bare_kind(self, word: str) -> tuple[bool, bool, bool, bool]:
        """What ``_bare_labels`` asks of a word, worked out once per family (``bare_kinds``): whether it is a
        money label, what a price is per (not a rate adjective), a rate word no price here had beside it, a label
        word (``label_words`` or a rate word; a long goal name's stem)."""
        low = word.lower()
        rate = low in RATE_WORDS and low not in self.protected
        found = self.label_words or _NONE
        label = low in found or singular(low) in found or (low[:5] in self.goal_stems and low not in self.protected) \
            or rate
        kind = (low in MONEY_LABELS, rate and low not in RATE_ADJECTIVES, rate and low not in self.priced_rates, label)
        self.bare_kinds[word] = kind
        return kind


__all__ = ["Key", "Labelling", "Moved", "RowLike"]
