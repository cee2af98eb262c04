"""Instructions per semantic / exact miss + store, for ``valgrind --tool=callgrind`` (repeatable under load, where
wall clocks on a shared machine are not).

A run opens ``--caches`` caches on one SQLite file (one shared index, as ``cache_bench.py --scale`` does), warms
them, then does ``--calls`` miss + stores round robin over them (new requests every call, hashing embedder). The
cost of one call is the difference of two runs' totals, ``--calls N`` and ``--calls 0``, divided by N (the set-up,
index load included, cancels out). ``--part`` runs only one step of the semantic path on the same requests, to see
where a call's instructions go.

    PYTHONPATH=src python benchmarks/cache_callgrind.py build --rows 20000      # once, outside valgrind
    PYTHONPATH=src valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.%p \
        python benchmarks/cache_callgrind.py run --mode semantic --calls 200
    PYTHONPATH=src python benchmarks/cache_callgrind.py measure --calls 200      # both runs of both modes, via valgrind
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cache_bench import question  # the wording of cache_bench.py's filled entries (this folder is on sys.path)

from relaykit.embeddings import HashingEmbedder
from relaykit.models import ChatRequest
from relaykit.models.cache import Cached, CacheEntry
from relaykit.models.cache.sqlite import SQLiteStore
from relaykit.testing import ScriptedModel

DEFAULT_FILE = Path(tempfile.gettempdir()) / "relaykit-cache-callgrind.sqlite"
NAMESPACE = "callgrind"


def cache(path: Path, mode: str, dim: int) -> Cached:
    return Cached(ScriptedModel(lambda r: "answer", name="m"), SQLiteStore(path), namespace=NAMESPACE, mode=mode,
                  embedder=HashingEmbedder(dim), threshold=0.9)


def build(path: Path, rows: int, dim: int) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    sem = cache(path, "semantic", dim)
    now, entries = time.time(), []
    for start in range(0, rows, 1000):
        texts = [question(i) for i in range(start, min(rows, start + 1000))]
        for text, vector in zip(texts, sem.embedder.embed(texts)):
            request = ChatRequest.of(text)
            entries.append(CacheEntry(key=sem.key(request), namespace=NAMESPACE, group=sem.group(request),
                                      response={"text": "answer", "model": "m", "prompt_tokens": 30,
                                                "completion_tokens": 5}, created_at=now, query=text, vector=vector))
    sem.store.put_many(entries)  # type: ignore[attr-defined]
    sem.store.close()


def run(path: Path, mode: str, calls: int, caches: int, dim: int, part: str, tag: str) -> None:
    """Warm ``caches`` caches, then ``calls`` miss + stores (or only ``part`` of one) round robin."""
    work = [cache(path, mode, dim) for _ in range(caches)]
    for i, cached in enumerate(work):  # the index load and the model's tokenizer load are one-offs
        cached.complete(f"{question(1)} warm {i}")
    texts = [f"writer {i % caches} {tag} new request {i} zebra {i * 7919 % 1000}" for i in range(calls)]
    if part == "call":
        for i, text in enumerate(texts):
            work[i % caches].complete(text)
    elif part == "embed":
        embedder = work[0].embedder
        for text in texts:
            embedder.embed([text])
    elif part == "lookup":  # the exact lookup and the read of the group's changes (no search, no store)
        for i, text in enumerate(texts):
            cached = work[i % caches]
            request = ChatRequest.of(text)
            material = request.cache_key_material()
            cached._find(request, material, cached._key(material), time.time())
    else:
        raise SystemExit(f"unknown part {part!r}")
    for cached in work:
        cached.store.close()


def instructions(out_file: Path) -> int:
    text = out_file.read_text()
    found = re.search(r"^summary: (\d+)", text, re.MULTILINE) or re.search(r"^totals: (\d+)", text, re.MULTILINE)
    assert found, f"no totals in {out_file}"
    return int(found.group(1))


def measure(path: Path, calls: int, caches: int, dim: int, parts: list[str], keep: Path | None) -> None:
    """Per call: (total with ``calls`` - total with 0) / ``calls``, under callgrind, for each mode and part."""
    here = Path(__file__).resolve()
    # the set-up's bulk products (the index load) run on OpenBLAS's threads, and under valgrind (one thread at a
    # time) their spin-waits count millions of instructions that differ run to run; a miss + store calls no
    # threaded product (its products stay under OpenBLAS's threading bounds), so one thread changes nothing it does
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    rows = []
    for mode, part in [("exact", "call"), *(("semantic", p) for p in parts)]:
        totals = []
        for n in (0, calls):
            out = (keep or Path(tempfile.gettempdir())) / f"cg.{mode}.{part}.{n}.out"
            scratch = path.with_name(f"{path.name}.{mode}.{part}.{n}")  # every run starts from the built file
            for suffix in ("-wal", "-shm"):
                Path(str(scratch) + suffix).unlink(missing_ok=True)
            shutil.copyfile(path, scratch)
            subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, str(here),
                            "run", "--file", str(scratch), "--mode", mode, "--calls", str(n), "--caches", str(caches),
                            "--dim", str(dim), "--part", part], check=True, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            totals.append(instructions(out))
            scratch.unlink()
            if keep is None:
                out.unlink()
        rows.append((mode, part, (totals[1] - totals[0]) / calls))
    for mode, part, per_call in rows:
        print(f"{mode:9} {part:7} {per_call:12,.0f} instructions per call")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["build", "run", "measure"])
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--mode", default="semantic")
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--caches", type=int, default=4)
    parser.add_argument("--part", default="call")
    parser.add_argument("--parts", default="call", help="measure: semantic parts, comma-separated (call,embed,lookup)")
    parser.add_argument("--tag", default="cg")
    parser.add_argument("--keep", type=Path, default=None, help="measure: keep the callgrind files in this folder")
    args = parser.parse_args()
    if args.what == "build":
        build(args.file, args.rows, args.dim)
    elif args.what == "run":
        run(args.file, args.mode, args.calls, args.caches, args.dim, args.part, args.tag)
    else:
        measure(args.file, args.calls, args.caches, args.dim, args.parts.split(","), args.keep)


if __name__ == "__main__":
    main()
