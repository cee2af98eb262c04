"""The relay run's HTML report in the shared page style: Table I, Fig. 2, Tables II-III, diagnostics, McNemar."""

from __future__ import annotations

import math
from typing import Any

from relaykit.bench.charts import Point, scatter_with_labels
from relaykit.bench.htmlpage import Block, ChartBlock, Page, TableBlock, render_page
from relaykit.bench.relay.methods import MethodSpec
from relaykit.bench.relay.report import table_diagnostics, table_mcnemar, table_one, table_three, table_two
from relaykit.bench.relay.summary import Row, Summary
from relaykit.bench.store import RunInfo

RATIO_TEXT = ("ratio = payload tokens / trace tokens, averaged over goals: below 1 the payload is smaller than the "
              "trace; above 1 it is longer (a method that wraps a short trace in JSON or adds a header can do that).")
HOW = {
    "I": "One row per hand-off method (with the Booker in brackets when several ran). feasible: share of goals "
         "whose booking meets every constraint; optimal: share that is also the cheapest feasible pair; higher is "
         "better for both, and the 95% interval shows how sure that is. " + RATIO_TEXT + " tokens/run: tokens "
         "the whole relay spent per goal (lower is cheaper).",
    "II": "For the answers that were feasible: how many US dollars above the cheapest feasible pair they paid "
          "(0 = optimal; lower is better). N feasible counts those answers.",
    "III": "Where the goals went: feas OK and opt OK are successes; the other columns count the ways a booking "
           "failed (false NONE: said nothing fits when something did; wrong pair: broke a constraint; "
           "ungrounded: named a hotel or flight that does not exist; error: the agent produced nothing usable).",
    "diag": "Embedding cosines between the payload and the trace (fidelity) and the goal (goal similarity), and "
            "the share of the trace's decisive facts that survive in the payload (evidence recall); higher "
            "keeps more, and none of them is a success measure on its own.",
    "mcnemar": "Exact McNemar tests on goals both rows ran on: A only / B only count the goals only one of the "
               "two got feasible. Small p (below 0.05 after Holm) means the difference is unlikely to be chance.",
    "fig": "Each point is one method: across, its ratio (left of the dashed line = smaller than the trace); up, "
           "its feasibility with the 95% interval. The best methods sit top left. Every label gives N, the goals "
           "the point is averaged over; hollow points ran on fewer goals than the rest, so their intervals are "
           "wide and their place uncertain.",
}


def _world(config: dict[str, Any]) -> str:
    source = config.get("world_file") or "generated world"
    return (f"{source}: {config.get('goals')} goals, {config.get('hotels')} hotels x {config.get('flights')} "
            f"flights, seed {config.get('seed')}")


def _uses_model(config: dict[str, Any]) -> bool:
    if config.get("researcher") == "model" or "model" in config.get("bookers", []):
        return True
    return any(MethodSpec(m, str(m).split(":")[0]).needs_model for m in config.get("methods", []))


def _settings(config: dict[str, Any]) -> dict[str, Any]:
    keys = ("methods", "researcher", "bookers", "embedder", "model_goals", "model_budget_s", "cache")
    return {key.replace("_", " "): config.get(key) for key in keys}


def _marked(rows: list[Row]) -> frozenset[int]:
    biggest = max((r.n for r in rows), default=0)
    return frozenset(i for i, r in enumerate(rows) if r.n < biggest)


def figure(rows: list[Row]) -> bytes | None:
    """Fig. 2: feasibility accuracy against the ratio, with 95% CI bars and N on every label."""
    drawn = [r for r in rows if r.n > 0 and all(math.isfinite(v) for v in (r.ratio, r.feasible_accuracy,
                                                                                *r.feasible_ci))]
    if not drawn:
        return None
    points = [Point(r.name, r.ratio, r.feasible_accuracy, r.n, *r.feasible_ci) for r in drawn]
    return scatter_with_labels(points, xlabel="ratio (payload tokens / trace tokens; below 1 = smaller)",
                               ylabel="feasibility accuracy", title="Feasibility vs. ratio (95% bootstrap CI)",
                               reference_x=1.0, reference_label="ratio 1, the payload is as long as the trace")


def _notes(summary: Summary) -> list[str]:
    notes = list(summary.notes)
    marked = _marked(summary.rows)
    if marked:
        biggest = max(r.n for r in summary.rows)
        names = ", ".join(f"{summary.rows[i].name} (N={summary.rows[i].n})" for i in sorted(marked))
        notes.insert(0, f"Rows in italics ran on fewer goals than the others ({biggest}): {names}. Their "
                        "intervals are wide; compare them with the others with care.")
    return notes


def render_html(summary: Summary, run: RunInfo) -> str:
    # rows of methods that never finished a goal (N = 0, with their reason in the notes) show only when some
    # method did; a run with no result at all says so instead of a table of zeros
    rows = summary.rows if any(r.n for r in summary.rows) else []
    marked = _marked(rows)
    empty = "No method finished a goal yet (see the notes for why)."
    blocks: list[Block] = [
        TableBlock("Table I: overall performance (95% bootstrap CI over goals)", *table_one(rows), how_to_read=HOW["I"],
                   empty=empty, marked_rows=marked),
        ChartBlock("Figure 2: feasibility vs. ratio", figure(rows), how_to_read=HOW["fig"], alt="feasibility vs ratio",
                   empty="no method finished a goal, so there is nothing to place."),
        TableBlock("Table II: optimality gap, feasible answers only", *table_two(rows), how_to_read=HOW["II"],
                   empty=empty, marked_rows=marked),
        TableBlock("Table III: failure breakdown (counts over goals)", *table_three(rows), how_to_read=HOW["III"],
                   empty=empty, marked_rows=marked),
        TableBlock("Diagnostics: embedding cosines, evidence recall", *table_diagnostics(rows),
                   how_to_read=HOW["diag"], empty=empty, marked_rows=marked),
        TableBlock("Exact McNemar tests on paired feasibility", *table_mcnemar(summary), how_to_read=HOW["mcnemar"],
                   empty="No pair of rows to test (fewer than two rows ran on shared goals)."),
    ]
    config = run.config
    page = Page(lab="Relay lab (paper 000): hand-off methods on travel goals", run=run, subject=_world(config),
                models=[str(config.get("model"))] if _uses_model(config) else [], settings=_settings(config),
                notes=_notes(summary), blocks=blocks)
    return render_page(page)


__all__ = ["figure", "render_html"]
