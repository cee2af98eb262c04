"""Semantic-cache hit rate and false-hit rate on the labelled pairs (tests/models/cache_guard_pairs.py),
dev and held-out families side by side, at the default threshold, through the real ``Cached`` path.

    PYTHONPATH=src python benchmarks/cache_guard_bench.py [--embedder minilm|hashing] [--threshold 0.92]

For every pair a fresh semantic cache stores the first request's answer, then is asked the second: a
"hit" pair served from the cache is a hit, a "miss" pair served from it is a false hit. The same pairs
are also scored by similarity alone (no guards), to show what the guards stop.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "models"))

from cache_guard_pairs import Pair, split

from relaykit.embeddings import open_embedder
from relaykit.models.cache import Cached, MemoryStore
from relaykit.testing import ScriptedModel

console = Console(width=160)


class Precomputed:
    """The embedder's vectors for every text of the pairs, computed in one batch (the same vectors
    ``Cached`` would get one call at a time, without paying the model per call)."""

    def __init__(self, embedder: Any, texts: list[str]) -> None:
        self.name = embedder.name
        self._inner = embedder
        unique = sorted(set(texts))
        self._vectors = dict(zip(unique, embedder.embed(unique)))

    def embed(self, texts: Any) -> Any:
        missing = [t for t in texts if t not in self._vectors]
        if missing:
            self._vectors.update(zip(missing, self._inner.embed(missing)))
        return np.vstack([self._vectors[t] for t in texts])


def served(pair: Pair, embedder: Any, threshold: float, guarded: bool) -> tuple[bool, float]:
    model = ScriptedModel(lambda r: "answer to " + str(r.messages[-1]["content"]))
    cached = Cached(model, MemoryStore(), mode="semantic", embedder=embedder, threshold=threshold,
                    **({} if guarded else {"guards": ()}))
    cached.complete(pair.cached)
    answer = cached.complete(pair.query)
    vectors = embedder.embed([pair.cached, pair.query])
    return bool(answer.metadata.get("cached")), float(vectors[0] @ vectors[1])


def score(pairs: list[Pair], embedder: Any, threshold: float) -> dict[str, Any]:
    out: dict[str, Any] = {"pairs": len(pairs), "false_hit_pairs": [], "blocked_paraphrases": []}
    for guarded in (True, False):
        hits = misses = false_hits = paraphrases = 0
        for pair in pairs:
            was_served, similarity = served(pair, embedder, threshold, guarded)
            if pair.label == "hit":
                paraphrases += 1
                hits += was_served
                if guarded and not was_served and similarity >= threshold:
                    out["blocked_paraphrases"].append((round(similarity, 3), pair.cached, pair.query))
            else:
                misses += 1
                false_hits += was_served
                if was_served and guarded:
                    out["false_hit_pairs"].append((round(similarity, 3), pair.cached, pair.query))
        key = "guarded" if guarded else "similarity_only"
        out[key] = {"paraphrases": paraphrases, "hits": hits, "hit_rate": round(hits / paraphrases, 3),
                    "near_misses": misses, "false_hits": false_hits,
                    "false_hit_rate": round(false_hits / misses, 3)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--threshold", type=float, default=0.92)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pairs = split("dev") + split("held_out")
    embedder = Precomputed(open_embedder(args.embedder), [t for p in pairs for t in (p.cached, p.query)])
    results = {name: score(split(name), embedder, args.threshold) for name in ("dev", "held_out")}
    if args.json:
        print(json.dumps(results, indent=1))
        return
    table = Table(title=f"semantic cache on labelled pairs ({embedder.name}, threshold {args.threshold})")
    for column in ("split", "guards", "paraphrases", "hits", "hit rate", "near-misses", "false hits",
                   "false-hit rate"):
        table.add_column(column, justify="left" if column in ("split", "guards") else "right")
    for name, result in results.items():
        for key in ("guarded", "similarity_only"):
            r = result[key]
            table.add_row(name, "on" if key == "guarded" else "off", str(r["paraphrases"]), str(r["hits"]),
                          f"{r['hit_rate']:.1%}", str(r["near_misses"]), str(r["false_hits"]),
                          f"{r['false_hit_rate']:.1%}")
    console.print(table)
    for name, result in results.items():
        for similarity, cached, query in result["false_hit_pairs"]:
            console.print(f"[red]{name} false hit[/red] ({similarity}): {cached!r} served {query!r}")
        for similarity, cached, query in result["blocked_paraphrases"]:
            console.print(f"{name} paraphrase blocked by a guard ({similarity}): {cached!r} / {query!r}")


if __name__ == "__main__":
    main()
