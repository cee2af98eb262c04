"""The relay run's report: Tables I-III and McNemar in the terminal; the HTML page is in ``html_report``."""

from __future__ import annotations

from relaykit.bench.relay.summary import Row, Summary, summarize
from relaykit.bench.relay.terminal import print_summary
from relaykit.bench.reports import register_report
from relaykit.bench.store import RunInfo, RunStore


def _ci(ci: tuple[float, float] | None, fmt: str = "{:.2f}") -> str:
    return "" if ci is None else f"[{fmt.format(ci[0])}, {fmt.format(ci[1])}]"


def table_one(rows: list[Row]) -> tuple[list[str], list[list[str]]]:
    head = ["method", "N", "feasible [95% CI]", "optimal [95% CI]", "ratio", "tokens/run"]
    body = [[r.name, str(r.n), f"{r.feasible_accuracy:.2f} {_ci(r.feasible_ci)}",
             f"{r.optimal_accuracy:.2f} {_ci(r.optimal_ci)}", f"{r.ratio:.3f}", f"{r.tokens_per_run:,.0f}"]
            for r in rows]
    return head, body


def table_diagnostics(rows: list[Row]) -> tuple[list[str], list[list[str]]]:
    head = ["method", "fidelity", "goal similarity", "evidence recall"]
    body = [[r.name, f"{r.fidelity:.3f}", f"{r.goal_similarity:.3f}", f"{r.evidence_recall:.3f}"] for r in rows]
    return head, body


def table_two(rows: list[Row]) -> tuple[list[str], list[list[str]]]:
    head = ["method", "N feasible", "mean gap USD [95% CI]"]
    body = [[r.name, str(r.n_gap), "" if r.mean_gap is None else f"{r.mean_gap:.2f} {_ci(r.gap_ci)}"]
            for r in rows]
    return head, body


def table_three(rows: list[Row]) -> tuple[list[str], list[list[str]]]:
    head = ["method", "N", "feas OK", "opt OK", "feas fail", "false NONE", "wrong pair", "ungrounded", "error"]
    body = [[r.name, str(r.n), str(r.counts["ok"]), str(r.counts["optimal"]), str(r.n - r.counts["ok"]),
             str(r.counts["false_none"]), str(r.counts["wrong_pair"]), str(r.counts["ungrounded"]),
             str(r.counts["error"])] for r in rows]
    return head, body


def table_mcnemar(summary: Summary) -> tuple[list[str], list[list[str]]]:
    head = ["A", "B", "A only", "B only", "p exact", "p Bonf.", "p Holm"]
    body = [[m.a, m.b, str(m.a_only), str(m.b_only), f"{m.p_value:.4g}", f"{m.p_bonferroni:.4g}",
             f"{m.p_holm:.4g}"] for m in summary.mcnemar]
    return head, body


TITLES = (
    ("Table I: overall performance (95% bootstrap CI over goals, 10,000 resamples)", table_one),
    ("Table II: optimality gap, feasible answers only", table_two),
    ("Table III: failure breakdown (counts over goals)", table_three),
    ("Diagnostics: embedding cosines, evidence recall", table_diagnostics),
)




def terminal_report(store: RunStore, run: RunInfo) -> None:
    print_summary(summarize(store, run))


def html_report(store: RunStore, run: RunInfo) -> str:
    from relaykit.bench.relay.html_report import render_html  # the page imports this module's tables

    return render_html(summarize(store, run), run)


register_report("relay", terminal_report, html_report, lambda store, run: summarize(store, run).as_json())
