"""Summaries of a composition run: per-condition metrics, C1-C5, sensitivity checks, terminal and HTML views."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from relaykit.bench.composition.contrasts import evaluate_all
from relaykit.bench.composition.design import CONDITIONS
from relaykit.bench.composition.runner import KIND
from relaykit.bench.composition.scoring import relacc_credit
from relaykit.bench.reports import register_report, results_console
from relaykit.bench.stats import bootstrap_ci
from relaykit.bench.store import RunInfo, RunStore

METRICS = ("relacc", "relacc_strict", "relacc_off_by_one", "relacc_linear", "fact_type_recall", "fact_type_precision")


def _mean(values: Sequence[float | None]) -> float | None:
    kept = [v for v in values if v is not None]
    return float(np.mean(kept)) if kept else None


def _conditions(results: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    grouped: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for r in results:
        grouped[r["condition"]].append(r)
    out: dict[str, dict[str, Any]] = {}
    for cond in CONDITIONS:
        rows = grouped.get(cond.name)
        if not rows:
            continue
        entry: dict[str, Any] = {"n": len(rows), "signal_share": cond.n_signal / 10, "position": cond.position}
        for metric in METRICS:
            entry[metric] = _mean([r.get(metric) for r in rows])
        entry["relacc_ci"] = list(bootstrap_ci([r["relacc"] or 0.0 for r in rows]))
        entry["parse_success"] = sum(bool(r["parsed"]) for r in rows) / len(rows)
        out[cond.name] = entry
    return out


def _unit_table(results: Sequence[Mapping[str, Any]]) -> dict[tuple[str, int], dict[str, float]]:
    table: dict[tuple[str, int], dict[str, float]] = defaultdict(dict)
    for r in results:
        table[(r["model"], r["block"])][r["condition"]] = float(r["relacc"] or 0.0)
    return table


def _c1_by_model(table: Mapping[tuple[str, int], Mapping[str, float]]) -> dict[str, float]:
    """Each model's mean C1 gain (50:50 minus 100% signal) over its blocks: the paper's per-configuration view."""
    gains: dict[str, list[float]] = defaultdict(list)
    for (model, _block), row in table.items():
        if "signal_50" in row and "signal_100" in row:
            gains[model].append(row["signal_50"] - row["signal_100"])
    return {model: float(np.mean(values)) for model, values in gains.items()}


def _matched(results: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """C1 with the 100%-signal prompt scored only on the five signal items the 50:50 prompt shares."""
    by_unit: dict[tuple[str, int], dict[str, Mapping[str, Any]]] = defaultdict(dict)
    for r in results:
        by_unit[(r["model"], r["block"])][r["condition"]] = r
    gains, by_source = [], defaultdict(list)
    for conds in by_unit.values():
        if "signal_50" not in conds or "signal_100" not in conds:
            continue
        half = {row["id"]: row for row in conds["signal_50"]["items"] if row["target"]}
        full = {row["id"]: row for row in conds["signal_100"]["items"] if row["id"] in half}
        diffs = []
        for item_id, row in half.items():
            diff = relacc_credit(row["human"], row["model"]) - relacc_credit(row["human"], full[item_id]["model"])
            diffs.append(diff)
            by_source[row["source_type"]].append(diff)
        gains.append(float(np.mean(diffs)))
    if not gains:
        return None
    lo, hi = bootstrap_ci(gains)
    return {
        "n": len(gains), "mean": float(np.mean(gains)), "ci": [lo, hi],
        "by_source": {
            k: {"item_instances": len(v), "mean_gain": float(np.mean(v))} for k, v in sorted(by_source.items())
        },
    }


def _agreement(results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    targets = [row for r in results for row in r["items"] if row["target"] and row["model"] is not None]
    pairs = [(row["human"], row["model"]) for r in results for row in r["items"] if row["model"] is not None]
    spearman = float("nan")
    if len(pairs) > 2:
        from scipy.stats import spearmanr

        h, m = zip(*pairs)
        if len(set(h)) > 1 and len(set(m)) > 1:
            spearman = float(spearmanr(h, m).statistic)
    return {
        "target_exact": _mean([float(t["human"] == t["model"]) for t in targets]),
        "target_within_one": _mean([float(abs(t["human"] - t["model"]) <= 1) for t in targets]),
        "spearman_all_items": spearman,
    }


def summarize(store: RunStore, run: RunInfo) -> dict[str, Any]:
    """Everything the report shows, as plain data (also the ``--json`` output of the CLI)."""
    results = list(store.results(run.run_id).values())
    table = _unit_table(results)
    return {
        "run_id": run.run_id,
        "status": run.status,
        "models": run.config.get("models", []),
        "blocks": run.config.get("blocks"),
        "synthetic_corpus": run.config.get("synthetic", False),
        "trials": len(results),
        "conditions": _conditions(results),
        "contrasts": [c.as_dict() for c in evaluate_all(table)],
        "c1_by_model": _c1_by_model(table),
        "c1_matched_items": _matched(results),
        "agreement": _agreement(results),
        "tokens": {"prompt": sum(r.get("prompt_tokens", 0) for r in results),
                   "completion": sum(r.get("completion_tokens", 0) for r in results)},
    }


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, float):
        return f"{value:+.{digits}f}" if digits == 4 else f"{value:.{digits}f}"
    return str(value)


def _condition_rows(summary: Mapping[str, Any]) -> list[list[str]]:
    return [
        [name, f"{c['signal_share']:.0%}", c["position"] or "shuffled", _fmt(c["relacc"]),
         f"[{_fmt(c['relacc_ci'][0])}, {_fmt(c['relacc_ci'][1])}]", _fmt(c["fact_type_recall"]),
         f"{c['parse_success']:.0%}", str(c["n"])]
        for name, c in summary["conditions"].items()
    ]


CONDITION_HEADERS = ("condition", "signal", "position", "RelAcc", "95% CI", "fact-type recall", "parsed", "n")
CONTRAST_HEADERS = ("contrast", "question", "n", "mean diff", "95% CI", "d", "p", "p (Holm)")


def _contrast_rows(summary: Mapping[str, Any]) -> list[list[str]]:
    rows = []
    for c in summary["contrasts"]:
        digits = 6 if c["name"] == "C2" else 3
        rows.append([c["name"], c["question"], str(c["n"]), f"{c['mean']:+.{digits}f}",
                     f"[{c['ci_low']:+.{digits}f}, {c['ci_high']:+.{digits}f}]", _fmt(c["cohens_d"], 2),
                     _fmt(c["p_value"]), _fmt(c["p_holm"])])
    return rows


def print_report(store: RunStore, run: RunInfo, console: Console | None = None) -> None:
    console = console or results_console()
    summary = summarize(store, run)
    if summary["synthetic_corpus"]:
        console.print("[yellow]corpus: SYNTHETIC (generated); figures test the pipeline, not real mail[/yellow]")
    for title, headers, rows in (
        (f"{run.run_id}: conditions", CONDITION_HEADERS, _condition_rows(summary)),
        ("pre-specified contrasts (paired over model x block, Holm over C1-C5)", CONTRAST_HEADERS,
         _contrast_rows(summary)),
    ):
        table = Table(title=title)
        for header in headers:
            table.add_column(header)
        for row in rows:
            table.add_row(*row)
        console.print(table)
    matched = summary["c1_matched_items"]
    if matched:
        console.print(f"C1 matched-item sensitivity: {matched['mean']:+.3f} "
                      f"[{matched['ci'][0]:+.3f}, {matched['ci'][1]:+.3f}], n={matched['n']}; by source: "
                      + ", ".join(f"{k} {v['mean_gain']:+.3f} ({v['item_instances']})"
                                  for k, v in matched["by_source"].items()))
    if len(summary["c1_by_model"]) > 1:
        console.print("C1 by model: " + ", ".join(f"{k} {v:+.3f}" for k, v in summary["c1_by_model"].items()))
    agreement = summary["agreement"]
    console.print(f"agreement: exact {_fmt(agreement['target_exact'])}, "
                  f"within one {_fmt(agreement['target_within_one'])} (targets); "
                  f"Spearman {_fmt(agreement['spearman_all_items'])} (all scored items); "
                  f"tokens {summary['tokens']['prompt']} prompt + {summary['tokens']['completion']} completion")


def html_report(store: RunStore, run: RunInfo) -> str:
    from relaykit.bench.composition.html_report import render_html

    return render_html(summarize(store, run), run)


register_report(KIND, print_report, html_report, summarize)
