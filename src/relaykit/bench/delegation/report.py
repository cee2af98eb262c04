"""Terminal and HTML reports of delegation runs (registered for ``relaykit report RUN_ID``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.table import Table

from relaykit.bench.delegation.summary import TAXONOMY_RULES, summarize
from relaykit.bench.reports import register_report, results_console
from relaykit.bench.store import RunInfo, RunStore

KIND = "delegation"


def _pct(x: float) -> str:
    return "n/a" if x != x else f"{100 * x:.1f}%"


def _ci(ci: Any) -> str:
    lo, hi = ci
    return "n/a" if lo != lo else f"[{100 * lo:+.1f}, {100 * hi:+.1f}] pp" if lo < 0 or hi < 0 else \
        f"[{100 * lo:.1f}, {100 * hi:.1f}]"


def _success_rows(summary: Mapping[str, Any]) -> list[list[str]]:
    rows = []
    for arm, row in summary["formats"].items():
        comp = summary["compression"].get(arm, {})
        # the summary keeps NL tokens / arm tokens; shown the relaykit way: arm tokens / NL tokens
        comp_text = f"{_inverse(comp['handoff'])} / {_inverse(comp['end_to_end'])}" if comp else "n/a"
        rows.append([arm, str(row["n"]), _pct(row["success_rate"]), _ci(row["ci"]), f"{row['mean_handoff_tokens']:.0f}",
                     f"{row['mean_total_tokens']:.0f}", comp_text, str(row["planner_failures"])])
    return rows


def _inverse(value: float) -> str:
    return "n/a" if value != value or not value else f"{1 / value:.2f}"


def _route_rows(summary: Mapping[str, Any]) -> list[list[str]]:
    r, o = summary["routing"], summary["oracle"]
    rows = []
    if r["delegations"]:
        rows.append(["routed to GRAPH", f"{r['graph']}/{r['delegations']} ({_pct(r['graph_rate'])})"])
        rows.append(["router tokens per task", f"{r['mean_router_tokens']:.0f}"])
    if o:
        rows.append(["oracle success (best of nl, graph)", _pct(o["success_rate"])])
        rows.append(["graph rescues / nl rescues", f"{o['graph_rescues']} / {o['nl_rescues']}"])
        if "headroom_over_routed" in o:
            rows.append(["oracle headroom over routed", f"{100 * o['headroom_over_routed']:+.1f} pp"])
    return rows


def table_data(summary: Mapping[str, Any]) -> list[tuple[str, tuple[str, ...], list[list[str]]]]:
    """The report's tables as (title, header, rows): success per format, vs NL, routing/oracle, taxonomy."""
    compare = [[row["arm"], str(row["n"]), f"{100 * row['diff']:+.1f} pp", _ci(row["ci"]),
                f"{row['wins']}/{row['losses']}", f"{row['p']:.3g}", f"{row['p_holm']:.3g}"]
               for row in summary["comparisons"]]
    taxonomy = [[arm, str(row["failures"]), f"{row['misalignment']} ({_pct(row['misalignment_share'])})",
                 *(str(row[rule]) for rule in TAXONOMY_RULES)] for arm, row in summary["taxonomy"].items()]
    return [
        (f"delegation run {summary['run_id']} on {summary['suite']} ({summary['tasks']} tasks)",
         ("format", "n", "success", "95% CI", "hand-off tok", "total tok", "ratio vs NL (hand-off / e2e)",
          "planner failures"), _success_rows(summary)),
        ("paired against NL (bootstrap CI of the difference, exact McNemar, Holm)",
         ("format", "n", "diff", "95% CI", "wins/losses", "p", "p (Holm)"), compare),
        ("routing and oracle", ("measure", "value"), _route_rows(summary)),
        ("failure taxonomy (rule-based)", ("format", "failures", "misalignment", *TAXONOMY_RULES), taxonomy),
    ]


def tables(summary: Mapping[str, Any]) -> list[Table]:
    """The report's tables for the terminal."""
    out = []
    for title, head, rows in table_data(summary):
        table = Table(title=title)
        for column in head:
            table.add_column(column)
        for row in rows:
            table.add_row(*row)
        out.append(table)
    return out


def print_summary(summary: Mapping[str, Any], console: Console | None = None) -> None:
    out = console or results_console()
    for table in tables(summary):
        if table.row_count:
            out.print(table)


def terminal(store: RunStore, run: RunInfo) -> None:
    print_summary(summarize(store, run.run_id))


def html_report(store: RunStore, run: RunInfo) -> str:
    from relaykit.bench.delegation.html_report import render_html

    return render_html(summarize(store, run.run_id), run)


register_report(KIND, terminal, html_report, lambda store, run: summarize(store, run.run_id))
