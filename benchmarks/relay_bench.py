"""Relay lab benchmark (not a test): ground-truth speed, the inference-free bench cold and from the store,
and a sweep of the prune threshold.

    PYTHONPATH=src python benchmarks/relay_bench.py            # ground truth + default bench (MiniLM)
    PYTHONPATH=src python benchmarks/relay_bench.py --sweep    # also the prune threshold sweep
    PYTHONPATH=src python benchmarks/relay_bench.py --embedder hashing   # without MiniLM

Prints relaykit's vectorised ground truth against the plain brute-force loop in the same run.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from relaykit.bench.relay.generate import WorldSpec, generate_world
from relaykit.bench.relay.runner import RelayConfig, open_lab, run_relay
from relaykit.bench.relay.similarity import CachedEmbedder
from relaykit.bench.relay.summary import summarize
from relaykit.bench.relay.terminal import print_summary
from relaykit.bench.relay.truth import brute_force_truth, ground_truth, inventory
from relaykit.bench.store import RunStore
from relaykit.embeddings import open_embedder

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


def _cli_seconds(home: Path, embedder: str, args: tuple[str, ...] | None = None) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of the inference-free relay command (or ``args``), as a user runs it,
    in a fresh process."""
    command = [sys.executable, "-m", "relaykit.cli.app", *(args or (
        "bench", "relay", "--goals", "50", "--methods", ",".join(INFERENCE_FREE), "--booker", "reader",
        "--researcher", "auditor", "--embedder", embedder))]
    env = {**os.environ, "RELAYKIT_HOME": str(home)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def default_bench(store: RunStore, embedder: str) -> None:
    """Cold (empty RELAYKIT_HOME) and repeated CLI runs, then in-process runs with the embedding share."""
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as home:
        cold, cold_cpu = _cli_seconds(Path(home), embedder)
        repeats = [_cli_seconds(Path(home), embedder) for _ in range(3)]
        helps = [_cli_seconds(Path(home), embedder, ("--help",)) for _ in range(3)]
    repeated, repeated_cpu = min(r[0] for r in repeats), min(r[1] for r in repeats)
    print(f"inference-free relay run (auditor, reader, {', '.join(INFERENCE_FREE)}; 50 goals; embedder {embedder}):\n"
          f"  CLI cold (empty RELAYKIT_HOME) {cold:.1f} s wall ({cold_cpu:.1f} s CPU), repeated (vectors from "
          f"RELAYKIT_HOME/embeddings.sqlite, readings from readings.sqlite; best of 3) {repeated:.2f} s wall "
          f"({repeated_cpu:.2f} s CPU); `relaykit --help` {min(h[0] for h in helps):.2f} s wall "
          f"({min(h[1] for h in helps):.2f} s CPU); load {load:.1f} -> {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("  (PYTHONDONTWRITEBYTECODE is set: every process compiles relaykit's source again, which an installed "
              "copy does not)")
    for label in ("cold", "warm"):  # warm: the same process again, the model loaded (vectors computed again)
        cached = CachedEmbedder(open_embedder(embedder))
        started = time.perf_counter()
        lab, run_id = open_lab(store, RelayConfig(methods=INFERENCE_FREE, embedder=embedder), embedder=cached)
        run_relay(store, lab, run_id)
        summary = summarize(store, store.get_run(run_id))
        total = time.perf_counter() - started
        print(f"  in process, {label}: {total:.1f} s, of which {cached.seconds:.1f} s ({cached.seconds / total:.0%}) "
              f"in embeddings (model load included): {cached.embedded} distinct texts in {cached.calls} calls")
    print_summary(summary)


def prune_sweep(store: RunStore, embedder: str) -> None:
    methods = ("passthrough", *(f"prune:threshold={t}" for t in SWEEP))
    lab, run_id = open_lab(store, RelayConfig(methods=methods, embedder=embedder))
    run_relay(store, lab, run_id)
    summary = summarize(store, store.get_run(run_id))
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
