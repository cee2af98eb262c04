"""The evidence audit: which decision-critical facts survived a hand-off, and which were lost.

A fact is (option id, attribute, value), or a verdict (attribute ``"verdict"``, value ``"pass"``,
``"fail"`` or ``"eliminated"``). In a structured payload a fact survives when the option's record holds
it; in text, when the identifier and the value stand in the same sentence. Numbers are compared as
numbers ("$180" = "180 USD" = "180.00").
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from relaykit.errors import UsageError
from relaykit.handoff.base import Handoff, Payload, payload_text
from relaykit.handoff.compact_read import expand
from relaykit.handoff.constraints import names_match
from relaykit.handoff.lexicon import TOKEN, verdict_of
from relaykit.handoff.schema import Extraction, OptionEvaluation
from relaykit.handoff.text import (
    DATE_PATTERN,
    TIME_PATTERN,
    date_readings,
    find_quantities,
    iter_sentences,
    normal_date,
    normal_time,
    parse_quantity,
)
from relaykit.memo import MEMO_CHARS, remembered, remembered_whole
from relaykit.text import iter_lines

VERDICT_VALUES = ("pass", "fail", "eliminated")


@dataclass(frozen=True)
class Fact:
    """One decision-critical fact: ``Fact("H03", "price", "182 USD")`` or ``Fact("H03", "verdict", "fail")``."""

    id: str
    attribute: str
    value: str

    @classmethod
    def of(cls, item: Fact | Mapping[str, Any]) -> Fact:
        """A fact from a ``Fact`` or a ``{"id", "attribute", "value"}`` mapping (a facts file's entries)."""
        if isinstance(item, Fact):
            return item
        if not isinstance(item, Mapping) or not all(k in item for k in ("id", "attribute", "value")):
            raise UsageError(f"a fact needs the keys id, attribute and value; got {item!r}")
        fact = cls(str(item["id"]), str(item["attribute"]), str(item["value"]))
        if fact.attribute == "verdict" and fact.value not in VERDICT_VALUES:
            raise UsageError(f"a verdict fact's value must be one of {', '.join(VERDICT_VALUES)}, not {fact.value!r}")
        return fact


@dataclass(frozen=True)
class AuditReport:
    """recall = kept / all facts (1.0 when no facts were given); ``lost`` says exactly what is missing;
    ``invented`` lists typed values of the payload that neither the trace nor the goal states (checked
    only when ``audit`` was given the trace)."""

    recall: float
    kept: list[Fact]
    lost: list[Fact]
    invented: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"evidence_recall": self.recall, "lost_facts": [vars(f) for f in self.lost],
                "invented_facts": list(self.invented)}


def _typed_keys(text: str) -> Iterator[tuple[str, str]]:
    """(text as written, comparable key) for every typed value of ``text``: quantities, times, dates."""
    if len(text) > MEMO_CHARS and not _CROSSES_LINES.search(text):
        for line in text.split("\n"):  # the same values, each line remembered
            yield from _remembered_typed_keys(line)
    else:
        yield from _remembered_typed_keys(text)


# A typed value can span a line break only where ``\s?`` joins a digit, a currency sign or a currency code to
# what follows; without such a break a long text reads the same line by line
_CROSSES_LINES = re.compile(r"[\d$£€¥A-Z]\n")


@remembered
def _remembered_typed_keys(text: str) -> tuple[tuple[str, str], ...]:
    return tuple(_read_typed_keys(text))


def _read_typed_keys(text: str) -> Iterator[tuple[str, str]]:
    for m in TOKEN.finditer(text):
        if m.group("time"):
            yield m.group(0), "t:" + normal_time(m.group(0))
        elif m.group("date"):
            yield m.group(0), "d:" + normal_date(m.group(0))
        elif m.group("qty"):
            for q in find_quantities(m.group(0)):
                yield m.group(0), f"q:{q.value:g}:{q.unit or ''}"


def _strings(payload: Any) -> Iterator[str]:
    if isinstance(payload, str):
        yield payload
    elif isinstance(payload, Mapping):
        for value in payload.values():
            yield from _strings(value)
    elif isinstance(payload, (list, tuple)):
        for value in payload:
            yield from _strings(value)


