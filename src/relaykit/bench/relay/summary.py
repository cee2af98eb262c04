"""From stored scores to the paper's tables: accuracies with bootstrap CIs, gaps, failures, McNemar.

Everything here is computed from the run store alone, so a resumed run and an uninterrupted one with
the same seed give the same tables. Rows are (method, booker); with one booker a row is named by its
method. McNemar tests pair the rows of one booker on the goals both have, with Bonferroni and Holm
corrections over the whole family. A row that ran on fewer goals than the fullest row (a model time
budget, --model-goals, model failures) is marked ``partial`` and kept out of the paired tests; a condition
that ran on no goal at all is still a row, with N = 0 and the reason.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from statistics import fmean
from typing import Any

from relaykit.bench.relay.scoring import OUTCOMES
from relaykit.bench.stats import McNemar, bootstrap_ci, pairwise_mcnemar_by_unit
from relaykit.bench.store import RunInfo, RunStore

RESAMPLES = 10_000
SEED = 0


@dataclass(frozen=True)
class Row:
    """One condition's figures over the goals it ran on."""

    name: str
    method: str
    booker: str
    n: int
    feasible_accuracy: float
    feasible_ci: tuple[float, float]
    optimal_accuracy: float
    optimal_ci: tuple[float, float]
    n_gap: int
    mean_gap: float | None
    gap_ci: tuple[float, float] | None
    ratio: float
    tokens_per_run: float
    fidelity: float
    goal_similarity: float
    evidence_recall: float
    counts: dict[str, int]
    partial: bool = False
    reason: str = ""

    def as_json(self) -> dict[str, Any]:
        """The keys ``--json`` promises, per method."""
        return {
            "n": self.n, "partial": self.partial, "reason": self.reason,
            "feasible_accuracy": self.feasible_accuracy, "feasible_ci": list(self.feasible_ci),
            "optimal_accuracy": self.optimal_accuracy, "mean_gap": self.mean_gap, "ratio": self.ratio,
            "tokens_per_run": self.tokens_per_run, "evidence_recall": self.evidence_recall,
            "false_none": self.counts["false_none"], "wrong_pair": self.counts["wrong_pair"],
            "ungrounded": self.counts["ungrounded"],
        }


@dataclass(frozen=True)
class Summary:
    run_id: str
    rows: list[Row]
    mcnemar: list[McNemar]
    notes: list[str] = field(default_factory=list)

    @property
    def full_n(self) -> int:
        """The most goals any row ran on; rows with fewer are ``partial``."""
        return max((r.n for r in self.rows), default=0)

    def discordant(self) -> list[McNemar]:
        """The tests whose pair disagreed on at least one goal (the others have p = 1 by construction)."""
        return [m for m in self.mcnemar if m.a_only + m.b_only > 0]

    def as_json(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "full_n": self.full_n,
            "methods": {row.name: row.as_json() for row in self.rows},
            "mcnemar": [{"a": m.a, "b": m.b, "a_only": m.a_only, "b_only": m.b_only, "p_value": m.p_value,
                         "p_bonferroni": m.p_bonferroni, "p_holm": m.p_holm} for m in self.mcnemar],
        }


def _row(name: str, method: str, booker: str, scores: list[dict[str, Any]]) -> Row:
    feasible = [1.0 if s["feasible"] else 0.0 for s in scores]
    optimal = [1.0 if s["optimal"] else 0.0 for s in scores]
    gaps = [float(s["gap"]) for s in scores if s["gap"] is not None]
    counts = {o: sum(s["outcome"] == o for s in scores) for o in OUTCOMES}
    counts["optimal"] = int(sum(optimal))
    return Row(
        name=name, method=method, booker=booker, n=len(scores),
        feasible_accuracy=fmean(feasible), feasible_ci=bootstrap_ci(feasible, resamples=RESAMPLES, seed=SEED),
        optimal_accuracy=fmean(optimal), optimal_ci=bootstrap_ci(optimal, resamples=RESAMPLES, seed=SEED),
        n_gap=len(gaps), mean_gap=fmean(gaps) if gaps else None,
        gap_ci=bootstrap_ci(gaps, resamples=RESAMPLES, seed=SEED) if gaps else None,
        ratio=fmean(s["ratio"] for s in scores), tokens_per_run=fmean(s["tokens_per_run"] for s in scores),
        fidelity=fmean(s["fidelity"] for s in scores), goal_similarity=fmean(s["goal_similarity"] for s in scores),
        evidence_recall=fmean(s["evidence_recall"] for s in scores), counts=counts,
    )


def _empty_row(name: str, method: str, booker: str) -> Row:
    nan = float("nan")
    return Row(name=name, method=method, booker=booker, n=0, feasible_accuracy=nan, feasible_ci=(nan, nan),
               optimal_accuracy=nan, optimal_ci=(nan, nan), n_gap=0, mean_gap=None, gap_ci=None, ratio=nan,
               tokens_per_run=nan, fidelity=nan, goal_similarity=nan, evidence_recall=nan,
               counts={o: 0 for o in (*OUTCOMES, "optimal")})


