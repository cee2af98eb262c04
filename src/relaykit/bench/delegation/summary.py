"""The statistics of a delegation run: success with CIs, paired comparisons, compression, routing, oracle."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from relaykit.bench.stats import bootstrap_ci, holm, mcnemar_exact, paired_bootstrap_ci
from relaykit.bench.store import RunStore

TAXONOMY_RULES = ("missing_prerequisite", "retry_loop", "order_violation")


def summarize(store: RunStore, run_id: str) -> dict[str, Any]:
    """Everything the report shows, computed from the recorded units of ``run_id``."""
    run = store.get_run(run_id)
    by_arm: dict[str, dict[str, dict[str, Any]]] = {}
    for value in store.results(run_id).values():
        by_arm.setdefault(value["arm"], {})[value["task"]] = value
    arms = [a for a in run.config.get("arms", []) if a in by_arm] + sorted(set(by_arm) - set(run.config["arms"]))
    return {
        "run_id": run_id,
        "suite": run.config.get("suite"),
        "planner": run.config.get("planner"),
        "executor": run.config.get("executor"),
        "tasks": len({task for results in by_arm.values() for task in results}),
        "formats": {arm: arm_summary(by_arm[arm]) for arm in arms},
        "comparisons": comparisons(by_arm),
        "compression": compression_table(by_arm),
        "routing": routing(by_arm.get("routed", {})),
        "oracle": oracle(by_arm),
        "taxonomy": {arm: taxonomy(by_arm[arm]) for arm in arms},
    }


def arm_summary(results: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    wins = [float(r["success"]) for r in results.values()]
    n = len(wins)
    lo, hi = bootstrap_ci(wins) if n else (float("nan"), float("nan"))
    return {
        "n": n,
        "success_rate": sum(wins) / n if n else float("nan"),
        "ci": [lo, hi],
        "mean_handoff_tokens": _mean([r["handoff_tokens"] for r in results.values()]),
        "mean_total_tokens": _mean([r["total_tokens"] for r in results.values()]),
        "planner_failures": sum(1 for r in results.values() if r.get("planner_failed")),
        "mean_steps": _mean([r["steps"] for r in results.values()]),
    }


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def _paired(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    return sorted(set(a) & set(b))


def comparisons(by_arm: Mapping[str, Mapping[str, Mapping[str, Any]]], baseline: str = "nl") -> list[dict[str, Any]]:
    """Each arm against ``baseline`` on shared tasks: paired bootstrap CI of the difference, exact McNemar, Holm."""
    if baseline not in by_arm:
        return []
    rows: list[dict[str, Any]] = []
    for arm, results in by_arm.items():
        tasks = _paired(results, by_arm[baseline])
        if arm == baseline or not tasks:
            continue
        a = [float(results[t]["success"]) for t in tasks]
        b = [float(by_arm[baseline][t]["success"]) for t in tasks]
        lo, hi = paired_bootstrap_ci(a, b)
        wins, losses, p = mcnemar_exact([x > 0 for x in a], [x > 0 for x in b])
        rows.append({"arm": arm, "vs": baseline, "n": len(tasks), "diff": _mean(a) - _mean(b), "ci": [lo, hi],
                     "wins": wins, "losses": losses, "p": p})
    for row, adjusted in zip(rows, holm([r["p"] for r in rows])):
        row["p_holm"] = adjusted
    return rows


def compression_table(by_arm: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> dict[str, dict[str, float]]:
    """Per arm, NL tokens over the arm's tokens on shared, planned tasks: hand-off only, and end to end."""
    nl = by_arm.get("nl")
    if not nl:
        return {}
    out = {}
    for arm, results in by_arm.items():
        # a failed planner handed nothing off: comparing its tokens would flatter the format
        tasks = [t for t in _paired(results, nl) if not results[t].get("planner_failed") and
                 not nl[t].get("planner_failed")]
        if not tasks:
            continue
        out[arm] = {
            "handoff": _ratio(sum(nl[t]["handoff_tokens"] for t in tasks), sum(results[t]["handoff_tokens"]
                                                                                for t in tasks)),
            "end_to_end": _ratio(sum(nl[t]["total_tokens"] for t in tasks), sum(results[t]["total_tokens"]
                                                                                 for t in tasks)),
        }
    return out


def _ratio(a: float, b: float) -> float:
    return a / b if b else float("nan")


def routing(results: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    decisions = [fmt for r in results.values() for fmt in r["formats"]]
    graph = sum(1 for fmt in decisions if fmt == "graph")
    return {"delegations": len(decisions), "graph": graph, "nl": len(decisions) - graph,
            "graph_rate": graph / len(decisions) if decisions else float("nan"),
            "mean_router_tokens": _mean([r["router_tokens"] for r in results.values()])}


def oracle(by_arm: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> dict[str, Any]:
    """The per-task better of nl and graph, and its headroom over the routed arm on shared tasks."""
    nl, graph = by_arm.get("nl", {}), by_arm.get("graph", {})
    tasks = _paired(nl, graph)
    if not tasks:
        return {}
    best = [float(nl[t]["success"] or graph[t]["success"]) for t in tasks]
    out: dict[str, Any] = {"n": len(tasks), "success_rate": _mean(best),
                           "graph_rescues": sum(1 for t in tasks if graph[t]["success"] and not nl[t]["success"]),
                           "nl_rescues": sum(1 for t in tasks if nl[t]["success"] and not graph[t]["success"])}
    routed = by_arm.get("routed", {})
    shared = [t for t in tasks if t in routed]
    if shared:
        out["headroom_over_routed"] = _mean([float(nl[t]["success"] or graph[t]["success"]) for t in shared]) - \
            _mean([float(routed[t]["success"]) for t in shared])
    return out


def taxonomy(results: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    failures = [r for r in results.values() if not r["success"]]
    out: dict[str, Any] = {"failures": len(failures),
                           "misalignment": sum(1 for r in failures if r["taxonomy"]["category"] == "misalignment")}
    for rule in TAXONOMY_RULES:
        out[rule] = sum(1 for r in failures if r["taxonomy"][rule])
    out["misalignment_share"] = out["misalignment"] / len(failures) if failures else float("nan")
    return out
