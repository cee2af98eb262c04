"""Per-step latency of AGORA (parser + floor + scorer) next to the token-level baseline, in one run.

    PYTHONPATH=src python benchmarks/trajectory_bench.py [--reps 50] [--baseline-steps 10,30] [--no-baseline]
                                                         [--long 10000]

Targets: at most 0.5 ms per step at the median on 2 cores; one call on a 10,000-step trajectory in at most
3 s and 300 MB (``--long``: wall time, CPU time, the process's peak RSS and peak traced Python memory of every
configuration in :data:`LONG_CONFIGS`, each in its own process, with the load average). The baseline is
Selective Context with the embedded model's self-information (it must read every token once, so it costs far
more).
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from relaykit.trajectory import TrajectorySettings, compress_trajectory, default_scorer, parse
from relaykit.trajectory.methods import agora
from relaykit.trajectory.recall import MemoryReferenceStore, SQLiteReferenceStore

ROOMS = ["kitchen", "hallway", "garden", "attic", "cellar", "study", "bedroom", "pantry"]
THINGS = ["red key", "blue box", "coin", "lamp", "thermometer", "metal pot", "apple", "book"]


def trajectory(n_steps: int, seed: int = 0) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    msgs: list[dict[str, Any]] = [{"role": "system", "content": "You are an agent. Reply with one action."},
                                  {"role": "user", "content": "Find the coin and put it in the blue box."}]
    for i in range(n_steps):
        room, thing = rng.choice(ROOMS), rng.choice(THINGS)
        obs = (f"You are in the {room}. You see a {thing} (item_{i + 1}), a table and a door to the "
               f"{rng.choice(ROOMS)}. " * rng.randint(1, 3))
        if i % 3 == 2:  # identifiers are new at every step, as in tool logs: the vocabulary keeps growing
            msgs += [{"role": "assistant", "content": None, "tool_calls": [{"id": f"c{i}", "type": "function",
                      "function": {"name": "inspect", "arguments": f'{{"object": "item_{i}"}}'}}]},
                     {"role": "tool", "tool_call_id": f"c{i}", "content": obs}]
        else:
            msgs += [{"role": "assistant", "content": f"go to {room} and take item_{i}"},
                     {"role": "user", "content": obs}]
    return msgs


def per_step_ms(msgs: list[dict[str, Any]], reps: int) -> list[float]:
    settings = TrajectorySettings(keep=0.3, scorer=default_scorer())
    n = len(parse(msgs).steps)
    out = []
    for _ in range(reps):
        started = time.perf_counter()
        agora(parse(msgs), settings)  # parser + scorer features + floor + selection
        out.append((time.perf_counter() - started) * 1000 / n)
    return out


def full_call_ms(msgs: list[dict[str, Any]], reps: int) -> float:
    n = len(parse(msgs).steps)
    started = time.perf_counter()
    for _ in range(reps):
        compress_trajectory(msgs)  # + input validation, rendering and token accounting
    return (time.perf_counter() - started) * 1000 / reps / n


def baseline_ms(msgs: list[dict[str, Any]]) -> float:
    from relaykit.trajectory.selective import model_token_info

    info = model_token_info()  # a fresh cache: every content is read by the model once
    n = len(parse(msgs).steps)
    started = time.perf_counter()
    compress_trajectory(msgs, method="selective-context", token_info=info)
    return (time.perf_counter() - started) * 1000 / n


LONG_CONFIGS: dict[str, dict[str, Any]] = {
    "keep 0.3": {},
    **{f"{dropped} {budget}": {"budget": budget, "dropped": dropped}
       for dropped in ("remove", "placeholder", "reference", "reference-sqlite") for budget in ("30%", "50%")},
}
"""Every configuration a user runs on a long history (agora): the ``keep`` ratio, and a budget with steps removed,
masked with digests + the facts block, or masked with handles (in memory, or the default SQLite store)."""


def long_run(n: int) -> None:
    """One fresh process per configuration, so each peak RSS is its own (a process's peak never goes down)."""
    print(f"{n} steps, agora, one process each; load {_load()}; targets <= 3 s and <= 300 MB", flush=True)
    print(f"{'configuration':>22} | {'wall s':>6} | {'CPU s':>5} | {'peak RSS MB':>11} | {'traced MB':>9} | ratio",
          flush=True)
    for label in LONG_CONFIGS:
        done = subprocess.run([sys.executable, __file__, "--long", str(n), "--one", label], check=True,
                              capture_output=True, text=True)
        print(done.stdout.rstrip().splitlines()[-1], flush=True)
    print(f"load after: {_load()}", flush=True)


def long_one(n: int, label: str) -> None:
    options = dict(LONG_CONFIGS[label])
    if options.get("dropped") == "reference":
        options["store"] = MemoryReferenceStore()
    elif options.get("dropped") == "reference-sqlite":
        options["dropped"] = "reference"
        options["store"] = SQLiteReferenceStore(Path(tempfile.mkdtemp()) / "references.sqlite")
    msgs = trajectory(n)
    compress_trajectory(trajectory(3))  # the tokenizer and the scorer, outside the timing
    before = resource.getrusage(resource.RUSAGE_SELF)
    started = time.perf_counter()
    out = compress_trajectory(msgs, **options)  # timed without tracemalloc, which slows Python down
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    rss = _peak_rss_mb(after)
    tracemalloc.start()
    compress_trajectory(msgs, **options)
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    print(f"{label:>22} | {seconds:>6.2f} | {cpu:>5.2f} | {rss:>11.0f} | {peak:>9.1f} | {out.accounting.ratio:.3f}")


def _peak_rss_mb(usage: resource.struct_rusage) -> float:
    """This process's own peak RSS: VmHWM (Linux keeps ru_maxrss across exec, so a child started by a large
    parent would report the parent's peak), else ru_maxrss."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1e3
    except OSError:
        pass
    return usage.ru_maxrss / 1e3


def _load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def quantile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q * 100) - 1] if len(values) > 1 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--baseline-steps", default="10,30")
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--long", type=int, default=0, help="Also time one call on a trajectory this long.")
    parser.add_argument("--one", choices=list(LONG_CONFIGS), help=argparse.SUPPRESS)  # a --long child process
    args = parser.parse_args()
    if args.one:
        long_one(args.long, args.one)
        return
    baseline_at = {int(s) for s in args.baseline_steps.split(",") if s}
    default_scorer()  # load once, outside the timings
    compress_trajectory(trajectory(3))  # and the tokenizer
    print(f"{'steps':>5} | {'AGORA p50 ms/step':>17} | {'p95':>6} | {'compress_trajectory ms/step':>27} | "
          f"{'Selective Context ms/step':>25}")
    for n in sorted({10, 30, 100} | baseline_at):
        msgs = trajectory(n)
        times = per_step_ms(msgs, args.reps)
        full = full_call_ms(msgs, max(5, args.reps // 5))
        base = f"{baseline_ms(msgs):.1f}" if not args.no_baseline and n in baseline_at else "skipped"
        print(f"{n:>5} | {statistics.median(times):>17.3f} | {quantile(times, 0.95):>6.3f} | {full:>27.3f} | "
              f"{base:>25}", flush=True)
    print("target: AGORA p50 <= 0.5 ms/step (the paper's 125M scorer: ~2 ms/step)")
    if args.long:
        long_run(args.long)


if __name__ == "__main__":
    main()
