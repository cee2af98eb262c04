"""Hardening of the cache: damaged entries, what is never stored, secrets and file modes, the bounded
incremental semantic index, a hung Redis."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import sqlite3
import stat
import subprocess
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from relaykit.embeddings import HashingEmbedder
from relaykit.errors import UsageError
from relaykit.models import ChatRequest, ChatResponse
from relaykit.models.cache import (
    Cached,
    CacheEntry,
    CacheStore,
    CircuitBreaker,
    DamagedEntryWarning,
    MemoryStore,
    redact_secrets,
)
from relaykit.models.cache.redis_store import RedisStore
from relaykit.models.cache.sqlite import SQLiteStore
from relaykit.testing import ScriptedModel

REDIS_BINARY = shutil.which("redis-server")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def echo(request: ChatRequest) -> str:
    return "answer to " + str(request.messages[-1]["content"])


def entry(key: str, text: str = "the price is 1728 USD", vector: list[float] | None = None) -> CacheEntry:
    return CacheEntry(key=key, namespace="ns", group="g", created_at=time.time(), query=f"q {key}",
                      response={"text": text, "model": "m", "prompt_tokens": 10, "completion_tokens": 5},
                      vector=None if vector is None else np.asarray(vector, dtype=np.float32))



# -- integrity ---------------------------------------------------------------------------------------------

def _overwrite(store: CacheStore, key: str, field: str, value: Any) -> None:
    """Damage one stored field behind the store's back, the way a bad disk or a stray writer would."""
    if isinstance(store, MemoryStore):
        held = store._entries[key][0]
        if field == "vector":
            object.__setattr__(held, "vector", np.frombuffer(value, dtype=np.uint8).astype(np.float32))
        else:
            held.response["text"] = value
    elif isinstance(store, SQLiteStore):
        column = {"text": "response", "json": "response", "vector": "vector"}[field]
        store._db.execute(f"UPDATE entries SET {column} = ? WHERE key = ?", (value, key))
    else:
        name = {"text": "response", "json": "response", "vector": "vector"}[field]
        store._r.hset(store._k("e", key), name, value)


def _flip(text: str) -> str:
    return text.replace("price", "psice")


@pytest.mark.parametrize("damage", ["flipped", "broken_json", "short_vector"])
def test_a_damaged_entry_is_a_miss_and_a_warning_in_every_store(store: CacheStore, damage: str) -> None:
    store.put(entry("a", vector=[1.0, 0.0, 0.0]))
    stored_json = '{"completion_tokens": 5, "model": "m", "prompt_tokens": 10, "text": "the price is 1728 USD"}'
    if damage == "flipped":
        _overwrite(store, "a", "text", _flip("the price is 1728 USD") if isinstance(store, MemoryStore)
                   else _flip(stored_json))
    elif damage == "broken_json":
        _overwrite(store, "a", "json", "the price is" if isinstance(store, MemoryStore) else stored_json[:-7])
    else:
        _overwrite(store, "a", "vector", b"\x01\x02\x03")
    with pytest.warns(DamagedEntryWarning, match="damaged cache entry"):
        assert store.get("a", time.time()) is None


def test_an_entry_checksummed_by_an_earlier_release_still_verifies(tmp_path: Path) -> None:
    """Checksums now cover the vector through its CRC-32 (17 bytes); the BLAKE2b-over-the-bytes checksums
    earlier releases wrote still verify, so upgrading does not turn a cache into misses."""
    import hashlib
    import json

    store = SQLiteStore(tmp_path / "c.sqlite")
    store.put(entry("new", vector=[0.6, 0.8, 0.0]))
    (stored,) = store._db.execute("SELECT checksum FROM entries WHERE key = 'new'").fetchone()
    assert len(stored) == 34
    old = entry("old", vector=[0.0, 0.6, 0.8])
    response_json = json.dumps(old.response, sort_keys=True)
    blob = np.asarray(old.vector, dtype=np.float32).tobytes()
    digest = hashlib.blake2b(digest_size=16)  # what the earlier releases computed
    digest.update(json.dumps([old.key, old.namespace, old.group, response_json, old.query, repr(old.created_at),
                              None], ensure_ascii=True).encode())
    digest.update(blob)
    store._db.execute("INSERT INTO entries (key, namespace, grp, response, query, vector, created_at, expires_at, "
                      "checksum) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)",
                      (old.key, old.namespace, old.group, response_json, old.query, blob, old.created_at,
                       digest.hexdigest()))
    with warnings.catch_warnings():
        warnings.simplefilter("error", DamagedEntryWarning)
        found = store.get("old", time.time())
        assert found is not None and found.vector is not None and found.vector.tolist() == pytest.approx([0, .6, .8])
        assert store.get("new", time.time()) is not None


