"""The trajectory run's HTML report in the shared page style: the metrics table, a chart, what each metric means."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from relaykit.bench.charts import Point, scatter_with_labels
from relaykit.bench.htmlpage import Block, ChartBlock, Page, TableBlock, TextBlock, render_page
from relaykit.bench.store import RunInfo

METRICS = (
    "episodes: gold episodes each method compressed (N).",
    "valid: share of compressed prefixes that still satisfy the message grammar (every tool call answered, "
    "roles in order); 1.000 = never broke the structure. Higher is better.",
    "grounding recall: share of the identifiers the next gold action needs that are still in the compressed "
    "history, with a 95% bootstrap interval over episodes. Higher is better.",
    "ratio: tokens out / tokens in over all compressed prefixes (below 1 = smaller; none keeps everything, 1.00).",
    "reward: mean episode reward when a policy model plays with the compressed history (tool suites: the share "
    "of steps where it names the gold tool); retention: that reward / the reward with no compression.",
)


def _f(value: float, digits: int = 3) -> str:
    return "—" if value != value else f"{value:.{digits}f}"


def _no_reward_reason(run: RunInfo, rows: Sequence[dict[str, Any]]) -> str | None:
    if any(r["reward"] == r["reward"] for r in rows):
        return None
    if not run.config.get("policy"):
        return ("no reward: this run was model-free (no --policy), so no episode was played; rerun with "
                "--policy local (or another model spec) to measure reward and retention.")
    return "no reward: no played episode reached a decision point (episodes too short, or none finished yet)."


def _table(rows: Sequence[dict[str, Any]], with_reward: bool) -> tuple[list[str], list[list[str]]]:
    head = ["method", "episodes", "valid", "grounding recall [95% CI]", "ratio"]
    if with_reward:
        head += ["reward [95% CI]", "retention"]
    body = []
    for r in rows:
        g_lo, g_hi = r["grounding_ci"]
        line = [r["method"], str(r["episodes"]), _f(r["valid_rate"]),
                f"{_f(r['grounding_recall'])} [{_f(g_lo)}, {_f(g_hi)}]", _f(r["ratio"], 2)]
        if with_reward:
            lo, hi = r["reward_ci"]
            line += [f"{_f(r['reward'])} [{_f(lo)}, {_f(hi)}]", _f(r["retention"], 2)]
        body.append(line)
    return head, body


def chart(rows: Sequence[dict[str, Any]]) -> bytes | None:
    points = [Point(r["method"], r["ratio"], r["grounding_recall"], r["episodes"], *r["grounding_ci"])
              for r in rows if r["ratio"] == r["ratio"] and r["grounding_recall"] == r["grounding_recall"]]
    if not points:
        return None
    return scatter_with_labels(points, xlabel="ratio (tokens out / tokens in; below 1 = smaller)",
                               ylabel="grounding recall", title="Grounding recall vs. ratio (95% bootstrap CI)",
                               reference_x=1.0, reference_label="ratio 1, nothing removed")


def render_html(rows: Sequence[dict[str, Any]], run: RunInfo) -> str:
    reason = _no_reward_reason(run, rows)
    head, body = _table(rows, with_reward=reason is None)
    how = ("One row per method on the same episodes; 'none' is the uncompressed baseline. Higher valid, "
           "grounding recall and reward are better; a lower ratio is a smaller history.")
    blocks: list[Block] = [
        TableBlock("Methods on the environment's episodes", head, body, how_to_read=how,
                   empty="No episode finished yet (resume the run to continue)."),
        ChartBlock("Grounding recall vs. ratio", chart(rows), alt="grounding recall vs ratio",
                   how_to_read="Each point is one method: across, how much of the history it kept (ratio); up, "
                               "how much of what the next action needs survived. Top left is best. N (episodes) "
                               "is in every label.",
                   empty="no method produced a compressed prefix with identifiers to check."),
        TextBlock("What the columns mean", METRICS),
    ]
    config = run.config
    settings = {k: v for k, v in config.items() if k not in ("env", "policy")}
    notes = [reason] if reason else []
    page = Page(lab="Trajectory lab (paper 003): step-wise history compression", run=run,
                subject=f"environment {config.get('env')}",
                models=[str(config["policy"])] if config.get("policy") else [], settings=settings, notes=notes,
                blocks=blocks)
    return render_page(page)


__all__ = ["chart", "render_html"]