def summarize(store: RunStore, run: RunInfo) -> Summary:
    """The run's tables, from what the store holds now (a partial run gives partial tables)."""
    results = store.results(run.run_id)
    methods = list(run.config.get("methods", []))
    bookers = list(run.config.get("bookers", ["reader"]))
    grouped: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for key, value in sorted(results.items()):
        if key.startswith("score/"):
            grouped[(value["method"], value["booker"])].append(value)
    rows = [(_row(name, m, b, grouped[(m, b)]) if grouped.get((m, b)) else _empty_row(name, m, b))
            for b in bookers for m in methods for name in [m if len(bookers) == 1 else f"{m} [{b}]"]]
    full = max((r.n for r in rows), default=0)
    reasons = _reasons(store, run)
    rows = [replace(r, partial=r.n < full, reason=reasons.get((r.method, r.booker), "") if r.n < full else "")
            for r in rows]
    by_booker: dict[str, dict[str, dict[str, bool]]] = defaultdict(dict)
    for row in rows:
        if not row.partial and row.n:
            scores = grouped[(row.method, row.booker)]
            by_booker[row.booker][row.name] = {s["goal"]: bool(s["feasible"]) for s in scores}
    tests = pairwise_mcnemar_by_unit([by_booker[b] for b in bookers if b in by_booker])
    return Summary(run.run_id, rows, tests, _notes(store, run, rows))


def _reasons(store: RunStore, run: RunInfo) -> dict[tuple[str, str], str]:
    """Why a (method, booker) has fewer goals: its model failures, the model time budget, --model-goals."""
    parts: dict[tuple[str, str], list[str]] = defaultdict(list)
    failures: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
    done = store.done_keys(run.run_id)
    for event in store.events(run.run_id, "failure"):
        payload = event["payload"]
        if payload.get("unit") not in done:  # a failure a later resume made good is no reason any more
            where = failures[(payload.get("method", ""), payload.get("booker", ""))]
            where.setdefault(str(payload.get("unit")), str(payload.get("error", "")))
    for key, errors in failures.items():
        if errors:
            parts[key].append(f"{len(errors)} goal(s) failed: {next(iter(errors.values()))[:160]}")
    for event in store.events(run.run_id, "skipped"):
        for tags, count in event["payload"].get("by", {}).items():
            fields = dict(part.split("=", 1) for part in tags.split("/") if "=" in part)
            parts[(fields.get("method", ""), fields.get("booker", ""))].append(
                f"{count} goal(s) left out by the model time budget (--model-budget)")
    model_goals = run.config.get("model_goals")
    for method in run.config.get("methods", []):
        for booker in run.config.get("bookers", ["reader"]):
            if model_goals is not None and _limited(run.config, method, booker):
                parts[(method, booker)].append(f"model-dependent: first {model_goals} goal(s) only (--model-goals)")
    return {key: "; ".join(dict.fromkeys(texts)) for key, texts in parts.items()}


def _limited(config: dict[str, Any], method: str, booker: str) -> bool:
    from relaykit.bench.relay.methods import method_needs_model

    return config.get("researcher") == "model" or booker == "model" or method_needs_model(method)


def _notes(store: RunStore, run: RunInfo, rows: list[Row]) -> list[str]:
    config = run.config
    notes = [f"world: {config.get('world_file') or 'generated'} ({config.get('hotels')} hotels x "
             f"{config.get('flights')} flights, seed {config.get('seed')}); researcher {config.get('researcher')}; "
             f"booker {', '.join(config.get('bookers', []))}; model {config.get('model')}"]
    if config.get("model_goals") is not None:
        notes.append(f"model-dependent conditions (summary, extract, selective, the model Booker, a model "
                     f"Researcher) ran on the first {config['model_goals']} goals at most (--model-goals).")
    skipped = store.events(run.run_id, "skipped")
    if skipped:
        last = skipped[-1]["payload"]
        notes.append(f"model-dependent conditions ran on the goals that fit the model time budget of "
                     f"{last['model_budget_s']:.0f} s (the embedded model is slow; every other condition ran on "
                     f"every goal): {last['units']} units left out. --resume {run.run_id} continues them; "
                     "--model-budget 0 removes the limit.")
    failures = store.events(run.run_id, "failure")
    if failures:
        notes.append(f"{len(failures)} unit(s) failed on model errors and are unscored (resume with --resume "
                     f"{run.run_id}); first: {failures[0]['payload'].get('error')}")
    if run.status != "finished" and not skipped:
        notes.append(f"run status: {run.status} (continue with --resume {run.run_id})")
    return notes