@pytest.mark.parametrize("key", ["new", "old"])
def test_a_flipped_vector_byte_fails_the_checksum_in_either_form(tmp_path: Path, key: str) -> None:
    store = SQLiteStore(tmp_path / "c.sqlite")
    store.put(entry("new", vector=[0.6, 0.8, 0.0]))
    if key == "old":  # the earlier releases' checksum over the same fields
        from relaykit.models.cache.integrity import checksum, encode

        response_json, blob, _ = encode(entry("new", vector=[0.6, 0.8, 0.0]))
        row = store._db.execute("SELECT created_at FROM entries WHERE key = 'new'").fetchone()
        legacy = checksum("new", "ns", "g", response_json, "q new", blob, row[0], None, legacy=True)
        store._db.execute("UPDATE entries SET checksum = ? WHERE key = 'new'", (legacy,))
    blob = bytearray(np.asarray([0.6, 0.8, 0.0], dtype=np.float32).tobytes())
    blob[5] ^= 0x01  # still three finite float32 values
    store._db.execute("UPDATE entries SET vector = ? WHERE key = 'new'", (bytes(blob),))
    with pytest.warns(DamagedEntryWarning, match="checksum mismatch"):
        assert store.get("new", time.time()) is None


def test_a_short_vector_blob_does_not_break_its_group(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "c.sqlite")
    store.put(entry("good", vector=[1.0, 0.0, 0.0]))
    store.put(entry("bad", vector=[0.0, 1.0, 0.0]))
    store._db.execute("UPDATE entries SET vector = ? WHERE key = 'bad'", (b"\x01\x02\x03",))
    with pytest.warns(DamagedEntryWarning):
        keys, matrix = store.vectors("ns", "g", time.time())
    assert keys == ["good"] and matrix.shape == (1, 3)


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def test_cached_never_serves_or_raises_for_damaged_rows(kind: str, tmp_path: Path,
                                                        request: pytest.FixtureRequest) -> None:
    store: Any = (SQLiteStore(tmp_path / "c.sqlite") if kind == "sqlite"
                  else RedisStore(request.getfixturevalue("redis_url"), prefix=f"d{time.time_ns()}:"))
    model = ScriptedModel(lambda r: "the price is 1728 USD")
    cached = Cached(model, store, mode="semantic", embedder=HashingEmbedder())
    cached.complete("what is the price of the lamp")
    key = cached.key(ChatRequest.of("what is the price of the lamp"))
    for bad in ('{"text": "the psice is 1728 USD", "model": "m"}', '{"text": "the price', "x"):
        _overwrite(store, key, "json", bad)
        with pytest.warns(DamagedEntryWarning):
            answer = cached.complete("what is the price of the lamp")
        assert answer.metadata.get("cached") is None and answer.text == "the price is 1728 USD"
    _overwrite(store, key, "vector", b"abc")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DamagedEntryWarning)
        cached.complete("what is the price of the lamp today")  # a semantic lookup over the damaged group
    assert cached.stats.hits == 0
    store.close()


# -- what is never stored ----------------------------------------------------------------------------------

@pytest.mark.parametrize("answer", [ChatResponse(text="", model="m"), ChatResponse(text="  \n", model="m"),
                                    ChatResponse(text="The answer is", model="m", finish_reason="length"),
                                    ChatResponse(text="", model="m", finish_reason="content_filter")])
def test_empty_cut_and_filtered_answers_are_not_cached(answer: ChatResponse) -> None:
    model = ScriptedModel([answer, answer])
    cached = Cached(model, MemoryStore())
    cached.complete("q")
    cached.complete("q")
    assert model.calls == 2 and cached.stats.not_stored == 2 and cached.stats.hits == 0


def test_the_storing_policy_is_configurable() -> None:
    cut = ChatResponse(text="The answer is", model="m", finish_reason="length")
    model = ScriptedModel([cut, cut])
    cached = Cached(model, MemoryStore(), cache_if=lambda response: bool(response.text))
    cached.complete("q")
    assert cached.complete("q").metadata["cached"] is True and model.calls == 1


# -- store spec strings ------------------------------------------------------------------------------------

