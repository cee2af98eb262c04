"""Scoring one trial: the prompt, the answer schema, RelAcc and fact-type recall.

RelAcc (paper 002): over the target (signal) items of a prompt, full credit when the model's 0-3 score
equals the human label, half credit when they are one point apart, nothing otherwise; an item the model
did not score, or an unparseable answer, earns nothing. The paper's printed formula did not survive
extraction; half credit for adjacent scores is relaykit's reading of "partial credit when adjacent".
The strict, off-by-one and linear variants of the paper's robustness check are computed alongside.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field, create_model

from relaykit.bench.composition.corpus import NEAR_EQUIVALENT, CorpusItem
from relaykit.bench.composition.design import Trial

SYSTEM_PROMPT = (
    "You triage workplace communication for an engineering team. Rate every item below for relevance "
    "to the team's current work, on this scale:\n"
    "3 = it records a decision, an action item, a blocker or a commitment;\n"
    "2 = it is status or information a teammate would want in the weekly summary, but needs no action;\n"
    "1 = it only mentions the work in passing;\n"
    "0 = it has nothing to do with the work (social chat, newsletters, automated notices).\n"
    "For each item also list the kinds of fact it contains, using only these names: {fact_types}. "
    "Use an empty list when it contains none. Answer with JSON only: "
    '{{"items": [{{"id": "<item id>", "score": <0-3>, "fact_types": [...]}}, ...]}}, one entry per item.'
)


MAX_FACT_TYPES = 4


def answer_schema(item_ids: Sequence[str], fact_types: Sequence[str]) -> type[BaseModel]:
    """A pydantic model whose JSON schema only admits this prompt's ids and the corpus's fact types."""
    id_type: Any = Literal[tuple(item_ids)]
    fact_type: Any = Literal[tuple(fact_types)] if fact_types else str
    judgement: Any = create_model(
        "ItemJudgement",
        id=(id_type, ...),
        score=(Literal[0, 1, 2, 3], ...),
        fact_types=(list[fact_type], Field(default_factory=list, max_length=MAX_FACT_TYPES)),
    )
    # at most one entry per item: bounds the answer's length, so a complete answer always fits max_tokens
    return create_model("ItemJudgements", items=(list[judgement], Field(max_length=len(item_ids))))


def messages_for(trial: Trial, fact_types: Sequence[str]) -> list[dict[str, str]]:
    listed = ", ".join(fact_types) or "(none)"
    body = "\n\n".join(f"[{item.id}] ({item.source_type})\n{item.text.strip()}" for item in trial.items)
    return [
        {"role": "system", "content": SYSTEM_PROMPT.format(fact_types=listed)},
        {"role": "user", "content": f"Items:\n\n{body}"},
    ]


def relacc_credit(human: int, model: int | None) -> float:
    if model is None:
        return 0.0
    gap = abs(human - model)
    return 1.0 if gap == 0 else 0.5 if gap == 1 else 0.0


CREDIT_VARIANTS: dict[str, Callable[[int, int | None], float]] = {
    "relacc": relacc_credit,
    "relacc_strict": lambda h, m: 0.0 if m is None else float(h == m),
    "relacc_off_by_one": lambda h, m: 0.0 if m is None else float(abs(h - m) <= 1),
    "relacc_linear": lambda h, m: 0.0 if m is None else 1.0 - abs(h - m) / 3.0,
}


def _overlap(wanted: Iterable[str], got: set[str]) -> float | None:
    wanted = list(wanted)
    if not wanted:
        return None
    credit = 0.0
    for kind in wanted:
        if kind in got:
            credit += 1.0
        elif any(frozenset({kind, other}) in NEAR_EQUIVALENT for other in got):
            credit += 0.5
    return credit / len(wanted)


def fact_type_recall(human: Sequence[str], model: Sequence[str]) -> float | None:
    """Share of the human fact types the model named (half credit for a near-equivalent type)."""
    return _overlap(human, set(model))


def fact_type_precision(human: Sequence[str], model: Sequence[str]) -> float | None:
    return _overlap(set(model), set(human))


@dataclass(frozen=True)
class Judgement:
    score: int
    fact_types: tuple[str, ...]


def judgements_from(answer: BaseModel | None) -> dict[str, Judgement] | None:
    """The first judgement per id of a validated answer (``None`` for an unparseable one)."""
    if answer is None:
        return None
    out: dict[str, Judgement] = {}
    for entry in answer.items:  # type: ignore[attr-defined]
        out.setdefault(str(entry.id), Judgement(int(entry.score), tuple(entry.fact_types)))
    return out


def _mean(values: Iterable[float | None]) -> float | None:
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept) if kept else None


def score_trial(trial: Trial, judgements: dict[str, Judgement] | None) -> dict[str, Any]:
    """Every metric of one trial, plus the per-item human and model scores (for later analyses)."""
    got = judgements or {}
    rows = []
    for item in trial.items:
        j = got.get(item.id)
        rows.append({"id": item.id, "source_type": item.source_type, "human": item.label, "target": item.is_signal,
                     "model": None if j is None else j.score, "fact_types": [] if j is None else list(j.fact_types)})
    targets: list[CorpusItem] = list(trial.targets)
    result: dict[str, Any] = {"parsed": judgements is not None, "n_targets": len(targets), "items": rows}
    for name, credit in CREDIT_VARIANTS.items():
        result[name] = _mean(credit(t.label, got[t.id].score if t.id in got else None) for t in targets)
    result["fact_type_recall"] = _mean(
        fact_type_recall(t.fact_types, got[t.id].fact_types if t.id in got else ()) for t in targets
    )
    result["fact_type_precision"] = _mean(
        fact_type_precision(t.fact_types, got[t.id].fact_types) for t in targets if t.id in got
    )
    result["scored_share"] = sum(1 for item in trial.items if item.id in got) / len(trial.items)
    return result
