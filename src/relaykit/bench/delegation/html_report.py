"""The delegation run's HTML report in the shared page style: real tables and a success chart (or why not)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from relaykit.bench.charts import bars_with_n
from relaykit.bench.delegation.report import table_data
from relaykit.bench.htmlpage import ChartBlock, Page, TableBlock, render_page
from relaykit.bench.store import RunInfo

HOW = (
    "One row per hand-off format. success: share of tasks whose end state matches the gold check (higher is "
    "better), with its 95% bootstrap interval. hand-off tok and total tok: mean tokens per task for the hand-off "
    "alone and for the whole task. ratio vs NL: this format's tokens / the NL format's tokens on the same tasks "
    "(below 1 = cheaper than prose). planner failures: tasks where no plan could be made.",
    "Each format against the natural-language hand-off on the tasks both ran: the difference in success in "
    "percentage points (above 0 = better than NL), its paired 95% interval, tasks won/lost, and exact McNemar p "
    "(Holm-corrected across formats). A small p means the difference is unlikely to be chance.",
    "How often the router picked the graph, what routing cost, and the oracle: the better of NL and graph per "
    "task, the ceiling a perfect router would reach.",
    "Failures sorted by rule: misalignment (the executor did something the request did not ask), a missing "
    "prerequisite call, a retry loop, an order violation. Counts are over failed tasks.",
)
EMPTY = (
    "No task finished in any format yet.",
    "No comparison: the run has no NL arm, or no task ran in both NL and another format.",
    "No routed or oracle arm in this run (use --format routed or oracle).",
    "No failures to sort.",
)


def success_chart(summary: Mapping[str, Any]) -> bytes | None:
    formats = {arm: row for arm, row in summary["formats"].items() if row["n"] and row["success_rate"] == row[
        "success_rate"]}
    if not formats:
        return None
    names = list(formats)
    return bars_with_n(names, [formats[a]["success_rate"] for a in names], [formats[a]["n"] for a in names],
                       lows=[formats[a]["ci"][0] for a in names], highs=[formats[a]["ci"][1] for a in names],
                       ylabel="task success", title="Task success per hand-off format (95% bootstrap CI)")


def render_html(summary: Mapping[str, Any], run: RunInfo) -> str:
    data = table_data(summary)
    blocks: list[TableBlock | ChartBlock] = [
        TableBlock("Success, tokens and ratio per format", data[0][1], data[0][2], how_to_read=HOW[0], empty=EMPTY[0]),
        ChartBlock("Task success per format", success_chart(summary), alt="task success per format",
                   how_to_read="One bar per format: the share of tasks that succeeded, its 95% interval, and N "
                               "(tasks) under the name. Higher is better.",
                   empty="no format finished a task, so there is no success rate to draw."),
    ]
    blocks += [TableBlock(title, head, rows, how_to_read=how, empty=empty)
               for (title, head, rows), how, empty in zip(data[1:], HOW[1:], EMPTY[1:])]
    config = run.config
    models = [f"planner: {config.get('planner')}", f"executor: {config.get('executor')}"]
    settings = {k: v for k, v in config.items() if k not in ("suite", "planner", "executor")}
    page = Page(lab="Delegation lab (paper 004): graph vs. prose hand-offs", run=run,
                subject=f"suite {summary.get('suite')} ({summary.get('tasks')} tasks)", models=models,
                settings=settings, notes=_notes(summary), blocks=blocks)
    return render_page(page)


def _notes(summary: Mapping[str, Any]) -> list[str]:
    notes = []
    failures = sum(row["planner_failures"] for row in summary["formats"].values())
    if failures:
        notes.append(f"{failures} task(s) had no plan (planner failures); they count as failed tasks and are left "
                     "out of the token ratios.")
    ns = {row["n"] for row in summary["formats"].values()}
    if len(ns) > 1:
        notes.append("Formats ran on different numbers of tasks; comparisons use only the tasks both ran.")
    return notes


__all__ = ["render_html", "success_chart"]
