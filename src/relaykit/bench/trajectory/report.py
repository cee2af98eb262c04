"""Tables for trajectory lab runs: per method, model-free metrics and policy reward with retention."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from rich.table import Table

from relaykit.bench.reports import register_report, results_console
from relaykit.bench.stats import bootstrap_ci
from relaykit.bench.store import RunInfo, RunStore

KIND = "trajectory"


def summarize(results: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per method: validity rate, grounding recall, realized compression, reward and retention."""
    free: dict[str, list[dict[str, Any]]] = defaultdict(list)
    policy: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for value in results.values():
        if value["part"] == "policy" and not value.get("steps"):
            continue  # an episode too short to give a decision point says nothing about reward
        (free if value["part"] == "free" else policy)[value["method"]].append(value)
    base = _mean([r["reward"] for r in policy.get("none", [])])
    rows = []
    for method in sorted(set(free) | set(policy), key=lambda m: (m != "none", m)):
        f, p = free.get(method, []), policy.get(method, [])
        recall = [r["grounding_hits"] / r["grounding_needed"] for r in f if r["grounding_needed"]]
        rewards = [float(r["reward"]) for r in p]
        rows.append({
            "method": method,
            "episodes": len(f),
            "valid_rate": _ratio(sum(r["valid"] for r in f), sum(r["prefixes"] for r in f)),
            "grounding_recall": _mean(recall),
            "grounding_ci": bootstrap_ci(recall, resamples=2000) if recall else (float("nan"),) * 2,
            "ratio": _ratio(sum(r["tokens_out"] for r in f), sum(r["tokens_in"] for r in f)),  # out / in
            "reward": _mean(rewards),
            "reward_ci": bootstrap_ci(rewards, resamples=2000) if rewards else (float("nan"),) * 2,
            "policy_ratio": _ratio(sum(r["tokens_out"] for r in p), sum(r["tokens_in"] for r in p)),
            "retention": (_mean(rewards) / base) if rewards and base and base > 0 else float("nan"),
        })
    return rows


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def _ratio(a: float, b: float) -> float:
    return a / b if b else float("nan")


def _fmt(value: float, digits: int = 3) -> str:
    return "—" if value != value else f"{value:.{digits}f}"


COLUMNS = ("method", "episodes", "valid", "grounding recall [95% CI]", "ratio (out / in)", "reward [95% CI]",
           "retention")


def _cells(row: dict[str, Any]) -> list[str]:
    g_lo, g_hi = row["grounding_ci"]
    r_lo, r_hi = row["reward_ci"]
    return [row["method"], str(row["episodes"]), _fmt(row["valid_rate"]),
            f"{_fmt(row['grounding_recall'])} [{_fmt(g_lo)}, {_fmt(g_hi)}]", _fmt(row["ratio"], 2),
            f"{_fmt(row['reward'])} [{_fmt(r_lo)}, {_fmt(r_hi)}]", _fmt(row["retention"], 2)]


def terminal(store: RunStore, run: RunInfo) -> None:
    cfg = run.config
    table = Table(title=f"{run.run_id}: env={cfg.get('env')} policy={cfg.get('policy') or 'none (model-free)'} "
                        f"keep={cfg.get('keep')} dropped={cfg.get('dropped')}")
    rows = summarize(store.results(run.run_id))
    width = len(COLUMNS) if any(r["reward"] == r["reward"] for r in rows) else 5  # no policy: no reward columns
    for column in COLUMNS[:width]:
        table.add_column(column)
    for row in rows:
        table.add_row(*_cells(row)[:width])
    results_console().print(table)


def html_report(store: RunStore, run: RunInfo) -> str:
    from relaykit.bench.trajectory.html_report import render_html

    return render_html(summarize(store.results(run.run_id)), run)


register_report(KIND, terminal, html_report, lambda store, run: {"methods": summarize(store.results(run.run_id))})

__all__ = ["html_report", "summarize", "terminal"]
