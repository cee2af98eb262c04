"""Relay lab benchmark (not a test): ground-truth speed, the inference-free bench cold and from the store,
and a sweep of the prune threshold.

    PYTHONPATH=src python benchmarks/relay_bench.py            # ground truth + default bench (MiniLM)
    PYTHONPATH=src python benchmarks/relay_bench.py --sweep    # also the prune threshold sweep
    PYTHONPATH=src python benchmarks/relay_bench.py --embedder hashing   # without MiniLM

Prints relaykit's vectorised ground truth against the plain brute-force loop in the same run.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from relaykit.bench.relay.generate import WorldSpec, generate_world
from relaykit.bench.relay.report import print_summary
from relaykit.bench.relay.runner import RelayConfig, open_lab
from relaykit.bench.relay.summary import summarise
from relaykit.bench.relay.truth import brute_force_truth, ground_truth, inventory
from relaykit.bench.store import RunStore

INFERENCE_FREE = ("passthrough", "extract-rules", "prune", "truncate", "tfidf")
SWEEP = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.75)


def ground_truth_speed() -> None:
    print("ground truth per goal (ms): vectorised vs brute force")
    for size, goals, brute_goals in ((10, 50, 50), (100, 50, 20), (1000, 20, 2)):
        world = generate_world(WorldSpec(hotels=size, flights=size, goals=goals))
        inv = inventory(world)
        started = time.perf_counter()
        for goal in world.goals:
            ground_truth(world, goal, inv)
        fast = (time.perf_counter() - started) / goals * 1000
        started = time.perf_counter()
        for goal in world.goals[:brute_goals]:
            brute_force_truth(world, goal)
        slow = (time.perf_counter() - started) / brute_goals * 1000
        print(f"  {size:>5} x {size:<5} vectorised {fast:9.3f} ms   brute force {slow:10.3f} ms   x{slow / fast:,.0f}")


def default_bench(store: RunStore, embedder: str) -> None:
    config = RelayConfig(methods=INFERENCE_FREE, embedder=embedder)
    started = time.perf_counter()
    lab, run_id = open_lab(store, config)
    lab.run(run_id)
    summary = summarise(store, store.get_run(run_id))
    cold = time.perf_counter() - started
    started = time.perf_counter()
    lab2, _ = open_lab(store, resume=run_id)
    lab2.run(run_id)
    summarise(store, store.get_run(run_id))
    warm = time.perf_counter() - started
    print(f"default bench (auditor, reader, {', '.join(INFERENCE_FREE)}; 50 goals; embedder {embedder}): "
          f"cold {cold:.1f} s, repeated from the store {warm:.1f} s")
    print_summary(summary)


def prune_sweep(store: RunStore, embedder: str) -> None:
    methods = ("passthrough", *(f"prune:threshold={t}" for t in SWEEP))
    lab, run_id = open_lab(store, RelayConfig(methods=methods, embedder=embedder))
    lab.run(run_id)
    summary = summarise(store, store.get_run(run_id))
    print(f"\nprune threshold sweep ({embedder}, reader Booker, 50 goals)")
    print(f"  {'method':<24} {'feasible':>8} {'optimal':>8} {'ratio':>7} {'recall':>7} {'false NONE':>10}")
    for row in summary.rows:
        print(f"  {row.name:<24} {row.feasible_accuracy:8.2f} {row.optimal_accuracy:8.2f} {row.ratio:7.3f} "
              f"{row.evidence_recall:7.3f} {row.counts['false_none']:10d}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--sweep", action="store_true", help="also sweep the prune threshold")
    parser.add_argument("--skip-truth", action="store_true")
    args = parser.parse_args()
    if not args.skip_truth:
        ground_truth_speed()
    with tempfile.TemporaryDirectory() as tmp:
        store = RunStore(Path(tmp) / "bench.sqlite")
        default_bench(store, args.embedder)
        if args.sweep:
            prune_sweep(store, args.embedder)


if __name__ == "__main__":
    main()
