"""``extract-rules``: the structured hand-off built by parsing, with no model call.

The trace is read one sentence at a time. A sentence that names exactly one option identifier either
states attributes ("label value" clauses separated by ";") or a check (it carries a verdict word:
pass, fail, meets, exceeds, eliminated, ...). Constraints come from the goal. Nothing here knows about
hotels or flights: labels, entity kinds ("Hotel", "Vendor", "Slot") and identifiers are read from the text.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from relaykit.handoff.constraints import evaluate, names_match, parse_constraints, singular
from relaykit.handoff.schema import Check, Constraint, Extraction, OptionEvaluation
from relaykit.handoff.text import (
    Quantity,
    compile_id_pattern,
    find_quantities,
    format_number,
    iter_sentences,
    last_verdict,
    mentions_elimination,
)

PRICE_LABELS = frozenset({"", "price", "cost", "fare", "rate", "nightly rate", "price per night", "fee"})
DISTANCE_UNITS = frozenset({"km", "miles", "m"})
CHECK_WORDS = frozenset({"check", "checks", "verdict", "test", "status", "result", "evaluation", "assessment"})
_LABEL_WORD = re.compile(r"[a-z][a-z0-9_-]*")
_NAME = re.compile(r"\s*\(([^)]+)\)")
_COLON = re.compile(r"(?<!\d):|:(?!\d)")
_SUBCLAUSE = re.compile(r",\s+(?!\d)|\s+(?:and|with|while|but|plus)\s+")
BREAK_WORDS = frozenset({"a", "an", "the", "of", "with", "for", "at", "is", "are", "has", "have", "having", "to",
                         "quotes", "quoted", "offers", "costs", "its", "their", "and", "by", "in", "on"})
_MAX_PREFIX = 3


@dataclass
class _Option:
    id: str
    attributes: dict[str, str] = field(default_factory=dict)
    evidence: dict[str, str] = field(default_factory=dict)
    pending: dict[tuple[str, ...], str] = field(default_factory=dict)  # "label value" words -> clause
    checks: dict[tuple[str, str | None, str, str], None] = field(default_factory=dict)  # ordered, no repeats
    eliminated: bool = False
    elimination: list[str] = field(default_factory=list)


@dataclass
class _Reader:
    """Accumulates what the trace says, sentence by sentence (memory grows with options, not with text)."""

    id_re: re.Pattern[str]
    goal_ids: frozenset[str]
    constraints: list[Constraint]
    options: dict[str, _Option] = field(default_factory=dict)
    kinds: set[str] = field(default_factory=set)
    continuations: dict[tuple[str, ...], set[str]] = field(default_factory=lambda: defaultdict(set))
    names: dict[str, str] = field(default_factory=dict)

    def option(self, option_id: str) -> _Option:
        if option_id not in self.options:
            self.options[option_id] = _Option(option_id)
        return self.options[option_id]

    def read(self, sentence: str) -> None:
        ids = list(dict.fromkeys(m.group(0) for m in self.id_re.finditer(sentence)))
        ids = [i for i in ids if i not in self.goal_ids]
        if len(ids) == 1:
            self._read_single(ids[0], sentence)
        elif len(ids) > 1 and mentions_elimination(sentence) and "+" not in sentence:
            for option_id in ids:
                self._eliminate(self.option(option_id), sentence)

    def _read_single(self, option_id: str, sentence: str) -> None:
        option = self.option(option_id)
        position = sentence.find(option_id)
        kind = sentence[:position].strip().split()
        if len(kind) == 1 and kind[0][:1].isupper():
            self.kinds.add(kind[0].lower())
        rest = sentence[position + len(option_id):]
        name = _NAME.match(rest)
        if name:
            option.attributes.setdefault("name", name.group(1).strip())
            rest = rest[name.end():]
        colon = _COLON.search(rest)
        head, body = (rest[:colon.start()], rest[colon.end():]) if colon else ("", rest)
        verdict = last_verdict(sentence)
        if verdict is None:
            for clause in _clauses(body):
                self._read_clause(option, clause)
        else:
            self._read_check(option, head, body if colon else "", sentence, verdict)

    def _read_clause(self, option: _Option, clause: str) -> None:
        label, value = _labelled(clause)
        if label is None:
            original = clause.split()
            words = [w.lower() for w in original]
            if 2 <= len(words) <= _MAX_PREFIX + 1:
                option.pending.setdefault(tuple(original), clause)
                for k in range(1, len(words)):
                    conts = self.continuations[tuple(words[:k])]
                    if len(conts) < 2:
                        conts.add(" ".join(words[k:]))
            return
        _store(option, label, value, clause)

    def _read_check(self, option: _Option, head: str, body: str, sentence: str, verdict: str) -> None:
        words = [w for w in _LABEL_WORD.findall(head.lower()) if w not in CHECK_WORDS and last_verdict(w) is None]
        name = self._constraint_name(" ".join(words)) if words else "verdict"
        quantities = find_quantities(body)
        first = body.strip().split(" ")[0].strip(" ,.;:()") if body.strip() else ""
        value = quantities[0].normalised() if quantities else (first or None)
        if value is not None and last_verdict(value) is not None:
            value = None
        option.checks[(name, value, verdict, sentence)] = None
        if mentions_elimination(sentence) or (name == "verdict" and verdict == "fail"):
            self._eliminate(option, sentence)

    def _constraint_name(self, said: str) -> str:
        if said not in self.names:
            self.names[said] = next((c.name for c in self.constraints
                                     if said == c.name or names_match(said, c.name)), said)
        return self.names[said]

    @staticmethod
    def _eliminate(option: _Option, sentence: str) -> None:
        option.eliminated = True
        if sentence not in option.elimination:
            option.elimination.append(sentence)


def _clauses(body: str) -> list[str]:
    """"label value" clauses: split at ";", and long prose clauses further at commas and conjunctions."""
    out = []
    for clause in body.split(";"):
        clause = clause.strip(" .")
        if len(clause.split()) > 6 and not _is_list(clause):
            out += [c.strip(" .") for c in _SUBCLAUSE.split(clause) if c.strip(" .")]
        elif clause:
            out.append(clause)
    return out


def _is_list(clause: str) -> bool:
    """"amenities wifi, gym, spa, bar": a label and a comma list of short items, not prose to split."""
    parts = clause.split(",")
    return len(parts) > 1 and all(len(p.split()) <= 2 for p in parts[1:])


def _label_before(text: str) -> str:
    """The label words just before a value: up to three, stopping at articles and prepositions."""
    words = _LABEL_WORD.findall(text.lower())
    while words and words[-1] in BREAK_WORDS:
        words.pop()
    label: list[str] = []
    while words and words[-1] not in BREAK_WORDS and len(label) < 3:
        label.insert(0, words.pop())
    return " ".join(label)


def _labelled(clause: str) -> tuple[str | None, str]:
    """(attribute, value) for a clause, or (None, clause) when the label/value split is not yet known."""
    colon = _COLON.search(clause)
    if colon:
        return _normal_label(clause[:colon.start()], clause[colon.end():].strip())
    quantities = find_quantities(clause)
    if quantities:
        return _quantity_clause(clause, quantities[0])
    label = clause.lower()
    if label.startswith("amenit"):
        return "amenities", clause.split(None, 1)[1] if " " in clause else ""
    return None, clause


def _quantity_clause(clause: str, q: Quantity) -> tuple[str | None, str]:
    label = _label_before(clause[:q.start])
    if q.unit == "stars" or label in ("stars", "star rating", "rating"):
        return "stars", format_number(q.value)
    if q.is_money and label in PRICE_LABELS:
        return "price", q.normalised()
    if q.unit in DISTANCE_UNITS and (not label or "distance" in label):
        return "distance", q.normalised()
    if not label:
        return (q.unit or "value"), format_number(q.value)
    value = q.normalised() if q.is_money or q.unit else clause[q.start:].strip()
    return label, value


def _normal_label(label: str, value: str) -> tuple[str | None, str]:
    words = " ".join(_LABEL_WORD.findall(label.lower()))
    if words.startswith("amenit"):
        return "amenities", value
    if not words:
        return None, value
    if words in PRICE_LABELS or words in ("stars", "distance"):
        found = _labelled(f"{words} {value}")
        return found if found[0] is not None else (words, value)
    return words, value


def _store(option: _Option, label: str, value: str, evidence: str) -> None:
    if label not in option.attributes:
        option.attributes[label] = value
        option.evidence[label] = f"{option.id}: {evidence}"


def _split_pending(original: list[str], reader: _Reader) -> tuple[str, str]:
    """Label and value of a "label value" clause: a constraint's name, else the longest label seen with
    at least two different values across the trace, else all words but the last."""
    words = [w.lower() for w in original]
    text = " ".join(words)
    for constraint in reader.constraints:
        for name in (constraint.name, *constraint.name.split()):
            k = len(name.split())
            if text.startswith(name + " ") and k < len(words):
                return name, " ".join(original[k:])
    for k in range(len(words) - 1, 0, -1):
        if len(reader.continuations.get(tuple(words[:k]), ())) >= 2:
            return " ".join(words[:k]), " ".join(original[k:])
    return " ".join(words[:-1]), original[-1]


def _settle_constraints(reader: _Reader) -> dict[str, Constraint]:
    """Old name -> final constraint: entity kinds dropped ("hotel distance" -> "distance"), and an
    unmarked "label value" clause re-split where the trace shows the label ("cabin premium economy")."""
    out = {}
    for c in reader.constraints:
        name, threshold = c.name, c.threshold
        if c.operator in ("==", "contains"):
            words = f"{name} {threshold}".split()
            lower = [w.lower() for w in words]
            for k in range(len(words) - 1, 0, -1):
                if len(reader.continuations.get(tuple(lower[:k]), ())) >= 2:
                    name, threshold = " ".join(lower[:k]), " ".join(words[k:])
                    break
        kept = [w for w in name.split() if w not in reader.kinds]
        out[c.name] = c.model_copy(update={"name": " ".join(kept) or name, "threshold": threshold})
    return out


def _checks(option: _Option, renames: dict[str, Constraint]) -> list[Check]:
    """The option's stated checks as schema objects, with constraint names settled."""
    return [Check.model_construct(constraint=renames[name].name if name in renames else name, value=value,
                                  verdict=verdict, evidence=evidence)
            for name, value, verdict, evidence in option.checks]