def invented_values(payload: Payload | Extraction, trace: str, goal: str = "") -> list[str]:
    """Typed values the payload states that appear nowhere in ``trace`` or ``goal`` (as numbers with a
    compatible unit, clock times or dates): what a summariser that makes things up adds."""
    known = _known_keys(trace, goal)
    data = payload.model_dump(mode="json") if isinstance(payload, Extraction) else payload
    invented = []
    for text in _strings(data):
        for written, key in _typed_keys(text):
            if key in known or (key.startswith("q:") and key.endswith(":") and any(
                    k.startswith(key) for k in known)):
                continue
            if key.startswith("q:") and key.rsplit(":", 1)[0] + ":" in known:
                continue
            invented.append(written)
    return list(dict.fromkeys(invented))


@remembered_whole
def _known_keys(trace: str, goal: str) -> frozenset[str]:
    """The typed-value keys ``trace`` and ``goal`` state (remembered: every method of a goal is audited against
    the same trace)."""
    known: set[str] = set()
    for source in (trace, goal):
        for line in iter_lines(source):
            for _, key in _line_keys(line):
                known.add(key)
                if key.startswith("q:"):
                    known.add(key.rsplit(":", 1)[0] + ":")
    return frozenset(known)


def _line_keys(line: str) -> Iterator[tuple[str, str]]:
    """The typed values of a trace line; a CSV row's ("SP1,19,200,yes") also cell by cell, where the comma
    between two numbers separates cells rather than thousands (a payload writes them as 19 and 200)."""
    yield from _typed_keys(line)
    if line.count(",") >= 2 and ", " not in line and _DIGIT_COMMA.search(line):
        for cell in line.split(","):
            yield from _typed_keys(cell)


_DIGIT_COMMA = re.compile(r"\d,\d")


_TIME = re.compile(TIME_PATTERN, re.IGNORECASE)
_DATE = re.compile(DATE_PATTERN)


def value_matches(found: str, wanted: str) -> bool:
    """``found`` states ``wanted``: numbers as numbers ("$1,250" = "1250.00 USD"), clock times as times
    ("2 pm" = "14:00"), lists by membership, text case-insensitively."""
    if _TIME.fullmatch(wanted.strip()):
        want = normal_time(wanted)
        return any(normal_time(m.group(0)) == want for m in _TIME.finditer(found))
    if _DATE.fullmatch(wanted.strip()):  # "2026-03-13" = "March 13, 2026" = "13.03.2026"
        wants = set(date_readings(wanted.strip()))
        return any(wants & set(date_readings(m.group(0))) for m in _DATE.finditer(found))
    want_q = parse_quantity(wanted)
    if want_q is not None:
        return any(want_q.same_as(q) for q in find_quantities(found))
    items = [i.strip().lower() for i in re.split(r",|/", wanted) if i.strip()]
    return all(re.search(rf"(?<!\w){re.escape(i)}(?!\w)", found.lower()) for i in items) if items else False


def _verdict_in_record(option: OptionEvaluation, extraction: Extraction, value: str) -> bool:
    failed = option.eliminated or any(c.verdict == "fail" for c in option.checks)
    if value == "pass":
        return option.id in extraction.feasible_ids or (
            not failed and any(c.verdict == "pass" for c in option.checks))
    return failed


def _in_record(fact: Fact, option: OptionEvaluation, extraction: Extraction) -> bool:
    if fact.attribute == "verdict":
        return _verdict_in_record(option, extraction, fact.value)
    values = [v for k, v in option.attributes.items() if names_match(k, fact.attribute) or k == "other"]
    values += [c.value for c in option.checks if c.value and names_match(c.constraint, fact.attribute)]
    return any(value_matches(v, fact.value) for v in values)


def _audit_extraction(extraction: Extraction, facts: list[Fact]) -> list[bool]:
    by_id = {o.id: o for o in extraction.options}
    return [fact.id in by_id and _in_record(fact, by_id[fact.id], extraction) for fact in facts]


