"""Hand-off compression on the style x domain corpus: recall, invented values, ratio and speed, per group.

    PYTHONPATH=src python benchmarks/handoff_styles_bench.py            # every inference-free method, 3 seeds
    PYTHONPATH=src python benchmarks/handoff_styles_bench.py --seeds 10 --big-mb 10
    PYTHONPATH=src python benchmarks/handoff_styles_bench.py --peak-mb 100    # tracemalloc peak, once
    PYTHONPATH=src python benchmarks/handoff_styles_bench.py --methods extract-rules --styles   # per style
    PYTHONPATH=src python benchmarks/handoff_styles_bench.py --methods extract-rules --group dev  # dev alone
    PYTHONPATH=src python benchmarks/handoff_styles_bench.py --digest 3   # fingerprint of every payload
    RELAYKIT_PURE_PYTHON=1 PYTHONPATH=src python benchmarks/handoff_styles_bench.py ...  # the source, not compiled

Rows: per style group (dev = the styles extract-rules was tuned on, held-out = never tuned on) and per
domain within each group. Columns: evidence recall mean and worst trace, invented typed values (total),
median payload ratio (tokens_out / tokens_in), and MB/s over the whole group. ``prune`` runs with the
hashing embedder here (MiniLM would dominate the run time); see handoff_bench.py for MiniLM figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections import defaultdict
from typing import Any

from relaykit.embeddings import open_embedder
from relaykit.handoff import audit, compiled, compress_handoff
from relaykit.handoff.corpus import DOMAINS, STYLE_GROUPS, CorpusTrace, corpus, generate
from relaykit.handoff.evidence import read_evidence
from relaykit.handoff.lexicon import TOKEN

METHODS = ("passthrough", "extract-rules", "truncate", "tfidf", "prune")


def measure(method: str, traces: list[CorpusTrace]) -> list[dict[str, Any]]:
    extra: dict[str, Any] = {"embedder": open_embedder("hashing")} if method == "prune" else {}
    rows = []
    for t in traces:
        started = time.perf_counter()
        handoff = compress_handoff(t.trace, t.goal, method, **extra)
        seconds = time.perf_counter() - started
        report = audit(handoff, t.facts, trace=t.trace)
        rows.append({"domain": t.domain, "recall": report.recall, "invented": len(report.invented),
                     "ratio": handoff.ratio, "seconds": seconds, "bytes": len(t.trace.encode())})
    return rows


def line(label: str, rows: list[dict[str, Any]]) -> str:
    recall = [r["recall"] for r in rows]
    mbps = sum(r["bytes"] for r in rows) / 1e6 / max(sum(r["seconds"] for r in rows), 1e-9)
    return (f"  {label:<16} recall {statistics.mean(recall):.3f} (worst {min(recall):.3f})  "
            f"invented {sum(r['invented'] for r in rows):>3}  "
            f"ratio median {statistics.median(r['ratio'] for r in rows):.3f}"
            f"  {mbps:7.2f} MB/s  n={len(rows)}")


def big_trace(megabytes: float) -> tuple[str, str]:
    """Corpus traces of every domain and held-out style, ids made unique, up to ``megabytes``."""
    parts, size, k = [], 0, 0
    while size < megabytes * 1e6:
        t = generate(STYLE_GROUPS["held-out"][k % 6], DOMAINS[0], k, n_options=20)
        # unique ids (17,576 tags of 20 options) still shaped [A-Z]{1,3}\d{1,4}: every option is distinct
        tag = chr(65 + k % 26) + chr(65 + k // 26 % 26) + chr(65 + k // 676 % 26)
        text = t.trace.replace("HT", tag)
        parts.append(text)
        size += len(text) + 2
        k += 1
    return "\n\n".join(parts), generate("table", DOMAINS[0], 0).goal


def seconds_of(megabytes: float) -> float:
    """Seconds ``compress_handoff(..., "extract-rules")`` takes on a ``big_trace``."""
    trace, goal = big_trace(megabytes)
    started = time.perf_counter()
    compress_handoff(trace, goal, "extract-rules")
    return time.perf_counter() - started


def source_seconds(megabytes: float) -> float:
    """``seconds_of`` in a subprocess that runs the hand-off reader's Python source (``RELAYKIT_PURE_PYTHON=1``)."""
    run = subprocess.run([sys.executable, __file__, "--seconds-of", str(megabytes)], capture_output=True, text=True,
                         check=True, env={**os.environ, "RELAYKIT_PURE_PYTHON": "1"})
    return float(run.stdout.split()[-1])


