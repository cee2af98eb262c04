"""The labelled corpus of the relevance-contrast experiment: JSONL, one item a line.

Each line holds ``id``, ``source_type``, ``text``, ``label`` (human relevance, 0-3) and ``fact_types``
(the kinds of fact the item carries, e.g. ``["decision", "action_item"]``). As in paper 002, labels 2-3
are signal, 0 is noise, and 1 (marginal) is left out of the experiment so the contrast stays sharp.
Other keys are kept (``synthetic: true`` marks generated items).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from relaykit.errors import UsageError

# Pairs of fact types that earn half credit for each other (a decision reported as an action, ...).
NEAR_EQUIVALENT: frozenset[frozenset[str]] = frozenset(
    {
        frozenset({"decision", "action_item"}),
        frozenset({"action_item", "commitment"}),
        frozenset({"commitment", "deadline"}),
    }
)


@dataclass(frozen=True)
class CorpusItem:
    id: str
    source_type: str
    text: str
    label: int
    fact_types: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @property
    def is_signal(self) -> bool:
        return self.label >= 2

    @property
    def is_noise(self) -> bool:
        return self.label == 0

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "source_type": self.source_type, "text": self.text, "label": self.label,
                "fact_types": list(self.fact_types), **self.extra}


@dataclass(frozen=True)
class Corpus:
    items: tuple[CorpusItem, ...]
    source: str = "<memory>"

    @property
    def signal(self) -> list[CorpusItem]:
        return [item for item in self.items if item.is_signal]

    @property
    def noise(self) -> list[CorpusItem]:
        return [item for item in self.items if item.is_noise]

    @property
    def synthetic(self) -> bool:
        return bool(self.items) and all(item.extra.get("synthetic") for item in self.items)

    @property
    def fact_types(self) -> tuple[str, ...]:
        """Every fact type the labels use, sorted: the vocabulary the model may answer with."""
        return tuple(sorted({t for item in self.items for t in item.fact_types}))

    def by_id(self) -> dict[str, CorpusItem]:
        return {item.id: item for item in self.items}

    def digest(self) -> str:
        body = "\n".join(json.dumps(item.to_dict(), sort_keys=True) for item in self.items)
        return hashlib.sha256(body.encode()).hexdigest()[:16]

    def summary(self) -> dict[str, dict[str, int]]:
        """Per source type: items, signal, noise and marginal counts."""
        out: dict[str, dict[str, int]] = {}
        for item in self.items:
            row = out.setdefault(item.source_type, {"items": 0, "signal": 0, "noise": 0, "marginal": 0})
            row["items"] += 1
            row["signal" if item.is_signal else "noise" if item.is_noise else "marginal"] += 1
        return out


def _check(data: Any, line: int) -> tuple[CorpusItem | None, list[str]]:
    if not isinstance(data, dict):
        return None, [f"line {line}: not a JSON object"]
    where = f"line {line} (id {data.get('id', '?')})"
    problems = [f"{where}: no {key!r}" for key in ("id", "source_type", "text", "label") if key not in data]
    if problems:
        return None, problems
    text, label, fact_types = data["text"], data["label"], data.get("fact_types", [])
    if not isinstance(text, str) or not text.strip():
        problems.append(f"{where}: no text")
    if isinstance(label, bool) or not isinstance(label, int) or not 0 <= label <= 3:
        problems.append(f"{where}: label {label!r} is not an integer 0-3")
    if not isinstance(fact_types, list) or not all(isinstance(t, str) for t in fact_types):
        problems.append(f"{where}: fact_types must be a list of strings")
    if problems:
        return None, problems
    extra = {k: v for k, v in data.items() if k not in {"id", "source_type", "text", "label", "fact_types"}}
    item = CorpusItem(str(data["id"]), str(data["source_type"]), text, label, tuple(fact_types), extra)
    return item, []


def parse_corpus(lines: Iterable[str], source: str = "<memory>") -> Corpus:
    """Read JSONL lines into a ``Corpus``; every problem is collected into one ``UsageError``."""
    items: list[CorpusItem] = []
    problems: list[str] = []
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            problems.append(f"line {number}: not JSON ({exc.msg})")
            continue
        item, found = _check(data, number)
        problems.extend(found)
        if item is not None:
            items.append(item)
    seen: set[str] = set()
    for item in items:
        if item.id in seen:
            problems.append(f"id {item.id!r} appears more than once")
        seen.add(item.id)
    if problems:
        listed = "; ".join(problems[:8]) + (f"; and {len(problems) - 8} more" if len(problems) > 8 else "")
        raise UsageError(f"{source}: {len(problems)} problem(s) in the corpus: {listed}")
    if not items:
        raise UsageError(f"{source}: the corpus is empty; give one JSON item per line")
    return Corpus(tuple(items), source)


def load_corpus(path: str | Path) -> Corpus:
    file = Path(path)
    if not file.is_file():
        raise UsageError(f"no corpus file {path}; make one with `relaykit context corpus --out {path}`")
    return parse_corpus(file.read_text(encoding="utf-8").splitlines(), str(path))


def write_corpus(items: Sequence[CorpusItem], path: str | Path) -> None:
    lines = (json.dumps(item.to_dict(), ensure_ascii=False) for item in items)
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
