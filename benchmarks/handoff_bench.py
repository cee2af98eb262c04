"""Hand-off compression benchmark: every method on a ~2k- and a ~20k-token auditor trace, side by side.

    PYTHONPATH=src python benchmarks/handoff_bench.py              # methods table (inference-free + prune)
    PYTHONPATH=src python benchmarks/handoff_bench.py --model-methods local   # + summary/extract/selective
    PYTHONPATH=src python benchmarks/handoff_bench.py --sweep      # prune threshold sweep (MiniLM)
    PYTHONPATH=src python benchmarks/handoff_bench.py --big        # 10 MB trace: speed and peak memory

Traces come from tests/handoff/tracegen.py (the relay contract's clause style), not from the relay lab.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "handoff"))

from tracegen import SampleTrace, auditor_trace

from relaykit.embeddings import open_embedder
from relaykit.embeddings.base import Embedder, Vectors
from relaykit.handoff import audit, compress_handoff
from relaykit.handoff.evidence import read_evidence as extract_rules
from relaykit.handoff.text import count_tokens

FREE = ("passthrough", "extract-rules", "truncate", "tfidf", "prune")
MODEL_METHODS = ("summary", "extract", "selective")
SIZES = {"2k": (13, 13), "20k": (125, 125)}
TINY = (3, 3)  # ~500 tokens: where the model methods run by default (the embedded model is slow on 2 cores)


class MemoEmbedder:
    """Wraps an embedder and remembers vectors per text (for the sweep: one embedding per sentence)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.name, self.memo = inner, inner.name, {}  # type: ignore[var-annotated]

    def embed(self, texts: Sequence[str]) -> Vectors:
        missing = [t for t in dict.fromkeys(texts) if t not in self.memo]
        if missing:
            self.memo.update(zip(missing, self.inner.embed(missing), strict=True))
        return np.stack([self.memo[t] for t in texts]) if texts else self.inner.embed([])


def run_method(sample: SampleTrace, method: str, **kwargs: Any) -> dict[str, Any]:
    started = time.perf_counter()
    handoff = compress_handoff(sample.trace, sample.goal, method, **kwargs)
    seconds = time.perf_counter() - started
    report = audit(handoff, sample.facts)
    return {"method": method, "seconds": seconds, "ratio": handoff.ratio, "recall": report.recall,
            "tokens_in": handoff.tokens_in, "tokens_out": handoff.tokens_out, "calls": handoff.cost.model_calls,
            "embed_calls": handoff.cost.embedding_calls}


def methods_table(model_spec: str | None, model_sizes: Sequence[str]) -> None:
    embedder = open_embedder("minilm")
    started = time.perf_counter()
    embedder.embed(["warm up"])
    print(f"MiniLM loaded once in {time.perf_counter() - started:.2f}s (not counted below)")
    model = None
    if model_spec:
        from relaykit.models import open_model

        model = open_model(model_spec)
    sizes = dict(SIZES) | ({"tiny": TINY} if model is not None and "tiny" in model_sizes else {})
    for size, (hotels, flights) in sizes.items():
        sample = auditor_trace(hotels, flights, seed=11)
        print(f"\n{size} trace: {count_tokens(sample.trace)} tokens, {len(sample.trace)} chars, "
              f"{len(sample.facts)} facts")
        print(f"{'method':<14}{'seconds':>9}{'ratio':>8}{'recall':>8}{'tokens out':>12}{'calls':>7}{'embeds':>8}")
        methods = list(FREE) + (list(MODEL_METHODS) if model is not None and size in model_sizes else [])
        for method in methods:
            kwargs: dict[str, Any] = {"embedder": embedder} if method == "prune" else {}
            if method in MODEL_METHODS:
                kwargs["model"] = model
            try:
                row = run_method(sample, method, **kwargs)
            except Exception as exc:  # report and go on: one method failing must not hide the others
                print(f"{method:<14} failed: {type(exc).__name__}: {exc}")
                continue
            print(f"{row['method']:<14}{row['seconds']:>9.3f}{row['ratio']:>8.3f}{row['recall']:>8.3f}"
                  f"{row['tokens_out']:>12}{row['calls']:>7}{row['embed_calls']:>8}")


