"""Cache lookup latency (exact/semantic hits and misses, 1k and 10k entries, memory/SQLite/Redis) and the
overhead a FallbackChain adds to a call, printed side by side in one run; with ``--scale N`` the semantic
cache at N entries in one group (SQLite): hit p50, miss + store p50, index memory, and 4 concurrent
writers (threads, own connection each, new requests every call) semantic vs exact, run interleaved in 21
rounds so that both see the same machine load (the median ratio of the rounds with a 95% bootstrap interval, the
pooled ratio and the rounds' spread). The semantic writers share the process's index of the file (as
every cache of a process on one store and namespace does); a third set, with an index of its own each
(``share_index=False``), is timed too. The semantic writers' time includes their query embedding (hashing
embedder, timed on its own too), as a user's call would. The index searches through its compiled C kernel
where ``make install`` built it (the table says which form ran; ``RELAYKIT_PURE_PYTHON=1`` times the numpy
form). It also says (the median of the rounds) how long the exact and the semantic
writers waited for the SQLite file's write lock (the process's writers to one file queue on it) and held it, per
miss + store: with four threads on two cores a write's holder waits to get the GIL back, longest while the other
threads run the semantic search.

    PYTHONPATH=src python benchmarks/cache_bench.py [--sizes 1000,10000] [--lookups 300] [--minilm]
    PYTHONPATH=src python benchmarks/cache_bench.py --scale 100000 [--dim 384]

Semantic lookups use the hashing embedder by default (so the figures are the cache's own cost); pass
--minilm to also time one MiniLM query embedding, which a semantic lookup with MiniLM adds on top.
Redis runs when redis-server is installed: a private server is started on a free loopback port.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from relaykit.embeddings import HashingEmbedder, open_embedder
from relaykit.errors import ServerError
from relaykit.models import ChatRequest
from relaykit.models.cache import Cached, CacheEntry, CacheStore, MemoryStore, kernel
from relaykit.models.cache.redis_store import RedisStore
from relaykit.models.cache.sqlite import SQLiteStore
from relaykit.models.fallback import FallbackChain
from relaykit.testing import ScriptedModel

console = Console(width=150)
WRITER_ROUNDS = 21  # exact and semantic writers run interleaved this many times (single rounds of 0.1-0.3 s swing
# 1.2-2.5x on an idle 2-core machine); the median ratio is reported with a bootstrap interval, and the spread
TOPICS = ["invoice", "shipment", "refund", "password", "meeting", "deploy", "budget", "contract", "ticket", "lamp"]


def question(i: int) -> str:
    a, b, c = TOPICS[i % 10], TOPICS[(i // 10) % 10], TOPICS[(i // 100) % 10]
    return f"case {i}: what is the status of the {a} for the {b} team about {c} in region r{i % 37}"


def percentiles(samples: list[float]) -> tuple[float, float]:
    arr = np.asarray(samples) * 1000.0
    return float(np.percentile(arr, 50)), float(np.percentile(arr, 95))


def timed(fn: Callable[[], object], n: int) -> list[float]:
    out = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def fill(cached: Cached, store: CacheStore, size: int) -> None:
    """Insert ``size`` entries the way Cached would store them (exact key, group, query, vector)."""
    embedder = cached.embedder
    entries = []
    now = time.time()
    for start in range(0, size, 1000):
        texts = [question(i) for i in range(start, min(size, start + 1000))]
        vectors = embedder.embed(texts)
        for text, vector in zip(texts, vectors):
            request = ChatRequest.of(text)
            entries.append(CacheEntry(key=cached.key(request), namespace=cached.namespace, group=cached.group(request),
                                      response={"text": "answer", "model": "m", "prompt_tokens": 30,
                                                "completion_tokens": 5}, created_at=now, query=text, vector=vector))
    put_many = getattr(store, "put_many", None)
    if put_many is not None:
        put_many(entries)
    else:
        for entry in entries:
            store.put(entry)


def bench_store(name: str, store: CacheStore, size: int, lookups: int) -> dict[str, tuple[float, float]]:
    model = ScriptedModel(lambda r: "answer", name="m")
    exact = Cached(model, store, namespace=f"b{size}")
    sem = Cached(model, store, namespace=f"b{size}", mode="semantic", embedder=HashingEmbedder(), threshold=0.9)
    fill(sem, store, size)
    rng = np.random.default_rng(0)
    picks = [int(i) for i in rng.integers(0, size, lookups)]
    hit_reqs = iter([ChatRequest.of(question(i)) for i in picks * 3])
    miss_reqs = iter([ChatRequest.of(f"unrelated {i} quantum zebra harmonica") for i in range(lookups * 3)])
    # a rephrasing that is only semantically close: an extra trailing word
    near_reqs = iter([ChatRequest.of(question(i) + " please") for i in picks * 3])
    cold_start = time.perf_counter()
    assert sem.lookup(next(near_reqs)) is not None, "semantic hit expected"
    cold = time.perf_counter() - cold_start
    result = {
        "exact hit": percentiles(timed(lambda: exact.lookup(next(hit_reqs)), lookups)),
        "exact miss": percentiles(timed(lambda: exact.lookup(next(miss_reqs)), lookups)),
        "semantic hit": percentiles(timed(lambda: sem.lookup(next(near_reqs)), lookups)),
        "semantic miss": percentiles(timed(lambda: sem.lookup(next(miss_reqs)), lookups)),
        "semantic index load": (cold * 1000.0, cold * 1000.0),
    }
    # the approximate search of groups over 2,048 rows may miss a true match (a miss, never a wrong answer)
    assert sem.stats.semantic_hits >= 0.95 * (lookups + 1), f"{name}: semantic lookups did not hit"
    return result


@contextmanager
def redis_server() -> Iterator[tuple[str, int] | None]:
    """(url, pid) of a private redis-server, or None when it is not installed."""
    binary = shutil.which("redis-server")
    if binary is None:
        yield None
        return
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                                 "no", "--dir", tmp], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                    break
                except OSError:
                    time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0", proc.pid
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def fallback_overhead(n: int) -> dict[str, tuple[float, float]]:
    direct = ScriptedModel(lambda r: "ok", name="direct")
    one = FallbackChain([ScriptedModel(lambda r: "ok", name="a")])
    skip = FallbackChain([ScriptedModel(lambda r: "ok", name="small", context_window=8),
                          ScriptedModel(lambda r: "ok", name="b")])
    failover = FallbackChain([ScriptedModel(fail_with=ServerError("500"), name="down"),
                              ScriptedModel(lambda r: "ok", name="c")], retries=0)
    request = ChatRequest.of("summarise the hand-off for the next agent in two lines", max_tokens=32)
    rows = {}
    for label, model in [("model alone", direct), ("chain of 1", one), ("chain, 1st skipped (window)", skip),
                         ("chain, 1st fails (500)", failover)]:
        timed(lambda m=model: m.complete(request), 50)  # warm up
        rows[label] = percentiles(timed(lambda m=model: m.complete(request), n))
    return rows


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def writer_caches(path: Path, mode: str, threads: int, dim: int, share_index: bool = True) -> list[Cached]:
    """``threads`` caches on ``path``, each with its own connection (semantic: sharing one index, or with one of
    its own each), warmed."""
    caches = [Cached(ScriptedModel(lambda r: "answer", name="m"), SQLiteStore(path), namespace="scale", mode=mode,
                     embedder=HashingEmbedder(dim), threshold=0.9, share_index=share_index) for _ in range(threads)]
    for cached in caches:  # the index load is a one-off; time the steady state
        cached.lookup(ChatRequest.of(question(1) + " warm"))
    return caches


def writers(caches: list[Cached], label: str, per_thread: int) -> tuple[float, float]:
    """(wall s, process CPU s) for one thread per cache doing miss + store ``per_thread`` times (new requests
    every call: ``label`` makes each round's requests its own)."""
    def work(t: int) -> None:
        for i in range(per_thread):
            caches[t].complete(f"writer {t} {label} new request {i} zebra {i * 7919 % 1000}")

    pool = [threading.Thread(target=work, args=(t,)) for t in range(len(caches))]
    start, cpu = time.perf_counter(), time.process_time()
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return time.perf_counter() - start, time.process_time() - cpu


Round = tuple[float, float, float, float, float, float]


class TimedLock:
    """A stand-in for the write lock the process's stores of one SQLite file queue on (``_File.writing``) that adds
    up how long threads waited for it and held it (each sum is changed only by the thread holding the lock)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.waited = self.held = self._since = 0.0

    def __enter__(self) -> None:
        start = time.perf_counter()
        self._lock.acquire()
        self._since = time.perf_counter()
        self.waited += self._since - start

    def __exit__(self, *exc: object) -> None:
        self.held += time.perf_counter() - self._since
        self._lock.release()

    def locked(self) -> bool:
        return self._lock.locked()


def writer_rounds(path: Path, dim: int, per_thread: int, rounds: int) -> tuple[list[Round], list[tuple[float, ...]]]:
    """4 exact, 4 semantic (one shared index) and 4 semantic writers (an index each), interleaved ``rounds``
    times (so all see the same machine load): (wall, CPU) of each per round; and, per round, the seconds the
    exact and the shared-index semantic writers waited for the file's write lock and held it (waited, held,
    waited, held)."""
    sets = [writer_caches(path, "exact", 4, dim), writer_caches(path, "semantic", 4, dim),
            writer_caches(path, "semantic", 4, dim, share_index=False)]
    lock = TimedLock()
    sets[0][0].store._file.writing = lock  # the file's stores share it: every writer set goes through it
    out, locks = [], []
    for round_ in range(rounds):
        before = (lock.waited, lock.held)
        exact_run = writers(sets[0], f"exact {round_}", per_thread)
        middle = (lock.waited, lock.held)
        shared_run = writers(sets[1], f"semantic {round_}", per_thread)
        locks.append((middle[0] - before[0], middle[1] - before[1], lock.waited - middle[0], lock.held - middle[1]))
        out.append((*exact_run, *shared_run, *writers(sets[2], f"semantic own {round_}", per_thread)))
    for cached in [c for caches in sets for c in caches]:
        cached.store.close()
    return out, locks


def bench_scale(size: int, lookups: int, dim: int) -> None:
    """The semantic cache at ``size`` entries in one group (the worst case), on SQLite."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scale.sqlite"
        store = SQLiteStore(path)
        model = ScriptedModel(lambda r: "answer", name="m")
        sem = Cached(model, store, namespace="scale", mode="semantic", embedder=HashingEmbedder(dim), threshold=0.9)
        with console.status(f"filling {size} entries"):
            fill(sem, store, size)
        before = rss_mb()
        start = time.perf_counter()
        assert sem.lookup(ChatRequest.of(question(3) + " please")) is not None, "semantic hit expected"
        load_s = time.perf_counter() - start
        rng = np.random.default_rng(1)
        hits = iter([ChatRequest.of(question(int(i)) + " please") for i in rng.integers(0, size, lookups)])
        found_before = sem.stats.semantic_hits  # the load's lookup above is not one of them
        hit = percentiles(timed(lambda: sem.lookup(next(hits)), lookups))
        # the approximate search of large groups may miss a true match (a miss, never a wrong answer): report it
        found = sem.stats.semantic_hits - found_before
        recall = found / lookups
        assert recall >= 0.9, f"only {found} of {lookups} paraphrases hit"
        fresh = iter(range(lookups))
        miss_store = percentiles(timed(lambda: sem.complete(f"brand new request {next(fresh)} harmonica"), lookups))
        index_mb = sem.index.nbytes / 1e6
        grown = rss_mb() - before
        store.close()
        rounds, locks = writer_rounds(path, dim, lookups // 2, WRITER_ROUNDS)
        embed = HashingEmbedder(dim)
        texts = [f"writer 0 semantic new request {i} zebra {i * 7919 % 1000}" for i in range(lookups)]
        embed_ms = min(timed(lambda: [embed.embed([t]) for t in texts], 3)) / len(texts) * 1000.0
    table = Table(title=f"semantic cache at {size} entries in one group (SQLite, hashing embedder {dim} dims)")
    for column in ("measure", "value"):
        table.add_column(column, justify="left" if column == "measure" else "right")
    gil = "" if kernel.KERNEL is None else (", the GIL given up around its arithmetic" if kernel.KERNEL.releases()
                                            else ", the GIL kept (the process may run on one CPU)")
    table.add_row("index search", f"compiled (C, _kernel.c){gil}" if kernel.compiled() else
                  "numpy (the C search is not compiled: make compile)")
    table.add_row("index load (once)", f"{load_s * 1000:.0f} ms")
    table.add_row("semantic hit p50 / p95", f"{hit[0]:.2f} / {hit[1]:.2f} ms")
    table.add_row("paraphrases found (approximate search)", f"{recall:.1%}")
    table.add_row("miss + store p50 / p95", f"{miss_store[0]:.2f} / {miss_store[1]:.2f} ms")
    table.add_row("index matrices", f"{index_mb:.0f} MB")
    table.add_row("process memory grown by the index load", f"{grown:.0f} MB")
    ops = 4 * (lookups // 2)
    table.add_row(f"4 writers x {lookups // 2} miss+store, {len(rounds)} interleaved rounds: exact / semantic, "
                  "median", f"{float(np.median([r[0] for r in rounds])):.2f} / "
                  f"{float(np.median([r[2] for r in rounds])):.2f} s")
    cpu = [float(np.median([r[i] for r in rounds])) / ops * 1000 for i in (1, 3, 5)]
    table.add_row("   process CPU per miss+store: exact / semantic / index each, median",
                  f"{cpu[0]:.2f} / {cpu[1]:.2f} / {cpu[2]:.2f} ms")
    lock_ms = [float(np.median([lk[i] for lk in locks])) / ops * 1000 for i in range(4)]
    table.add_row("   file write lock per miss+store, waited / held: exact | semantic, median",
                  f"{lock_ms[0]:.2f} / {lock_ms[1]:.2f} | {lock_ms[2]:.2f} / {lock_ms[3]:.2f} ms")
    for label, at in (("semantic / exact (4 writers)", 2), ("   an index per writer", 4)):
        ratios = np.array([r[at] / r[0] for r in rounds])
        low, high = ratio_interval(ratios)
        pooled = sum(r[at] for r in rounds) / sum(r[0] for r in rounds)
        spread = np.percentile(ratios, [0, 25, 75, 100])
        table.add_row(f"{label}: median of rounds [95% interval]",
                      f"{float(np.median(ratios)):.2f}x [{low:.2f}, {high:.2f}]")
        table.add_row("      pooled; rounds min / quartiles / max; rounds over 2x",
                      f"{pooled:.2f}x; {' / '.join(f'{q:.2f}' for q in spread)}; "
                      f"{int((ratios > 2.0).sum())} of {len(ratios)}")
    table.add_row("   of which the hashing query embedding, per request", f"{embed_ms:.3f} ms")
    console.print(table)


def ratio_interval(ratios: np.ndarray, draws: int = 2000) -> tuple[float, float]:
    """A 95% bootstrap interval of the median of ``ratios`` (rounds drawn again with replacement, seeded)."""
    rng = np.random.default_rng(0)
    medians = np.median(rng.choice(ratios, size=(draws, len(ratios)), replace=True), axis=1)
    low, high = np.percentile(medians, [2.5, 97.5])
    return float(low), float(high)


def hung_redis(calls: int = 8) -> None:
    """Per-call latency of an exact and a semantic cache while their Redis is SIGSTOPped."""
    import os
    import signal
    import warnings

    with redis_server() as server:
        if server is None:
            console.print("[yellow]redis-server not installed: hung-Redis run skipped[/yellow]")
            return
        url, pid = server
        rows = {}
        for mode in ("exact", "semantic"):
            cached = Cached(ScriptedModel(lambda r: "ok", name="m"), RedisStore(url, prefix=f"hung-{mode}:"),
                            mode=mode, embedder=HashingEmbedder())
            cached.complete("warm up")
            os.kill(pid, signal.SIGSTOP)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    rows[mode] = [t * 1000 for t in timed(lambda c=cached: c.complete(f"q {time.time()}"), calls)]
            finally:
                os.kill(pid, signal.SIGCONT)
        for mode, ms in rows.items():
            console.print(f"hung Redis, {mode}: first call {ms[0]:.0f} ms, then max {max(ms[1:]):.2f} ms "
                          f"over {calls - 1} calls")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--lookups", type=int, default=300)
    parser.add_argument("--minilm", action="store_true")
    parser.add_argument("--scale", type=int, default=0, help="only the N-entry semantic benchmark")
    parser.add_argument("--hung-redis", action="store_true", help="only the SIGSTOPped-Redis timings")
    parser.add_argument("--dim", type=int, default=384, help="embedding dimensions for --scale (MiniLM: 384)")
    args = parser.parse_args()
    if args.scale:
        bench_scale(args.scale, args.lookups, args.dim)
        return
    if args.hung_redis:
        hung_redis()
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    table = Table(title="cache lookup latency, ms (p50 / p95)")
    table.add_column("store")
    table.add_column("entries", justify="right")
    kinds = ["exact hit", "exact miss", "semantic hit", "semantic miss", "semantic index load"]
    for kind in kinds:
        table.add_column(kind, justify="right")
    with tempfile.TemporaryDirectory() as tmp, redis_server() as server:
        redis_url = None if server is None else server[0]
        for size in sizes:
            stores: list[tuple[str, CacheStore]] = [("memory", MemoryStore()),
                                                    ("sqlite", SQLiteStore(Path(tmp) / f"c{size}.sqlite"))]
            if redis_url is not None:
                stores.append(("redis", RedisStore(redis_url, prefix=f"bench{size}:")))
            for name, store in stores:
                with console.status(f"{name}, {size} entries"):
                    row = bench_store(name, store, size, args.lookups)
                table.add_row(name, str(size), *[f"{row[k][0]:.3f} / {row[k][1]:.3f}" for k in kinds])
                store.close()
        if redis_url is None:
            console.print("[yellow]redis-server not installed: Redis rows skipped[/yellow]")
    console.print(table)
    chain_table = Table(title="FallbackChain overhead per call, ms (p50 / p95), ScriptedModel backend")
    chain_table.add_column("path")
    chain_table.add_column("latency", justify="right")
    for label, (p50, p95) in fallback_overhead(2000).items():
        chain_table.add_row(label, f"{p50:.3f} / {p95:.3f}")
    console.print(chain_table)
    if args.minilm:
        embedder = open_embedder("minilm")
        embedder.embed(["warm up"])
        p50, p95 = percentiles(timed(lambda: embedder.embed([question(7)]), 50))
        console.print(f"MiniLM query embedding (added to each semantic lookup with MiniLM): {p50:.2f} / {p95:.2f} ms")


if __name__ == "__main__":
    main()
