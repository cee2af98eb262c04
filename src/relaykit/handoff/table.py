"""The evidence table of ``extract-rules`` (``relaykit.handoff.evidence`` reads a trace into it): one row per
option id, the goal's constraint register and the clauses carried verbatim; its text, JSON and ``Extraction``
forms."""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from relaykit.handoff.compact import render
from relaykit.handoff.compact_body import decode
from relaykit.handoff.compact_rules import read_constraint
from relaykit.handoff.lexicon import COMPARATORS, DROP_WORDS, TOKEN
from relaykit.handoff.schema import Check, Constraint, Extraction, OptionEvaluation
from relaykit.handoff.text import CURRENCY_CODES, UNITS, Quantity, find_quantities
from relaykit.memo import remembered


def _holds(body: str, token: str) -> bool:
    """Whether ``body`` (space-separated) has ``token`` as a whole token: with a space on each side, it is in the
    body with a space on each side (``Row.extend`` keeps that padded body across its tokens)."""
    return f" {token} " in f" {body} "


@dataclass(slots=True)
class Row:
    """What the trace says about one option: compact evidence, verdicts, and source sentence indices.

    Kept small on purpose (a 100 MB trace may name a million options): the evidence is one string (typed
    values normalised, so a repeat is found in it), the sentence indices sit in an ``array``.
    """

    id: str
    body: str = ""
    verdicts: str = ""  # "p" / "f" per verdict clause
    reason: str = ""  # why it fails, as the trace names it ("price,distance")
    sentences: array[int] = field(default_factory=lambda: array("l"))

    @property
    def tokens(self) -> list[str]:
        """The evidence, a word or a typed value (``2.7 USD``, ``14:00``) each."""
        return [decode(t) for t in self.body.split(" ") if t and t != ";"]

    @property
    def evidence(self) -> str:
        """The body without clause breaks."""
        return " ".join(self.tokens)

    def add(self, token: str) -> None:
        """Append a word or an encoded value unless the row already holds it."""
        if not _holds(self.body, token):
            self.body = f"{self.body} {token}" if self.body else token

    def extend(self, tokens: Iterable[str]) -> None:
        """``add`` each token in turn (one call per clause, not one per token; the test of ``_holds``, the
        padded body kept between tokens)."""
        body = self.body
        padded = f" {body} "
        for token in tokens:
            if f" {token} " not in padded:
                if body:
                    body = f"{body} {token}"
                    padded = f"{padded}{token} "  # " {body} " of the longer body, without copying it twice
                else:
                    body = token
                    padded = f" {token} "
        self.body = body

    @property
    def verdict(self) -> str | None:
        """``"eliminated"`` when any clause fails it, ``"pass"`` when some pass and none fail, else None."""
        if "f" in self.verdicts:
            return "eliminated"
        return "pass" if self.verdicts else None

    def add_break(self) -> None:
        """Mark the end of a clause (``;``): the compact table never reads a label across it."""
        if self.body and not self.body.endswith(" ;"):
            self.body += " ;"

    def add_clause(self, tokens: Iterable[str]) -> None:
        """A clause break, then the clause's tokens (``add_break``, then ``extend``): how the reader adds each
        attributed clause."""
        self.add_break()
        self.extend(tokens)

    def add_reason(self, reason: str) -> None:
        known = self.reason.split(",") if self.reason else []
        fresh = [r for r in reason.split(",") if r not in known]
        self.reason = ",".join([*known, *fresh][:4])

    def text(self) -> str:
        """The row as one labelled line: ``H01: price 145 USD ... | eliminated (distance)``."""
        verdict = self.verdict
        why = f" ({self.reason})" if verdict == "eliminated" and self.reason else ""
        return f"{self.id}: {self.evidence}" + (f" | {verdict}{why}" if verdict else "")