def sweep(thresholds: Sequence[float], seeds: Sequence[int]) -> None:
    embedder = MemoEmbedder(open_embedder("minilm"))
    samples = [auditor_trace(*SIZES["2k"], seed=s) for s in seeds]
    print(f"prune threshold sweep, MiniLM, {len(samples)} auditor traces of ~2k tokens "
          "(verdict sentences always kept)")
    print(f"{'threshold':>10}{'ratio':>8}{'recall':>8}{'min recall':>12}{'price recall':>14}")
    for threshold in thresholds:
        rows = []
        for sample in samples:
            handoff = compress_handoff(sample.trace, sample.goal, "prune", embedder=embedder, threshold=threshold)
            price = [f for f in sample.facts if f.attribute == "price"]
            rows.append((handoff.ratio, audit(handoff, sample.facts).recall, audit(handoff, price).recall))
        ratio, recall, price_recall = (float(np.mean([r[i] for r in rows])) for i in range(3))
        print(f"{threshold:>10.2f}{ratio:>8.3f}{recall:>8.3f}{min(r[1] for r in rows):>12.3f}{price_recall:>14.3f}")


def big(megabytes: float) -> None:
    unit = auditor_trace(125, 125, seed=5)
    copies = max(1, int(megabytes * 1_000_000 / len(unit.trace)))
    trace = "\n".join([unit.trace] * copies)
    mb = len(trace.encode()) / 1e6
    print(f"{mb:.1f} MB trace ({copies} copies of a {len(unit.trace) / 1e3:.0f} kB audit)")
    started = time.perf_counter()
    tokens = count_tokens(trace)
    print(f"  token count (o200k, chunked): {tokens} tokens in {time.perf_counter() - started:.2f}s")
    cases = [("read_evidence() reader", lambda: extract_rules(trace, unit.goal))]
    cases += [(f"compress_handoff {m}", lambda m=m: compress_handoff(trace, unit.goal, m))
              for m in ("passthrough", "extract-rules", "truncate", "tfidf")]
    cases.append(("compress_handoff prune (hashing)",
                  lambda: compress_handoff(trace, unit.goal, "prune", embedder=open_embedder("hashing"))))
    for name, fn in cases:
        started = time.perf_counter()
        fn()
        seconds = time.perf_counter() - started
        peak_text = ""
        if "prune" not in name:  # a second run under tracemalloc (slower) for the peak memory
            tracemalloc.start()
            fn()
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            peak_text = f"peak {peak / 1e6:>6.1f} MB ({peak / len(trace.encode()):.1f}x the trace)"
        print(f"  {name:<34}{seconds:>8.2f}s {mb / seconds:>6.2f} MB/s  {peak_text}")
    unique = auditor_trace(9999, 9999, seed=2)  # ~6 MB, 19,998 distinct options: memory grows with options
    started = time.perf_counter()
    extract_rules(unique.trace, unique.goal)
    seconds = time.perf_counter() - started
    tracemalloc.start()
    extraction = extract_rules(unique.trace, unique.goal)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    umb = len(unique.trace.encode()) / 1e6
    print(f"  extract_rules() on {umb:.1f} MB with {len(extraction.rows)} distinct options: {seconds:.2f}s "
          f"{umb / seconds:.2f} MB/s, peak {peak / 1e6:.1f} MB (the Extraction it returns is most of it)")
    baseline = time.perf_counter()
    _ = [line.split(";") for line in trace.splitlines()]
    print(f"  baseline: str.splitlines + split(';') {time.perf_counter() - baseline:.2f}s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sweep", action="store_true", help="sweep the prune threshold with MiniLM")
    parser.add_argument("--big", type=float, nargs="?", const=10.0, help="measure a trace of this many MB")
    parser.add_argument("--model-methods", metavar="SPEC", help="also run summary/extract/selective on SPEC")
    parser.add_argument("--model-sizes", default="tiny", help="comma list of trace sizes for the model methods "
                        "(tiny, 2k, 20k); default tiny")
    args = parser.parse_args()
    if args.sweep:
        sweep([0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.75], seeds=range(5))
    elif args.big:
        big(args.big)
    else:
        methods_table(args.model_methods, args.model_sizes.split(","))


if __name__ == "__main__":
    main()
