"""Terminal and HTML reports of delegation runs (registered for ``relaykit report RUN_ID``)."""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.table import Table

from relaykit.bench.delegation.summary import TAXONOMY_RULES, summarize
from relaykit.bench.reports import register_report
from relaykit.bench.store import RunInfo, RunStore

KIND = "delegation"


def _pct(x: float) -> str:
    return "n/a" if x != x else f"{100 * x:.1f}%"


def _ci(ci: Any) -> str:
    lo, hi = ci
    return "n/a" if lo != lo else f"[{100 * lo:+.1f}, {100 * hi:+.1f}] pp" if lo < 0 or hi < 0 else \
        f"[{100 * lo:.1f}, {100 * hi:.1f}]"


def tables(summary: Mapping[str, Any]) -> list[Table]:
    """The report's tables: success per format, comparisons vs NL, routing/oracle, taxonomy."""
    success = Table(title=f"delegation run {summary['run_id']} on {summary['suite']} ({summary['tasks']} tasks)")
    for column in ("format", "n", "success", "95% CI", "hand-off tok", "total tok", "compression (hand-off / e2e)",
                   "planner failures"):
        success.add_column(column)
    compression = summary["compression"]
    for arm, row in summary["formats"].items():
        comp = compression.get(arm, {})
        comp_text = f"{comp['handoff']:.2f}x / {comp['end_to_end']:.2f}x" if comp else "n/a"
        success.add_row(arm, str(row["n"]), _pct(row["success_rate"]), _ci(row["ci"]),
                        f"{row['mean_handoff_tokens']:.0f}", f"{row['mean_total_tokens']:.0f}", comp_text,
                        str(row["planner_failures"]))
    compare = Table(title="paired against NL (bootstrap CI of the difference, exact McNemar, Holm)")
    for column in ("format", "n", "diff", "95% CI", "wins/losses", "p", "p (Holm)"):
        compare.add_column(column)
    for row in summary["comparisons"]:
        compare.add_row(row["arm"], str(row["n"]), f"{100 * row['diff']:+.1f} pp", _ci(row["ci"]),
                        f"{row['wins']}/{row['losses']}", f"{row['p']:.3g}", f"{row['p_holm']:.3g}")
    route = Table(title="routing and oracle")
    route.add_column("measure")
    route.add_column("value")
    r, o = summary["routing"], summary["oracle"]
    if r["delegations"]:
        route.add_row("routed to GRAPH", f"{r['graph']}/{r['delegations']} ({_pct(r['graph_rate'])})")
        route.add_row("router tokens per task", f"{r['mean_router_tokens']:.0f}")
    if o:
        route.add_row("oracle success (best of nl, graph)", _pct(o["success_rate"]))
        route.add_row("graph rescues / nl rescues", f"{o['graph_rescues']} / {o['nl_rescues']}")
        if "headroom_over_routed" in o:
            route.add_row("oracle headroom over routed", f"{100 * o['headroom_over_routed']:+.1f} pp")
    taxonomy = Table(title="failure taxonomy (rule-based)")
    for column in ("format", "failures", "misalignment", *TAXONOMY_RULES):
        taxonomy.add_column(column)
    for arm, row in summary["taxonomy"].items():
        taxonomy.add_row(arm, str(row["failures"]), f"{row['misalignment']} ({_pct(row['misalignment_share'])})",
                         *(str(row[rule]) for rule in TAXONOMY_RULES))
    return [success, compare, route, taxonomy]


def print_summary(summary: Mapping[str, Any], console: Console | None = None) -> None:
    out = console or Console()
    for table in tables(summary):
        if table.row_count:
            out.print(table)


def terminal(store: RunStore, run: RunInfo) -> None:
    print_summary(summarize(store, run.run_id))


def html_report(store: RunStore, run: RunInfo) -> str:
    """A self-contained page: the tables as text and a chart of success per format with CIs."""
    summary = summarize(store, run.run_id)
    console = Console(record=True, width=140, file=io.StringIO())
    print_summary(summary, console)
    text = html.escape(console.export_text())
    return (f"<!doctype html><meta charset='utf-8'><title>delegation {run.run_id}</title>"
            f"<h1>Delegation lab: {html.escape(str(summary['suite']))}</h1>{_chart(summary)}<pre>{text}</pre>")


def _chart(summary: Mapping[str, Any]) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    arms = list(summary["formats"])
    if not arms:
        return ""
    rates = [summary["formats"][a]["success_rate"] for a in arms]
    lows = [max(0.0, r - summary["formats"][a]["ci"][0]) for a, r in zip(arms, rates)]
    highs = [max(0.0, summary["formats"][a]["ci"][1] - r) for a, r in zip(arms, rates)]
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.bar(arms, rates, yerr=[lows, highs], capsize=4)
    ax.set_ylabel("task success")
    ax.set_ylim(0, 1)
    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    return f"<img alt='success per format' src='data:image/png;base64,{base64.b64encode(buffer.getvalue()).decode()}'>"


register_report(KIND, terminal, html_report)
