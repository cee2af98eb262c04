"""The relay run's report: Tables I-III and McNemar in the terminal; the same plus Fig. 2 in one HTML file."""

from __future__ import annotations

import base64
import html
import io

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


def figure_png(rows: list[Row]) -> bytes:
    """Fig. 2: feasibility accuracy against compression ratio, with 95% CI bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=110)
    for row in rows:
        lo, hi = row.feasible_ci
        ax.errorbar([row.ratio], [row.feasible_accuracy],
                    yerr=[[row.feasible_accuracy - lo], [hi - row.feasible_accuracy]], fmt="o", capsize=4)
        ax.annotate(row.name, (row.ratio, row.feasible_accuracy), textcoords="offset points", xytext=(6, 4),
                    fontsize=8)
    ax.set_xlabel("compression ratio (payload tokens / trace tokens)")
    ax.set_ylabel("feasibility accuracy")
    ax.set_ylim(-0.05, 1.05)
    ax.grid(alpha=0.3)
    ax.set_title("Feasibility vs. compression ratio (95% bootstrap CI)")
    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    return buffer.getvalue()


def _html_table(title: str, head: list[str], body: list[list[str]]) -> str:
    cells = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    lines = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in line) + "</tr>" for line in body)
    return f"<h2>{html.escape(title)}</h2>\n<table><tr>{cells}</tr>{lines}</table>\n"


def render_html(summary: Summary) -> str:
    parts = [f"<h1>Relay run {html.escape(summary.run_id)}</h1>"]
    parts += [_html_table(title, *build(summary.rows)) for title, build in TITLES]
    parts.append(_html_table("Exact McNemar tests on paired feasibility", *table_mcnemar(summary)))
    if any(r.n for r in summary.rows):
        png = base64.b64encode(figure_png([r for r in summary.rows if r.n])).decode("ascii")
        parts.append(f'<h2>Figure: feasibility vs. compression ratio</h2>\n<img alt="feasibility vs ratio" '
                     f'src="data:image/png;base64,{png}">')
    parts.append("<ul>" + "".join(f"<li>{html.escape(n)}</li>" for n in summary.notes) + "</ul>")
    style = ("body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1em}"
             "td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}td:first-child{text-align:left}")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>relay {html.escape(summary.run_id)}"
            f"</title><style>{style}</style></head><body>{''.join(parts)}</body></html>\n")


def terminal_report(store: RunStore, run: RunInfo) -> None:
    print_summary(summarize(store, run))


def html_report(store: RunStore, run: RunInfo) -> str:
    return render_html(summarize(store, run))


register_report("relay", terminal_report, html_report)