def test_cached_accepts_a_store_spec_string(tmp_path: Path) -> None:
    model = ScriptedModel(echo)
    cached = Cached(model, store="memory")
    cached.complete("q")
    assert cached.complete("q").metadata["cached"] is True and isinstance(cached.store, MemoryStore)
    assert isinstance(Cached(model, store=f"sqlite:{tmp_path / 'x.sqlite'}").store, SQLiteStore)
    with pytest.raises(UsageError, match="unknown cache store"):
        Cached(model, store="mongo://x")
    with pytest.raises(UsageError, match="CacheStore or a spec"):
        Cached(model, store=42)  # type: ignore[arg-type]


# -- secrets and files -------------------------------------------------------------------------------------

def test_secrets_in_the_user_message_and_url_credentials_are_never_written(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    key = "sk-proj-" + "Ab3" * 16
    model = ScriptedModel(lambda r: "done", name="openai:http://alice:hunter2pass@llm.internal/v1")
    model_name = "openai:http://alice:hunter2pass@llm.internal/v1"
    cached = Cached(model, SQLiteStore(path), mode="semantic", embedder=HashingEmbedder())
    cached.complete(f"store my key {key} in the vault")
    other = "sk-proj-" + "Zz9" * 16
    second = cached.complete(f"store my key {other} in the vault")
    assert second.metadata.get("cached") is None, "a request with another secret is another request"
    cached.store.close()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert key.encode() not in raw and other.encode() not in raw and b"hunter2pass" not in raw
    assert b"[secret:" in raw and model.name == model_name


@pytest.mark.parametrize("message", [
    "deploy with DB_PASSWORD=Winter2024horse and AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    'why does {"dbPassword": "Winter2024horse", "secretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"} fail',
    "run ./sync --api-token Winter2024horse; curl -u ops:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY https://x",
])
def test_secrets_named_by_their_variable_never_reach_the_cache_file(tmp_path: Path, message: str) -> None:
    cached = Cached(ScriptedModel(lambda r: "done", name="m"), SQLiteStore(tmp_path / "cache.sqlite"), mode="semantic",
                    embedder=HashingEmbedder())
    cached.complete(message)
    cached.store.close()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert b"Winter2024horse" not in raw and b"wJalrXUtnFEMI" not in raw and b"[secret:" in raw


def test_redaction_covers_common_key_shapes() -> None:
    text = ("keys sk-ant-api03-abcdefghijklmnopqrst AKIAIOSFODNN7EXAMPLE ghp_abcdefghijklmnopqrstuvwxyz0123 "
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U "
            "https://bob:s3cretpw@example.com/x")
    redacted = redact_secrets(text)
    for secret in ("sk-ant-api03", "AKIAIOSFODNN7EXAMPLE", "ghp_", "eyJhbGci", "s3cretpw", "bob:"):
        assert secret not in redacted
    assert "https://example.com/x" in redacted and redacted.count("[secret:") == 4


def test_cache_files_are_private(tmp_path: Path) -> None:
    home = tmp_path / "home" / ".relaykit"
    store = SQLiteStore(home / "cache.sqlite")
    store.put(entry("a"))
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    for path in home.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    store.close()
    broken = tmp_path / "broken.sqlite"
    broken.write_bytes(b"not a database" * 100)
    SQLiteStore(broken, rebuild=True).close()
    assert stat.S_IMODE(broken.stat().st_mode) == 0o600, "a rebuilt cache file is private too"


# -- the semantic index ------------------------------------------------------------------------------------

class CountingStore(MemoryStore):
    def __init__(self) -> None:
        super().__init__()
        self.reads: list[int] = []

    def vectors(self, namespace: str, group: str, now: float) -> Any:
        raise AssertionError("the whole group must not be reloaded")

    def changes(self, namespace: str, group: str, since: int, now: float) -> Any:
        found = super().changes(namespace, group, since, now)
        self.reads.append(len(found[0]))
        return found


def test_the_semantic_index_is_updated_incrementally() -> None:
    store = CountingStore()
    cached = Cached(ScriptedModel(echo), store, mode="semantic", embedder=HashingEmbedder())
    for i in range(30):
        cached.complete(f"question number {i} about the quarterly budget of team {i}")
    assert max(store.reads) <= 1, "each lookup reads only what was written since the last one"
    assert cached.complete("question number 7 about the quarterly budget of team 7 please").metadata["cached"]


def test_a_second_writer_is_seen_without_a_reload(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    one = Cached(ScriptedModel(echo), SQLiteStore(path), mode="semantic", embedder=HashingEmbedder(), threshold=0.8)
    two = Cached(ScriptedModel(echo), SQLiteStore(path), mode="semantic", embedder=HashingEmbedder(), threshold=0.8)
    one.complete("what is the status of the billing migration project")
    two.complete("how many open tickets are in the support queue")
    hit = one.complete("how many open tickets are in the support queue now")
    assert hit.metadata.get("cache_mode") == "semantic"


def test_the_semantic_index_is_bounded_in_groups_and_rows() -> None:
    cached = Cached(ScriptedModel(echo), MemoryStore(), mode="semantic", embedder=HashingEmbedder(),
                    index_entries=10, index_groups=2)
    for system in ("be terse", "be polite", "be formal"):
        for i in range(8):
            cached.complete([{"role": "system", "content": system}, {"role": "user", "content": f"question {i}"}])
    assert cached.index.groups <= 2 and cached.index.entries <= 10


def test_large_groups_use_the_projection_and_still_find_the_match() -> None:
    from relaykit.models.cache.index import EXACT_BELOW, GroupIndex

    rng = np.random.default_rng(1)
    rows = rng.standard_normal((EXACT_BELOW * 3, 64)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    index = GroupIndex()
    index.add([f"k{i}" for i in range(len(rows))], rows)
    for target in rng.integers(0, len(rows), 20):
        noisy = rows[target] + 0.1 * rng.standard_normal(64).astype(np.float32) / 8
        noisy /= np.linalg.norm(noisy)
        found = index.search(noisy, threshold=0.92)
        assert found and found[0][0] == f"k{target}"


def _unit_rows(rng: np.random.Generator, n: int, dim: int = 64) -> np.ndarray:
    rows = rng.standard_normal((n, dim)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _filed(index: Any) -> list[int]:
    """Every row id filed in the index's cells or pending (each row must appear exactly once)."""
    return sorted([int(r) for cell in index._cells for r in cell.ids[: cell.size]]
                  + [int(r) for r in index._pending_rows()])


def test_large_group_cells_follow_replaced_rows_and_growth() -> None:
    from relaykit.models.cache.index import EXACT_BELOW, GroupIndex

    rng = np.random.default_rng(2)
    rows = _unit_rows(rng, EXACT_BELOW * 2)
    index = GroupIndex()
    index.add([f"k{i}" for i in range(len(rows))], rows)
    assert index.search(rows[5], threshold=0.99)[0][0] == "k5"  # draws the cells
    moved = _unit_rows(rng, 1)
    index.add(["k5"], moved)  # the same key, a new vector: it must leave its old cell
    assert _filed(index) == list(range(len(rows)))
    assert index.search(moved[0], threshold=0.99)[0][0] == "k5"
    assert not [key for key, _ in index.search(rows[5], threshold=0.99) if key == "k5"]
    extra = _unit_rows(rng, 300)
    for i in range(0, 300, 3):  # pending at first, then filed into the existing cells in batches
        index.add([f"x{j}" for j in range(i, i + 3)], extra[i: i + 3])
        assert _filed(index) == list(range(len(rows) + i + 3))
    assert 0 < index.pending < 300
    assert all(index.search(v, threshold=0.99)[0][0] == f"x{i}" for i, v in enumerate(extra))
    index.add(["x0"], moved)  # a filed row replaced: pending again, out of its cell
    assert _filed(index) == list(range(len(rows) + 300)) and index.search(moved[0], 0.99)[0][0] in {"k5", "x0"}
    assert "x0" not in [key for key, _ in index.search(extra[0], threshold=0.99)]
    more = _unit_rows(rng, len(rows))
    index.add([f"m{i}" for i in range(len(more))], more)  # the group doubled: the cells are drawn again
    assert index.search(more[7], threshold=0.99)[0][0] == "m7"
    assert _filed(index) == list(range(len(index)))


def test_large_group_search_looks_at_a_few_cells_only() -> None:
    from relaykit.models.cache.index import CELLS, PROBES, RERANK, GroupIndex

    rng = np.random.default_rng(3)
    rows = _unit_rows(rng, 40_000)
    index = GroupIndex()
    index.add([f"k{i}" for i in range(len(rows))], rows)
    index.search(rows[0], threshold=0.9)
    sizes = sorted(cell.size for cell in index._cells)
    assert len(sizes) == CELLS and sum(sizes[-PROBES:]) < len(rows) // 4, "a query reads a small share of rows"
    assert len(index.view()._candidates(rows[1], 0.0)) <= RERANK
    index.keep_last(30_000)  # row numbers change: the cells are filed again
    assert index.search(rows[-1], threshold=0.99)[0][0] == f"k{len(rows) - 1}"
    assert _filed(index) == list(range(30_000))


# -- a hung Redis ------------------------------------------------------------------------------------------

@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A redis-server of this test's own (it gets SIGSTOPped), stopped at the end."""
    if REDIS_BINARY is None:
        pytest.skip("redis-server is not installed: apt-get install -y redis-server")
    port = _free_port()
    proc = subprocess.Popen([REDIS_BINARY, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(tmp_path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("redis-server did not start")
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0", proc
    finally:
        os.kill(proc.pid, signal.SIGCONT)
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.redis
@pytest.mark.parametrize("mode", ["exact", "semantic"])
def test_a_hung_redis_costs_one_short_timeout_then_nothing(
        private_redis: tuple[str, subprocess.Popen[bytes]], mode: str) -> None:
    url, proc = private_redis
    model = ScriptedModel(echo)
    cached = Cached(model, RedisStore(url, prefix="hung:"), mode=mode, embedder=HashingEmbedder())
    cached.complete("warm the connection")
    os.kill(proc.pid, signal.SIGSTOP)
    timings = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for i in range(6):
            start = time.monotonic()
            assert cached.complete(f"question {i}").text == f"answer to question {i}"
            timings.append(time.monotonic() - start)
    assert timings[0] <= 1.5, timings
    assert max(timings[1:]) <= 0.05, timings
    assert cached.stats.store_errors >= 6


def test_the_breaker_lets_one_probe_through_after_its_cool_down() -> None:
    now = [0.0]
    breaker = CircuitBreaker(cooldown_s=10, clock=lambda: now[0])
    assert breaker.allow()
    breaker.failure()
    assert not breaker.allow()
    now[0] = 10.5
    assert breaker.allow() and not breaker.allow()  # one probe, the others still skip
    breaker.success()
    assert breaker.allow() and not breaker.is_open


def test_sqlite_rows_of_an_older_release_are_misses_not_errors(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE entries (key TEXT PRIMARY KEY, namespace TEXT NOT NULL, grp TEXT NOT NULL, response TEXT NOT NULL,
            query TEXT NOT NULL, vector BLOB, created_at REAL NOT NULL, expires_at REAL);
        CREATE TABLE counters (namespace TEXT PRIMARY KEY, hits INTEGER NOT NULL DEFAULT 0,
            misses INTEGER NOT NULL DEFAULT 0, saved_tokens INTEGER NOT NULL DEFAULT 0,
            version INTEGER NOT NULL DEFAULT 0);
        INSERT INTO entries VALUES ('k', 'ns', 'g', '{"text": "old"}', 'q', NULL, 1.0, NULL);
    """)
    db.commit()
    db.close()
    store = SQLiteStore(path)
    with pytest.warns(DamagedEntryWarning, match="no checksum"):
        assert store.get("k", time.time()) is None
    store.put(entry("new"))
    assert store.get("new", time.time()) is not None


def test_writers_on_their_own_connections_get_distinct_sequence_numbers(tmp_path: Path, in_threads: Any) -> None:
    path = tmp_path / "c.sqlite"
    caches = [Cached(ScriptedModel(echo), SQLiteStore(path), mode="semantic", embedder=HashingEmbedder(),
                     threshold=0.8) for _ in range(4)]

    def work(t: int) -> None:
        for i in range(30):
            caches[t].complete(f"writer {t} asks question {i} about shipment {t * 100 + i}")

    in_threads(work)
    db = sqlite3.connect(path)
    seqs = [row[0] for row in db.execute("SELECT seq FROM entries ORDER BY seq")]
    version = db.execute("SELECT version FROM counters WHERE namespace = 'default'").fetchone()[0]
    db.close()
    assert seqs == list(range(1, 121)) and version == 120, "one write, one sequence number, in one statement"
    caches[0].lookup("writer 3 asks question 29 about shipment 329 please")  # reads the others' writes
    assert caches[0].index.entries == 120


def test_one_semantic_cache_shared_by_threads(tmp_path: Path, in_threads: Any) -> None:
    cached = Cached(ScriptedModel(echo), SQLiteStore(tmp_path / "c.sqlite"), mode="semantic",
                    embedder=HashingEmbedder(), threshold=0.8)

    def work(t: int) -> None:
        for i in range(40):
            cached.complete(f"thread {t} asks question {i} about the weekly report")

    in_threads(work)  # raises what any thread raised
    assert cached.store.stats()["default"].entries == 160
    cached.lookup("thread 0 asks question 0 about the weekly report please")  # brings the index up to date
    assert cached.index.entries == 160