def _derived_checks(option: _Option, stated: set[str], constraints: list[Constraint]) -> list[Check]:
    """Checks the trace did not state but its values decide (e.g. distance 5.1 km against at most 3.0 km)."""
    derived = []
    for constraint in constraints:
        if constraint.name in stated:
            continue
        for label, value in option.attributes.items():
            if label == constraint.name or names_match(singular(label), constraint.name):
                verdict = evaluate(constraint, value)
                if verdict != "unknown":
                    derived.append(Check.model_construct(constraint=constraint.name, value=value, verdict=verdict,
                                                         evidence=option.evidence.get(label, "")))
                break
    return derived


def _finish(reader: _Reader, goal: str) -> Extraction:
    renames = _settle_constraints(reader)
    constraints = reader.constraints = list(renames.values())
    evaluations = []
    splits: dict[tuple[str, ...], tuple[str, str]] = {}
    for option in reader.options.values():
        for key, clause in option.pending.items():
            if key not in splits:
                splits[key] = _split_pending(list(key), reader)
            _store(option, *splits[key], clause)
        stated = _checks(option, renames)
        checks = stated + _derived_checks(option, {c.constraint for c in stated}, constraints)
        evaluations.append(OptionEvaluation.model_construct(
            id=option.id, attributes=option.attributes, checks=checks, eliminated=option.eliminated,
            elimination_evidence=" ".join(option.elimination) or None,
        ))
    feasible = [o.id for o in evaluations if not o.eliminated and all(c.verdict != "fail" for c in o.checks)]
    return Extraction(goal=goal, constraints=constraints, options=evaluations, feasible_ids=feasible,
                      empty_result=_empty_reason(evaluations, feasible))


def _empty_reason(options: list[OptionEvaluation], feasible: list[str]) -> str | None:
    if not options:
        return "no option identifiers were found in the trace"
    if not feasible:
        return f"all {len(options)} options were eliminated or failed a check"
    return None


def extract_rules(trace: str, goal: str, *, id_pattern: str | None = None) -> Extraction:
    """Parse ``trace`` into an ``Extraction`` without any model call.

    ``id_pattern`` is the regular expression of option identifiers (default ``[A-Z]{1,3}-?\\d{1,4}``);
    identifiers that occur in the goal (such as the goal's own number) are not options.
    """
    id_re = compile_id_pattern(id_pattern)
    goal_ids = frozenset(m.group(0) for m in id_re.finditer(goal))
    reader = _Reader(id_re, goal_ids, parse_constraints(goal))
    for sentence in iter_sentences(trace):
        if sentence[:5].lower() != "goal ":
            reader.read(sentence)
    return _finish(reader, goal)


__all__ = ["extract_rules"]