@dataclass
class EvidenceTable:
    """The compact hand-off: the goal's constraint register, one row per option, unattributed clauses."""

    goal: str
    constraints: list[Constraint]
    rows: dict[str, Row]
    notes: list[str]
    labels: frozenset[str] = frozenset()  # words the trace used as labels ("rate:", "price=", table headers)

    def constraint_line(self, constraints: list[Constraint] | None = None) -> str:
        chosen = self.constraints if constraints is None else constraints
        return "; ".join(f"{c.name} {c.operator} {_threshold(c.threshold)}" for c in chosen)

    def text(self) -> str:
        """The default payload (``relaykit.handoff.compact``): the constraints no column states, a header
        per id family (a column's bound in its header), one short line per option, then ``note:`` lines."""
        names = frozenset(w.lower() for c in self.constraints for w in TOKEN_WORDS.findall(c.name)) - DROP_WORDS
        protected = self.protected_words(names)
        table, left, kept = render(self.rows.values(), protected, self.labels, names, self.constraints)
        said = _said(left)
        lines = _on_line(table, said) if kept.broken else _with_constraints(table, said)
        if kept.any and lines[0].startswith("constraints:"):  # passing rows left out words that line cannot give
            table, left, _ = render(self.rows.values(), protected, self.labels, names, self.constraints, False)
            lines = _with_constraints(table, _said(left))
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)

    def labelled_text(self) -> str:
        """The table as labelled lines, one per option (``H01: price 145 USD ... | pass``)."""
        return "\n".join([row.text() for row in self.rows.values()] + [f"note: {n}" for n in self.notes])

    def protected_words(self, names: frozenset[str] = frozenset()) -> frozenset[str]:
        """Words that never move into a header: the goal's wanted values ("us-east", "pool") and every other
        content word of the goal that is not an attribute's name (a label the trace wrote, a constraint's
        name, a reason's word) or a unit."""
        wanted = {w.lower() for c in self.constraints if c.operator in ("==", "contains", "in")
                  for w in TOKEN_WORDS.findall(c.threshold)}
        reasons = {w for row in self.rows.values() for w in TOKEN_WORDS.findall(row.reason)}
        said = {w.lower() for w in TOKEN_WORDS.findall(self.goal)} - DROP_WORDS - COMPARATORS - _UNIT_WORDS
        return frozenset(wanted | (said - names - reasons - self.labels))

    def to_extraction(self) -> Extraction:
        """The table in the shared ``Extraction`` schema (the wire form of the model ``extract`` method):
        each typed value under the word before it, the other words under ``other``, the verdict as a check."""
        options = []
        for row in self.rows.values():
            verdict = row.verdict
            checks = [Check(constraint="verdict", verdict="fail" if verdict == "eliminated" else "pass",
                            evidence=row.text())] if verdict else []
            options.append(OptionEvaluation(id=row.id, attributes=_attributes(row.tokens), checks=checks,
                                            eliminated=verdict == "eliminated",
                                            elimination_evidence=row.text() if verdict == "eliminated" else None))
        feasible = [o.id for o in options if o.checks and not o.eliminated]
        empty = None if feasible else ("no option identifiers were found in the trace" if not options
                                       else f"all {len(options)} options were eliminated or not confirmed")
        return Extraction(goal=self.goal, constraints=self.constraints, options=options, feasible_ids=feasible,
                          empty_result=empty)

    def to_json(self) -> dict[str, Any]:
        """The JSON payload: no nulls, evidence named by sentence index instead of repeated."""
        options = []
        for row in self.rows.values():
            item: dict[str, Any] = {"id": row.id, "evidence": row.evidence, "sentences": list(row.sentences)}
            if row.verdict:
                item["verdict"] = row.verdict
            if row.verdict == "eliminated" and row.reason:
                item["reason"] = row.reason
            options.append(item)
        out: dict[str, Any] = {"constraints": [c.model_dump() for c in self.constraints], "options": options}
        if self.notes:
            out["notes"] = self.notes
        return out


TOKEN_WORDS = re.compile(r"[^\W\d_][\w-]*")


def _said(constraints: Iterable[Constraint]) -> list[str]:
    """The register's constraints as a payload writes them (``price <= 400 USD``)."""
    return [f"{c.name} {c.operator} {_threshold(c.threshold)}" for c in constraints]


def _on_line(table: list[str], said: list[str]) -> list[str]:
    """The table after a ``constraints:`` line of its own."""
    return [f"constraints: {'; '.join(said)}", *table]


def _with_constraints(table: list[str], said: list[str]) -> list[str]:
    """The table with the constraints no column states as cells of its first header (``| region == us-east``:
    two tokens fewer than a ``constraints:`` line of its own), or on that line where a cell could be misread
    (no table; a ``|`` in a constraint; a column cell that reads as a constraint)."""
    if not said:
        return table
    head = table[0].split(" | ")[1:] if table else []
    if not table or any("|" in c or "\n" in c or read_constraint(c) is None for c in said) \
            or any(read_constraint(c) is not None for c in head):
        return _on_line(table, said)
    return [table[0] + "".join(f" | {c}" for c in said), *table[1:]]
_UNIT_WORDS = frozenset(u.lower() for u in (*UNITS, *UNITS.values(), *CURRENCY_CODES, "dollars", "euros", "pounds"))


def _threshold(text: str) -> str:
    """A constraint threshold as the register states it: its quantity normalised ("8.0 km from the centre"
    -> "8 km"), other thresholds as written."""
    found = find_quantities(text)
    return found[0].normalised() if len(found) == 1 else text


def _attributes(tokens: list[str]) -> dict[str, str]:
    words: list[str] = []
    other: list[str] = []
    out: dict[str, str] = {}
    for token in tokens:
        if typed(token):
            found = find_quantities(token)
            name = words.pop() if words else _unit_label(found[0] if found else None)
            out.setdefault(name.lower(), token)
            other += words
            words = []
        else:
            words.append(token)
    other += words
    if other:
        out["other"] = " ".join(other)
    return out


def _unit_label(q: Quantity | None) -> str:
    if q is None or q.unit is None:
        return "value"
    return "price" if q.is_money else {"km": "distance", "miles": "distance", "m": "distance"}.get(q.unit, q.unit)


_DIGIT = re.compile(r"\d")


@remembered
def typed(text: str) -> bool:
    """Whether ``text`` holds a typed value (money, number + unit, time, date)."""
    if not _DIGIT.search(text):  # every typed value has a digit
        return False
    return any(m.lastgroup in ("qty", "time", "date") for m in TOKEN.finditer(text))


__all__ = ["TOKEN_WORDS", "EvidenceTable", "Row", "typed"]