def speed(megabytes: float) -> None:
    """extract-rules' MB/s on a ``big_trace``, and as a ratio of two baselines timed in the same run (so a
    busy machine slows both): ``passthrough`` (the trace itself; its token counts) and one scan of the trace
    by the reader's token pattern (``lexicon.TOKEN``, which every clause of the trace goes through). Where the
    reader runs compiled (``make compile``), its Python source is timed too, in a subprocess, after it."""
    trace, goal = big_trace(megabytes)
    mb = len(trace.encode()) / 1e6
    started = time.perf_counter()
    table = read_evidence(trace, goal)
    reading = time.perf_counter() - started
    started = time.perf_counter()
    h = compress_handoff(trace, goal, "extract-rules")
    seconds = time.perf_counter() - started
    started = time.perf_counter()
    compress_handoff(trace, goal, "passthrough")
    passing = time.perf_counter() - started
    started = time.perf_counter()
    for _ in TOKEN.finditer(trace):
        pass
    scanning = time.perf_counter() - started
    form = "compiled" if compiled() else "Python source"
    print(f"extract-rules ({form}) on a {mb:.1f} MB trace ({len(table.rows)} options): reader {reading:.2f} s = "
          f"{mb / reading:.2f} MB/s; compress_handoff incl. token counting {seconds:.2f} s = {mb / seconds:.2f} MB/s; "
          f"ratio {h.ratio:.3f}")
    print(f"  same run: passthrough {mb / passing:.2f} MB/s (extract-rules {passing / seconds:.3f}x its speed), "
          f"one TOKEN scan {mb / scanning:.2f} MB/s (extract-rules {scanning / seconds:.3f}x)")
    if compiled():
        source = source_seconds(megabytes)
        print(f"  same run: its Python source (RELAYKIT_PURE_PYTHON=1) {mb / source:.2f} MB/s; compiled "
              f"{source / seconds:.2f}x as fast")


def peak(megabytes: float) -> None:
    """tracemalloc peak of extract-rules' two steps (reading the table, writing the compact payload)."""
    trace, goal = big_trace(megabytes)
    tracemalloc.start()
    table = read_evidence(trace, goal)
    reading = tracemalloc.get_traced_memory()[1]
    tracemalloc.reset_peak()
    payload = table.text()
    writing = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"extract-rules peak on {len(trace) / 1e6:.1f} M chars ({len(table.rows)} options): reading "
          f"{reading / 1e6:.1f} MB = {reading / len(trace):.2f}x the input; writing {writing / 1e6:.1f} MB = "
          f"{writing / len(trace):.2f}x (payload {len(payload) / len(trace):.2f}x the input's characters)")


def digest(seeds: int, big_mb: float) -> None:
    """One SHA-256 line per style (and one for a ``big_mb`` trace) over extract-rules' text and JSON payloads,
    token counts and audit figures: a speed change must leave every line unchanged (compare two checkouts)."""
    for group, styles in STYLE_GROUPS.items():
        for style in styles:
            h = hashlib.sha256()
            for t in corpus((style,), seeds=seeds):
                for fmt in ("text", "json"):
                    handoff = compress_handoff(t.trace, t.goal, "extract-rules", format=fmt)
                    report = audit(handoff, t.facts, trace=t.trace)
                    h.update(json.dumps([handoff.payload_text, handoff.tokens_in, handoff.tokens_out,
                                         list(handoff.warnings), list(handoff.kept_units or ()), report.recall,
                                         sorted(map(str, report.invented))]).encode())
            print(f"{group}:{style} {h.hexdigest()[:16]}")
    if big_mb:
        trace, goal = big_trace(big_mb)
        handoff = compress_handoff(trace, goal, "extract-rules")
        payload = handoff.payload_text
        print(f"big {big_mb} MB {hashlib.sha256(payload.encode()).hexdigest()[:16]} tokens {handoff.tokens_out}")


def groups(which: str) -> dict[str, tuple[str, ...]]:
    """The style groups to measure: ``dev``, ``held-out`` or ``all`` (so a tuning run need not print, and
    so look at, the held-out figures)."""
    return dict(STYLE_GROUPS) if which == "all" else {which: STYLE_GROUPS[which]}


def per_style(method: str, seeds: int, which: str = "all") -> None:
    """Median ratio and mean recall per style (the held-out styles' rows are measured, never tuned on)."""
    for group, styles in groups(which).items():
        for style in styles:
            rows = measure(method, list(corpus((style,), seeds=seeds)))
            print(line(f"{group}:{style}", rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--big-mb", type=float, default=0.0, help="also time extract-rules on a trace this big")
    parser.add_argument("--peak-mb", type=float, default=0.0, help="also measure extract-rules' peak memory")
    parser.add_argument("--styles", action="store_true", help="also print extract-rules per style")
    parser.add_argument("--group", choices=("dev", "held-out", "all"), default="all",
                        help="the style groups to measure (dev alone while tuning: held-out figures unseen)")
    parser.add_argument("--seconds-of", type=float, default=0.0, help=argparse.SUPPRESS)
    parser.add_argument("--digest", type=int, default=0, metavar="SEEDS",
                        help="only print a fingerprint of extract-rules' payloads per style (with --big-mb: and of "
                             "a trace that big), to prove a speed change leaves the output unchanged")
    args = parser.parse_args()
    if args.seconds_of:
        print(seconds_of(args.seconds_of))
        return
    if args.digest:
        digest(args.digest, args.big_mb)
        return
    for method in args.methods.split(","):
        print(f"{method}")
        for group, styles in groups(args.group).items():
            rows = measure(method, list(corpus(styles, seeds=args.seeds)))
            print(line(group, rows))
            by_domain = defaultdict(list)
            for r in rows:
                by_domain[r["domain"]].append(r)
            for domain, part in by_domain.items():
                print(line(f"  {domain}", part))
    if args.styles:
        print("extract-rules per style")
        per_style("extract-rules", args.seeds, args.group)
    if args.big_mb:
        speed(args.big_mb)
    if args.peak_mb:
        peak(args.peak_mb)


if __name__ == "__main__":
    main()
