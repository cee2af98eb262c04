"""The relay run in the terminal: Table I first, each table with one line saying how to read it.

Rows that ran on every goal come first; rows that ran on fewer goals (or none: N = 0, with the reason)
follow in a separate block of Table I and are left out of the paired McNemar tests. The McNemar table
lists only pairs that disagreed on some goal unless ``all_pairs``.
"""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from relaykit.bench.relay.summary import Row, Summary
from relaykit.bench.reports import results_console

READ_TABLE_ONE = ("Share of goals where the Booker's pair is feasible / optimal (higher is better); ratio = payload "
                  "tokens / trace tokens (below 1 = smaller payload; 1 = unchanged); tokens/run = all agents' "
                  "model tokens.")
READ_TABLE_TWO = "Extra cost in USD of the chosen pair over the optimal one, on feasible answers (lower is better)."
READ_TABLE_THREE = "What went wrong, counted over goals (lower is better, except the OK columns)."
READ_DIAGNOSTICS = ("Embedding cosine of the payload with the trace (fidelity) and with the goal; evidence recall = "
                    "share of the facts the audit needs that the payload keeps (higher is better).")
READ_MCNEMAR = ("Exact McNemar test on paired feasibility: A only / B only = goals where just that row was right; "
                "small p = a real difference.")


def _num(value: float, fmt: str = "{:.2f}") -> str:
    return "—" if value != value else fmt.format(value)  # NaN: a row with no goals


def _ci(ci: tuple[float, float] | None) -> str:
    return "" if ci is None or ci[0] != ci[0] else f"[{ci[0]:.2f}, {ci[1]:.2f}]"


def table_one_rows(rows: list[Row]) -> list[list[str]]:
    return [[r.name, str(r.n), f"{_num(r.feasible_accuracy)} {_ci(r.feasible_ci)}".strip(),
             f"{_num(r.optimal_accuracy)} {_ci(r.optimal_ci)}".strip(), _num(r.ratio, "{:.3f}"),
             _num(r.tokens_per_run, "{:,.0f}")] for r in rows]


def _table(title: str, head: list[str], body: list[list[str]], caption: str = "") -> Table:
    table = Table(title=title, title_justify="left", caption=caption or None, caption_justify="left")
    for i, column in enumerate(head):
        table.add_column(column, justify="left" if i == 0 or column == "reason" else "right", no_wrap=i == 0)
    for line in body:
        table.add_row(*(escape(cell) for cell in line))  # names such as "prune [model]" are not markup
    return table


def _print_read(console: Console, text: str) -> None:
    console.print(f"[dim]{escape(text)}[/dim]", highlight=False)


def print_summary(summary: Summary, console: Console | None = None, *, all_pairs: bool = False) -> None:
    console = results_console(132, console)  # piped output (make demo, CI logs): a width that fits the tables
    full = [r for r in summary.rows if not r.partial]
    partial = [r for r in summary.rows if r.partial]
    head = ["method", "N", "feasible [95% CI]", "optimal [95% CI]", "ratio", "tokens/run"]
    _print_read(console, READ_TABLE_ONE)
    console.print(_table(f"Table I: overall performance over {summary.full_n} goals (95% bootstrap CI)", head,
                         table_one_rows(full)))
    if partial:
        body = [[*line, r.reason or "no result"] for line, r in zip(table_one_rows(partial), partial)]
        console.print(_table("Table I (continued): rows with fewer goals — not comparable, left out of the "
                             "McNemar tests", [*head, "reason"], body))
    ran = [r for r in summary.rows if r.n]
    _print_read(console, READ_TABLE_TWO)
    console.print(_table("Table II: optimality gap, feasible answers only", ["method", "N feasible",
                         "mean gap USD [95% CI]"],
                         [[r.name, str(r.n_gap), "" if r.mean_gap is None else f"{r.mean_gap:.2f} {_ci(r.gap_ci)}"]
                          for r in ran]))
    _print_read(console, READ_TABLE_THREE)
    console.print(_table("Table III: failure breakdown (counts over goals)",
                         ["method", "N", "feas OK", "opt OK", "feas fail", "false NONE", "wrong pair", "ungrounded",
                          "error"],
                         [[r.name, str(r.n), str(r.counts["ok"]), str(r.counts["optimal"]), str(r.n - r.counts["ok"]),
                           str(r.counts["false_none"]), str(r.counts["wrong_pair"]), str(r.counts["ungrounded"]),
                           str(r.counts["error"])] for r in ran]))
    _print_read(console, READ_DIAGNOSTICS)
    console.print(_table("Diagnostics: embedding cosines, evidence recall",
                         ["method", "fidelity", "goal similarity", "evidence recall"],
                         [[r.name, _num(r.fidelity, "{:.3f}"), _num(r.goal_similarity, "{:.3f}"),
                           _num(r.evidence_recall, "{:.3f}")] for r in ran]))
    print_mcnemar(summary, console, all_pairs=all_pairs)
    for note in summary.notes:
        console.print(f"[dim]note:[/dim] {escape(note)}", highlight=False)


def print_mcnemar(summary: Summary, console: Console, *, all_pairs: bool = False) -> None:
    tests = summary.mcnemar if all_pairs else summary.discordant()
    hidden = len(summary.mcnemar) - len(tests)
    _print_read(console, READ_MCNEMAR)
    body = [[m.a, m.b, str(m.a_only), str(m.b_only), f"{m.p_value:.4g}", f"{m.p_bonferroni:.4g}", f"{m.p_holm:.4g}"]
            for m in tests]
    caption = (f"{hidden} pair(s) that agreed on every goal (p = 1) not shown; --all-pairs lists them"
               if hidden else "")
    console.print(_table(f"Exact McNemar tests on paired feasibility ({len(summary.mcnemar)} pairs, rows with "
                         f"{summary.full_n} goals)", ["A", "B", "A only", "B only", "p exact", "p Bonf.", "p Holm"],
                         body, caption))
