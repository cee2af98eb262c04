"""Tables for decision-point runs: per split, budget and method, feasible and infeasible cases apart."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from rich.table import Table

from relaykit.bench.reports import register_report, results_console
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


SPARE_BINS = ((0, 10), (10, 25), (25, 50), (50, 100), (100, None))
"""Tokens a feasible case's budget leaves above its minimum (the history every output must hold): the bins of
:func:`by_spare`."""


def _bin(lo: int, hi: int | None) -> str:
    return f"{lo}+" if hi is None else f"{lo}-{hi - 1}"


def by_spare(results: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Entity recall per (split, budget, method) and per bin of spare tokens (budget - minimum) of the feasible
    cases with entities: where a method loses, beside the ceiling's bound. ``bins`` maps a bin's label to
    ``{"cases": n, "recall": r}`` (``r`` NaN when ``n`` is 0)."""
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for unit in results.values():
        groups[(unit["split"], unit["budget"], unit["method"])].extend(
            c for c in unit["cases"] if c["feasible"] and c["needed"])
    rows = []
    for (split, budget, method), cases in sorted(groups.items()):
        scored = [(c["budget_tokens"] - c["minimum"], c["hits"] / c["needed"]) for c in cases]
        bins = {}
        for lo, hi in SPARE_BINS:
            inside = [recall for spare, recall in scored if lo <= spare and (hi is None or spare < hi)]
            bins[_bin(lo, hi)] = {"cases": len(inside), "recall": _mean(inside)}
        rows.append({"split": split, "budget": budget, "method": method, "bins": bins})
    return rows


def spare_cells(row: dict[str, Any]) -> list[str]:
    return [row["split"], row["budget"], row["method"],
            *(f"{_fmt(b['recall'])} ({b['cases']})" for b in row["bins"].values())]


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
    cfg = run.config
    table = Table(title=f"{run.run_id}: decision points, envs={cfg.get('envs')} (dev: {cfg.get('dev_envs')}), "
                        f"seed={cfg.get('seed')}")
    for column in COLUMNS:
        table.add_column(column)
    for row in summarize(store.results(run.run_id)):
        table.add_row(*cells(row))
    results_console().print(table)

HOW_TO_READ = (
    "One row per split (dev: the environments the methods were tuned on; held-out: never tuned on), budget and "
    "method, over the same decision points. Rates are over feasible cases; entity recall is strict (0 when "
    "invalid or over budget): higher is better. 'infeasible' cases are those where system + task + the current "
    "step do not fit the budget; there every method must raise BudgetTooSmall stating that minimum.")
METRICS = (
    "feasible: decision points where a valid history fits the budget (N for every rate in the row).",
    "valid / within budget / floor kept: shares of feasible cases with a valid message list, at most the budget "
    "in tokens, and system + task + the current action kept. 1.000 is required.",
    "entity recall: share of the entities the gold action names (tool-call argument values, a text command's "
    "words after its verb) that the history mentioned and the compressed history still holds.",
    "all-words recall: the same over every content word of the gold action.",
    "ceiling (a row, not a method): an optimistic bound on entity recall. The history every output must hold "
    "keeps its words for free; the rest of the budget takes the other target words cheapest first, each at "
    "its own tokens, with nothing for a container. A method's gap to it is the most better choices could win.",
    "size / input: tokens out / tokens in over feasible cases (below 1 = smaller).",
    "clear BudgetTooSmall: share of infeasible cases that raised BudgetTooSmall with the right minimum.",
)


SPARE_HOW_TO_READ = (
    "The feasible cases with entities of the table above, by how many tokens their budget leaves above the minimum "
    "(system, task, pending turn and the current step with its observation cut to a marker): entity recall "
    "(cases). A bin where the ceiling is near 1 and a method is far below it loses by its choices, not by the "
    "budget's arithmetic.")


def html_report(store: RunStore, run: RunInfo) -> str:
    from relaykit.bench.htmlpage import Page, TableBlock, TextBlock, render_page

    results = store.results(run.run_id)
    rows = summarize(results)
    cfg = run.config
    page = Page(lab="Trajectory lab (paper 003): decision points under a token budget", run=run,
                subject=f"environments {', '.join(map(str, cfg.get('envs') or ()))}",
                settings={k: v for k, v in cfg.items() if k != "envs"},
                blocks=[TableBlock("Decision points per split, budget and method", COLUMNS,
                                   [cells(r) for r in rows], how_to_read=HOW_TO_READ,
                                   empty="No decision point finished yet (resume the run to continue)."),
                        TableBlock("Entity recall by tokens the budget leaves above the minimum",
                                   ("split", "budget", "method", *(f"{_bin(lo, hi)} spare" for lo, hi in SPARE_BINS)),
                                   [spare_cells(r) for r in by_spare(results)],
                                   how_to_read=SPARE_HOW_TO_READ,
                                   empty="No feasible decision point with entities finished yet."),
                        TextBlock("What the columns mean", METRICS)])
    return render_page(page)


def json_summary(store: RunStore, run: RunInfo) -> dict[str, Any]:
    """What ``relaykit report RUN --json`` prints: the rows and the recall by spare tokens, from one read."""
    results = store.results(run.run_id)
    return {"rows": summarize(results), "by_spare_tokens": by_spare(results)}


register_report(KIND, terminal, html_report, json_summary)

__all__ = ["COLUMNS", "HOW_TO_READ", "SPARE_BINS", "by_spare", "cells", "html_report", "json_summary", "spare_cells",
           "summarize", "terminal"]
