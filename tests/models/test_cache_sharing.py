"""Several caches of one process on one store: one shared semantic index, one write queue per SQLite file,
WAL checkpoints outside the write path, and the one-statement refresh of the SQLite store."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from relaykit.embeddings import HashingEmbedder
from relaykit.models.base import ChatRequest
from relaykit.models.cache import Cached, CacheEntry, MemoryStore
from relaykit.models.cache import sqlite as sqlite_module
from relaykit.models.cache.sqlite import SQLiteStore
from relaykit.testing import ScriptedModel


def echo(request: object) -> str:
    return "answer"


def semantic(store: object, **options: object) -> Cached:
    return Cached(ScriptedModel(echo), store, mode="semantic", embedder=HashingEmbedder(), threshold=0.8,
                  **options)  # type: ignore[arg-type]


def test_caches_on_one_sqlite_file_share_one_index(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    a, b = semantic(SQLiteStore(path)), semantic(SQLiteStore(path))
    assert a.index is b.index and a._index_lock is b._index_lock
    a.complete("how many open tickets are in the support queue")
    hit = b.complete("how many open tickets are in the support queue now")
    assert hit.metadata.get("cache_mode") == "semantic"
    assert a.index.entries == 1, "the row was taken into the shared index once"
    own = semantic(SQLiteStore(path), share_index=False)
    assert own.index is not a.index
    assert own.complete("how many open tickets are in the support queue now").metadata.get("cache_mode") == "semantic"


def test_the_shared_index_is_per_store_namespace_and_bounds(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    first = semantic(SQLiteStore(path))
    assert semantic(SQLiteStore(path), namespace="other").index is not first.index
    assert semantic(SQLiteStore(path), index_entries=10).index is not first.index
    assert semantic(SQLiteStore(tmp_path / "d.sqlite")).index is not first.index
    memory = MemoryStore()
    assert semantic(memory).index is semantic(memory).index
    assert semantic(MemoryStore()).index is not semantic(memory).index


def test_the_shared_index_goes_with_its_last_cache(tmp_path: Path) -> None:
    import gc

    from relaykit.models.cache.index import _SHARED

    cached = semantic(SQLiteStore(tmp_path / "c.sqlite"), namespace="short-lived")
    cached.complete("a question to index")
    before = len(_SHARED)
    cached.store.close()
    del cached
    gc.collect()
    assert len(_SHARED) == before - 1


def test_threads_writing_through_caches_on_one_file_see_every_row(tmp_path: Path, in_threads: Any) -> None:
    path = tmp_path / "c.sqlite"
    caches = [semantic(SQLiteStore(path)) for _ in range(4)]

    def work(t: int) -> None:
        for i in range(25):
            caches[t].complete(f"writer {t} asks about invoice {t * 1000 + i * 37} for region {i}")

    in_threads(work)
    assert caches[0].store.stats()["default"].misses == 100
    hit = caches[3].lookup("writer 0 asks about invoice 37 for region 1 please")  # semantic: reads the rest
    assert hit is not None and hit.metadata["cache_mode"] == "semantic" and caches[0].index.entries == 100


def test_sqlite_refresh_is_version_and_changes_in_one_read(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "c.sqlite")
    assert store.refresh("ns", "g", 0, time.time())[0] == 0  # no counters row yet
    now = time.time()
    for i, group in enumerate(["g", "g", "h", "g"]):
        store.put(CacheEntry(key=f"k{i}", namespace="ns", group=group, response={"text": "a"}, created_at=now,
                             query=f"q{i}", vector=np.full(4, i + 1, dtype=np.float32)))
    version, keys, matrix, cursor = store.refresh("ns", "g", 0, now)
    assert version == store.version("ns") == 4 and keys == ["k0", "k1", "k3"] and cursor == 4
    assert matrix[:, 0].tolist() == [1.0, 2.0, 4.0]
    assert store.refresh("ns", "g", 2, now)[1:3][0] == ["k3"]
    assert store.changes("ns", "g", 2, now)[0] == ["k3"]


def test_sqlite_lookup_is_get_and_refresh(tmp_path: Path) -> None:
    """``lookup`` answers what ``get`` and ``refresh`` do: a hit, a miss, an expired entry, a group without rows."""
    store = SQLiteStore(tmp_path / "c.sqlite")
    now = time.time()
    for i, (group, expires) in enumerate([("g", None), ("g", now - 1.0), ("h", None), ("g", None)]):
        store.put(CacheEntry(key=f"k{i}", namespace="ns", group=group, response={"text": f"a{i}"}, created_at=now,
                             expires_at=expires, query=f"q{i}", vector=np.full(4, i + 1, dtype=np.float32)))
    for key, group, since in [("k0", "g", 0), ("k1", "g", 0), ("k2", "g", 1), ("nope", "g", 0), ("k3", "x", 0),
                              ("nope", "g", 4)]:
        entry, (version, keys, matrix, cursor) = store.lookup(key, now, "ns", group, since)
        expected = store.get(key, now)
        want_version, want_keys, want_matrix, want_cursor = store.refresh("ns", group, since, now)
        assert (entry is None) == (expected is None), key
        if entry is not None and expected is not None:
            assert (entry.key, entry.response, entry.query, entry.group, entry.expires_at) == (
                expected.key, expected.response, expected.query, expected.group, expected.expires_at)
            assert entry.vector is not None and np.array_equal(entry.vector, expected.vector)
        assert (version, keys, cursor) == (want_version, want_keys, want_cursor) and np.array_equal(matrix, want_matrix)
    assert store.lookup("k0", now, "ns", "g", 0)[0].response == {"text": "a0"}  # type: ignore[union-attr]


def test_a_semantic_miss_reads_rows_of_two_columns(tmp_path: Path) -> None:
    """Python's sqlite3 gives the GIL up once per column of every row it reads: a miss's rows (the version and
    the group's new rows) are not padded to an entry's width, and a new row does not carry its sequence number
    (the cursor is the namespace's version, read in the same statement)."""
    store = SQLiteStore(tmp_path / "c.sqlite")
    empty = store.lookup("missing", time.time(), "ns", "g", 7)
    assert empty[0] is None and empty[1][:2] == (0, []) and empty[1][3] == 7  # no counters row: version 0
    store.put(CacheEntry(key="k0", namespace="ns", group="g", response={"text": "a"}, created_at=time.time(),
                         query="q", vector=np.ones(4, dtype=np.float32)))
    cursor = store._db.execute(sqlite_module.LOOKUP, ("ns", "g", 0, time.time(), "missing", sqlite_module.NO_WRITER))
    assert len(cursor.description) == 2 and len(cursor.fetchall()) == 2
    assert store.lookup("missing", time.time(), "ns", "g", 0)[1][3] == 1  # the cursor: the version


def test_a_lookup_moves_its_cursor_to_the_namespace_version(tmp_path: Path) -> None:
    """The cursor a lookup returns is the version read in the same statement as the rows: entries of other groups
    and expired ones leave it no further behind, and an entry written after is read the next time."""
    store = SQLiteStore(tmp_path / "c.sqlite")
    now = time.time()
    for key, group, expires in [("k0", "g", None), ("k1", "h", None), ("k2", "g", now - 1.0)]:
        store.put(CacheEntry(key=key, namespace="ns", group=group, response={"text": "a"}, created_at=now,
                             expires_at=expires, query="q", vector=np.ones(4, dtype=np.float32)))
    _, (version, keys, _, cursor) = store.lookup("x", now, "ns", "g", 0)
    assert keys == ["k0"] and cursor == version == 3
    store.put(CacheEntry(key="k3", namespace="ns", group="g", response={"text": "a"}, created_at=now, query="q",
                         vector=np.ones(4, dtype=np.float32)))
    _, (_, keys, _, cursor) = store.lookup("x", now, "ns", "g", cursor)
    assert keys == ["k3"] and cursor == 4
    assert store.lookup("x", now, "ns", "g", cursor)[1][1] == [] and store.refresh("ns", "g", 0, now)[3] == 4


def test_stores_of_one_file_queue_on_one_write_lock(tmp_path: Path) -> None:
    a, b = SQLiteStore(tmp_path / "c.sqlite"), SQLiteStore(tmp_path / "." / "c.sqlite")
    assert a._file is b._file and SQLiteStore(tmp_path / "d.sqlite")._file is not a._file


def test_checkpoints_run_every_so_many_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite's own checkpoint is off (it would run inside the committing write); the store checkpoints
    every CHECKPOINT_EVERY writes of the process: only then do rows reach the database file itself."""
    monkeypatch.setattr(sqlite_module, "CHECKPOINT_EVERY", 5)
    path = tmp_path / "c.sqlite"
    store = SQLiteStore(path)
    assert store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    blob = "x" * 20_000

    def put(i: int) -> None:
        store.put(CacheEntry(key=f"k{i}", namespace="ns", group="", response={"text": blob}, created_at=1.0))

    for i in range(4):
        put(i)
    size = path.stat().st_size
    put(4)
    assert path.stat().st_size > size + 4 * 20_000, "the fifth write checkpointed the log into the file"


def test_an_index_reset_while_its_rows_were_read_is_read_again(tmp_path: Path) -> None:
    """The refresh reads outside the index lock; a group index replaced meanwhile (another thread reset or
    evicted it) is brought up to date from its own cursor, not left with only the rows of that read."""
    store = SQLiteStore(tmp_path / "c.sqlite")
    cached = semantic(store)
    for i in range(5):
        cached.complete(f"question {i} about the quarterly invoice batch")
    read = store.refresh

    def reset_meanwhile(namespace: str, group: str, since: int, now: float) -> object:
        found = read(namespace, group, since, now)
        if since > 0:
            with cached._index_lock:
                cached.index.reset(group)
        return found

    store.refresh = reset_meanwhile  # type: ignore[method-assign]
    cached.complete("question 5 about the quarterly invoice batch")
    hit = cached.lookup("question 2 about the quarterly invoice batch please")
    assert hit is not None and cached.index.entries == 6


def counting_lookups(store: SQLiteStore) -> list[list[str]]:
    """The keys each of ``store``'s ``lookup`` calls read as the group's changes, recorded as they come."""
    seen: list[list[str]] = []
    inner = store.lookup

    def lookup(*args: Any, **kwargs: Any) -> Any:
        found = inner(*args, **kwargs)
        seen.append(list(found[1][1]))
        return found

    store.lookup = lookup  # type: ignore[method-assign]
    return seen


def test_a_process_files_what_it_writes_and_never_reads_it_back(tmp_path: Path) -> None:
    """A semantic cache on SQLite files the row it stores in its index as it stores it (tagged with the index's
    writer): its reads of the group's changes leave its own rows out, and a paraphrase still hits."""
    store = SQLiteStore(tmp_path / "c.sqlite")
    cached = semantic(store)
    reads = counting_lookups(store)
    cached.complete("how many open tickets are in the support queue")  # the group's first read: every row
    for i in range(5):
        cached.complete(f"what is the weather in city number {i} today")
    assert reads and all(keys == [] for keys in reads), reads  # six rows written, none read back
    assert cached.index.entries == 6
    hit = cached.complete("how many open tickets are in the support queue now")
    assert hit.metadata.get("cache_mode") == "semantic"
    tags = {row[0] for row in store._db.execute("SELECT writer FROM entries")}
    assert tags == {cached.index.writer} and cached.index.writer.startswith(f"{os.getpid()}-")


def test_another_index_reads_the_rows_a_writer_filed_itself(tmp_path: Path) -> None:
    """Rows skipped by the index that wrote them are read by every other index: another process's (here an index
    of its own, ``share_index=False``, the same thing to the store) and a store read that skips no writer."""
    path = tmp_path / "c.sqlite"
    writer = semantic(SQLiteStore(path))
    writer.complete("how many open tickets are in the support queue")
    reader = semantic(SQLiteStore(path), share_index=False)
    reads = counting_lookups(reader.store)  # type: ignore[arg-type]
    reader.complete("a question of another kind about the billing run")
    writer.complete("is the nightly export job finished yet")
    hit = reader.complete("how many open tickets are in the support queue now")
    assert hit.metadata.get("cache_mode") == "semantic"
    assert reads[1] == [writer.key(ChatRequest.of("is the nightly export job finished yet"))], reads
    store = SQLiteStore(path)
    assert len(store.refresh("default", writer.group(ChatRequest.of("x")), 0, time.time())[1]) == 3  # not the hit


def test_an_evicted_group_reads_its_own_rows_again(tmp_path: Path) -> None:
    """A group's index read anew (evicted, here by a bound of one group) reads every row, its own among them:
    the skip starts only once the new index has read the group."""
    store = SQLiteStore(tmp_path / "c.sqlite")
    cached = semantic(store, index_groups=1)
    first = [{"role": "system", "content": "you answer about tickets"}]
    second = [{"role": "system", "content": "you answer about the weather"}]
    cached.complete([*first, {"role": "user", "content": "how many open tickets are in the support queue"}])
    cached.complete([*second, {"role": "user", "content": "will it rain in the city tomorrow"}])  # evicts the first
    assert cached.index.groups == 1
    hit = cached.complete([*first, {"role": "user", "content": "how many open tickets are in the support queue now"}])
    assert hit.metadata.get("cache_mode") == "semantic"


def test_a_forked_child_draws_a_writer_tag_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """A child forked with the parent's index copies what the parent filed, but its own writes were never filed in
    the parent's index: the child tags them with a tag of its own, so the parent reads them."""
    from relaykit.models.cache import index as index_module

    index = index_module.SemanticIndex()
    parent = index.writer
    assert index.writer == parent
    monkeypatch.setattr(os, "getpid", lambda: 999_999_999)
    child = index.writer
    assert child != parent and child.startswith("999999999-") and index.writer == child
    assert index_module.SemanticIndex().writer != child  # every index its own tag


def test_older_cache_files_gain_the_writer_column_and_the_changes_index(tmp_path: Path) -> None:
    """A file written before the writer tag: the column and the changes index are added when it opens, the old
    index dropped, its untagged rows read by every index, and the skip served from the index alone."""
    import sqlite3

    path = tmp_path / "old.sqlite"
    old = sqlite3.connect(path)
    old.executescript(sqlite_module.SCHEMA)
    old.execute("ALTER TABLE entries ADD COLUMN checksum TEXT")
    old.execute("ALTER TABLE entries ADD COLUMN seq INTEGER NOT NULL DEFAULT 0")
    old.execute("CREATE INDEX entries_seq ON entries (namespace, grp, seq)")
    old.commit()
    old.close()
    store = SQLiteStore(path)
    assert "writer" in {row[1] for row in store._db.execute("PRAGMA table_info(entries)")}
    indexes = {row[1] for row in store._db.execute("PRAGMA index_list(entries)")}
    assert "entries_changes" in indexes and "entries_seq" not in indexes
    plan = " ".join(str(row[3]) for row in store._db.execute(
        "EXPLAIN QUERY PLAN " + sqlite_module.LOOKUP, ("ns", "g", 0, 0.0, "k", "w")))
    assert "entries_changes" in plan
    store.put(CacheEntry(key="k0", namespace="ns", group="g", response={"text": "a"}, created_at=time.time(),
                         query="q", vector=np.ones(4, dtype=np.float32)))
    assert store.lookup("x", time.time(), "ns", "g", 0, "some-writer")[1][1] == ["k0"]  # untagged: read by all
    store.put(CacheEntry(key="k1", namespace="ns", group="g", response={"text": "a"}, created_at=time.time(),
                         query="q", vector=np.ones(4, dtype=np.float32)), writer="some-writer")
    assert store.lookup("x", time.time(), "ns", "g", 0, "some-writer")[1][1] == ["k0"]
    assert store.lookup("x", time.time(), "ns", "g", 0)[1][1] == ["k0", "k1"]
    assert store.refresh("ns", "g", 0, time.time(), "some-writer")[1] == ["k0"]


OTHER_PROCESS = """
import sys
from relaykit.embeddings import HashingEmbedder
from relaykit.models.cache import Cached
from relaykit.models.cache.sqlite import SQLiteStore
from relaykit.testing import ScriptedModel
cached = Cached(ScriptedModel(lambda r: "answer"), SQLiteStore(sys.argv[1]), mode="semantic",
                embedder=HashingEmbedder(), threshold=0.8)
hit = cached.complete("how many open tickets are in the support queue now")
print(hit.metadata.get("cache_mode"), cached.index.writer)
cached.complete("is the nightly export job finished yet")
"""


def test_two_processes_read_each_others_rows(tmp_path: Path) -> None:
    """Each process skips only its own rows: a row this process wrote is found by another process, and the row
    that process wrote is read here by an index that had already read the group."""
    import subprocess
    import sys

    path = tmp_path / "c.sqlite"
    cached = semantic(SQLiteStore(path))
    cached.complete("how many open tickets are in the support queue")
    done = subprocess.run([sys.executable, "-c", OTHER_PROCESS, str(path)], capture_output=True, text=True,
                          timeout=120, check=True)
    mode, other = done.stdout.split()
    assert mode == "semantic" and other != cached.index.writer
    hit = cached.complete("is the nightly export job finished yet please")
    assert hit.metadata.get("cache_mode") == "semantic"


class PlainSQLiteStore(SQLiteStore):
    """A subclass whose ``put`` takes no writer: it says so, and ``Cached`` neither tags nor skips."""

    skips_writers = False

    def put(self, entry: CacheEntry) -> None:  # type: ignore[override]
        super().put(entry)


def test_a_store_that_does_not_skip_writers_is_read_back_as_before(tmp_path: Path) -> None:
    store = PlainSQLiteStore(tmp_path / "c.sqlite")
    cached = semantic(store)
    reads = counting_lookups(store)
    cached.complete("how many open tickets are in the support queue")
    cached.complete("is the nightly export job finished yet")
    assert len(reads[1]) == 1  # the first row, read back from the store
    assert cached.complete("is the nightly export job finished yet please").metadata.get("cache_mode") == "semantic"
    assert {row[0] for row in store._db.execute("SELECT writer FROM entries")} == {None}