def _in_sentence(fact: Fact, sentence: str) -> bool:
    if fact.attribute != "verdict":
        return value_matches(sentence, fact.value)
    verdict = verdict_of(sentence)
    if fact.value == "pass":
        return verdict == "pass"
    return verdict == "fail"


def _audit_text(text: str, facts: list[Fact]) -> list[bool]:
    kept = [False] * len(facts)
    by_id: dict[str, list[int]] = defaultdict(list)
    for i, fact in enumerate(facts):
        by_id[fact.id].append(i)
    if not by_id:
        return kept
    ids = re.compile(r"(?<![\w-])(" + "|".join(re.escape(i) for i in sorted(by_id, key=len, reverse=True))
                     + r")(?![\w-])")
    for sentence in iter_sentences(text):
        for option_id in {m.group(1) for m in ids.finditer(sentence)}:
            for i in by_id[option_id]:
                kept[i] = kept[i] or _in_sentence(facts[i], sentence)
    return kept


def _as_extraction(payload: dict[str, Any]) -> str | Extraction:
    """The payload read through the shared schema; a dict of another shape is audited as its JSON text."""
    try:
        return Extraction.model_validate(payload)
    except ValidationError:
        return payload_text(payload)


def _audit_table(payload: Mapping[str, Any], facts: list[Fact]) -> list[bool]:
    """The JSON evidence table of ``extract-rules``: each option's row read as one line of text."""
    lines = []
    for option in payload.get("options", []):
        verdict = option.get("verdict", "")
        lines.append(f"{option.get('id', '')}: {option.get('evidence', '')} | {verdict}")
    lines += [str(n) for n in payload.get("notes", [])]
    return _audit_text("\n".join(lines), facts)


def _audit_read(text: str, goal: str, facts: list[Fact]) -> list[bool]:
    """The facts a verbatim payload (the trace itself) states as the reader reads it: a CSV row's numbers, a
    JSON record's flags, a line under an id heading are the option's even where no sentence names both."""
    from relaykit.handoff.evidence import read_evidence  # the reader imports the audit's neighbours

    table = read_evidence(text, goal).text()
    return _audit_text(expand(table) or table, facts)


def _is_table(payload: Mapping[str, Any]) -> bool:
    options = payload.get("options")
    return isinstance(options, list) and all(isinstance(o, Mapping) and "evidence" in o for o in options)


def audit(handoff: Handoff | Payload | Extraction, facts: Iterable[Fact | Mapping[str, Any]], *,
          trace: str | None = None) -> AuditReport:
    """Which of ``facts`` survived in the hand-off payload (``lost`` lists the others); given the ``trace``,
    also which typed values the payload invented (``invented``)."""
    checked = [Fact.of(f) for f in facts]
    raw: Payload | Extraction = handoff.payload if isinstance(handoff, Handoff) else handoff
    if isinstance(raw, str):  # a compact evidence table is read with its headers' labels and units
        raw = expand(raw) or raw
    if isinstance(raw, dict) and _is_table(raw):
        kept_flags = _audit_table(raw, checked)
    else:
        payload: str | Extraction = raw if not isinstance(raw, dict) else _as_extraction(raw)
        kept_flags = (_audit_extraction(payload, checked) if isinstance(payload, Extraction)
                      else _audit_text(payload, checked))
    goal = handoff.goal if isinstance(handoff, Handoff) else ""
    if isinstance(raw, str) and raw == trace and not all(kept_flags):
        kept_flags = [k or r for k, r in zip(kept_flags, _audit_read(raw, goal, checked), strict=True)]
    kept = [f for f, k in zip(checked, kept_flags, strict=True) if k]
    lost = [f for f, k in zip(checked, kept_flags, strict=True) if not k]
    invented = invented_values(raw, trace, goal) if trace is not None else []
    return AuditReport(recall=len(kept) / len(checked) if checked else 1.0, kept=kept, lost=lost,
                       invented=invented)


__all__ = ["AuditReport", "Fact", "audit", "invented_values", "value_matches"]
