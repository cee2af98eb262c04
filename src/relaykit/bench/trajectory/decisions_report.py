"""Tables for decision-point runs: per split, budget and method, feasible and infeasible cases apart."""

from __future__ import annotations

import html
from collections import defaultdict
from typing import Any

from rich.table import Table

from relaykit.bench.reports import register_report
from relaykit.bench.store import RunInfo, RunStore

KIND = "trajectory-decisions"
COLUMNS = ("split", "budget", "method", "feasible", "valid", "within budget", "floor kept", "entity recall",
           "all-words recall", "size / input", "infeasible", "clear BudgetTooSmall")


def summarize(results: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (split, budget, method): rates over feasible cases, and the infeasible ones apart."""
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for unit in results.values():
        groups[(unit["split"], unit["budget"], unit["method"])].extend(unit["cases"])
    rows = []
    for (split, budget, method), cases in sorted(groups.items()):
        feasible = [c for c in cases if c["feasible"]]
        infeasible = [c for c in cases if not c["feasible"]]
        scored = [c for c in feasible if c["needed"]]
        rows.append({
            "split": split, "budget": budget, "method": method, "feasible": len(feasible),
            "valid": _share(feasible, lambda c: c["valid"]),
            "within": _share(feasible, lambda c: c["within"]),
            "floor_kept": _share(feasible, lambda c: c["floor_kept"]),
            "recall": _mean([c["hits"] / c["needed"] for c in scored]),
            "word_recall": _mean([c["word_hits"] / c["word_needed"] for c in feasible if c["word_needed"]]),
            "size": (sum(c["tokens_out"] for c in feasible) / sum(c["tokens_in"] for c in feasible)) if feasible
            else float("nan"),
            "infeasible": len(infeasible),
            "clear_error": _share(infeasible, lambda c: c["error"] == "BudgetTooSmall"
                                  and c.get("stated_minimum") == c["minimum"]),
        })
    return rows


def _share(cases: list[dict[str, Any]], test: Any) -> float:
    return sum(1 for c in cases if test(c)) / len(cases) if cases else float("nan")


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def _fmt(value: float, digits: int = 3) -> str:
    return "—" if value != value else f"{value:.{digits}f}"


def cells(row: dict[str, Any]) -> list[str]:
    return [row["split"], row["budget"], row["method"], str(row["feasible"]), _fmt(row["valid"]),
            _fmt(row["within"]), _fmt(row["floor_kept"]), _fmt(row["recall"]), _fmt(row["word_recall"]),
            _fmt(row["size"], 2), str(row["infeasible"]), _fmt(row["clear_error"])]


def terminal(store: RunStore, run: RunInfo) -> None:
    from rich.console import Console

    cfg = run.config
    table = Table(title=f"{run.run_id}: decision points, envs={cfg.get('envs')} (dev: {cfg.get('dev_envs')}), "
                        f"seed={cfg.get('seed')}")
    for column in COLUMNS:
        table.add_column(column)
    for row in summarize(store.results(run.run_id)):
        table.add_row(*cells(row))
    Console().print(table)


def html_report(store: RunStore, run: RunInfo) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in COLUMNS)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells(r)) + "</tr>"
                   for r in summarize(store.results(run.run_id)))
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{run.run_id}</title></head><body>"
            f"<h1>Trajectory decision points {html.escape(run.run_id)}</h1><p>{html.escape(str(run.config))}</p>"
            "<p>Rates over feasible cases; recall is strict (0 when invalid or over budget), the mean over "
            "decision points; infeasible cases must raise BudgetTooSmall with the stated minimum.</p>"
            f"<table border='1'><tr>{head}</tr>{body}</table></body></html>")


register_report(KIND, terminal, html_report)

__all__ = ["COLUMNS", "cells", "html_report", "summarize", "terminal"]
