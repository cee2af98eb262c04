"""The composition run's HTML report in the shared page style: conditions, contrasts C1-C5, two charts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from relaykit.bench.charts import bars_with_n, pyplot, to_png
from relaykit.bench.composition.design import BY_NAME
from relaykit.bench.composition.report import CONDITION_HEADERS, CONTRAST_HEADERS, _condition_rows, _contrast_rows
from relaykit.bench.htmlpage import Block, ChartBlock, Page, TableBlock, TextBlock, render_page
from relaykit.bench.store import RunInfo

RATIO_ORDER = ("signal_100", "signal_80", "signal_50", "signal_30", "signal_10")
POSITIONS = tuple(name for name in BY_NAME if name.startswith("pos_"))
HOW_CONDITIONS = (
    "One row per condition: the share of the prompt that is signal (the rest is low-relevance contrast), where "
    "the signal sits, and the model's relevance accuracy. RelAcc: agreement of the model's 0-3 relevance scores "
    "with the labels (1 = all right; higher is better); fact-type recall: share of labelled fact types the model "
    "named; parsed: share of answers that were valid JSON; n: trials (model x block).")
HOW_CONTRASTS = (
    "The pre-specified questions, each a paired difference over model x block: mean diff above 0 favours the "
    "first condition named in the question; the 95% interval not crossing 0, and a small p after Holm "
    "correction, mean the effect is unlikely to be chance; d is Cohen's effect size.")


def ratio_chart(conds: Mapping[str, Mapping[str, Any]]) -> bytes | None:
    names = [n for n in RATIO_ORDER if n in conds]
    if not names:
        return None
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    x = [BY_NAME[n].n_signal * 10 for n in names]
    recall = [conds[n]["fact_type_recall"] for n in names]
    relacc = [conds[n]["relacc"] for n in names]
    # fact-type recall first and dashed, RelAcc on top, thicker: where they coincide both stay visible
    ax.plot(x, [v if v is not None else float("nan") for v in recall], "s--", color="#b3541e", markersize=9,
            markerfacecolor="white", linewidth=1.5, label="fact-type recall", zorder=2)
    ax.plot(x, [v if v is not None else float("nan") for v in relacc], "o-", color="#2f5fa7", markersize=6,
            linewidth=2.5, label="RelAcc", zorder=3)
    for xi, name, value in zip(x, names, relacc):
        if value is not None:
            ax.annotate(f"N={conds[name]['n']}", (xi, value), textcoords="offset points", xytext=(0, -14),
                        ha="center", fontsize=8, color="#2f5fa7")
    ax.set_xlabel("signal share of the prompt (%)")
    ax.set_ylabel("score (higher is better)")
    ax.set_ylim(-0.1, 1.1)
    ax.set_xticks(x)
    ax.invert_xaxis()
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left", fontsize=9)
    ax.set_title("Ratio conditions: less signal, more contrast, to the right", fontsize=11)
    fig.tight_layout()
    return to_png(fig)


def position_chart(conds: Mapping[str, Mapping[str, Any]]) -> bytes | None:
    names = [n for n in conds if n.startswith("pos_")]
    if not names:
        return None
    return bars_with_n([n.removeprefix("pos_") for n in names], [conds[n]["relacc"] or 0.0 for n in names],
                       [conds[n]["n"] for n in names], lows=[conds[n]["relacc_ci"][0] for n in names],
                       highs=[conds[n]["relacc_ci"][1] for n in names], ylabel="RelAcc",
                       title="Position conditions (signal share 50%)")


def _extra_lines(summary: Mapping[str, Any]) -> list[str]:
    lines = []
    matched = summary["c1_matched_items"]
    if matched:
        lines.append(f"C1 on matched items only (the 100%-signal prompt scored on the five signal items the "
                     f"50:50 prompt shares): {matched['mean']:+.3f} [{matched['ci'][0]:+.3f}, "
                     f"{matched['ci'][1]:+.3f}], n={matched['n']}.")
    agreement, tokens = summary["agreement"], summary["tokens"]
    exact, within = agreement["target_exact"], agreement["target_within_one"]
    if exact is not None and within is not None:
        lines.append(f"Agreement with the labels on target items: exact {exact:.3f}, within one {within:.3f}.")
    lines.append(f"Tokens: {tokens['prompt']} prompt + {tokens['completion']} completion over "
                 f"{summary['trials']} trials.")
    return lines


def render_html(summary: Mapping[str, Any], run: RunInfo) -> str:
    conds = summary["conditions"]
    blocks: list[Block] = [
        TableBlock("Conditions", CONDITION_HEADERS, _condition_rows(summary), how_to_read=HOW_CONDITIONS,
                   empty="No trial finished yet."),
        ChartBlock("Ratio conditions", ratio_chart(conds), alt="RelAcc and fact-type recall per signal share",
                   how_to_read="Blue solid line: RelAcc; orange dashed line with hollow squares: fact-type "
                               "recall. Moving right, the prompt holds less signal and more low-relevance contrast. "
                               "N (trials) is under every RelAcc point.",
                   empty="this run had no ratio condition (signal_100 ... signal_10)."),
        ChartBlock("Position conditions", position_chart(conds), alt="RelAcc per position",
                   how_to_read="RelAcc with the signal placed at the start, middle or end, or scattered; N under "
                               "each bar.",
                   empty=f"this run had no position condition ({', '.join(POSITIONS)})."),
        TableBlock("Contrasts C1-C5 (paired over model x block, Holm over C1-C5)", CONTRAST_HEADERS,
                   _contrast_rows(summary), how_to_read=HOW_CONTRASTS,
                   empty="No contrast: the conditions it compares did not both run."),
        TextBlock("Sensitivity and agreement", _extra_lines(summary)),
    ]
    config = run.config
    notes = ["Corpus: SYNTHETIC (generated); the figures test the pipeline, not real mail."] \
        if summary["synthetic_corpus"] else []
    settings = {k: v for k, v in config.items() if k not in ("corpus", "models", "corpus_digest", "synthetic")}
    page = Page(lab="Composition lab (paper 002): relevance contrast and position", run=run,
                subject=f"corpus {config.get('corpus')}" + (" (synthetic)" if summary["synthetic_corpus"] else ""),
                models=list(summary["models"]), settings=settings, notes=notes, blocks=blocks)
    return render_page(page)


__all__ = ["position_chart", "ratio_chart", "render_html"]
