import time
from pathlib import Path

import numpy as np
import pytest

from relaykit.errors import UsageError
from relaykit.models.cache import CacheEntry, CacheStore, MemoryStore, open_store
from relaykit.models.cache.sqlite import SQLiteStore


def entry(key: str, namespace: str = "ns", group: str = "g", expires_at: float | None = None,
          vector: list[float] | None = None) -> CacheEntry:
    return CacheEntry(key=key, namespace=namespace, group=group,
                      response={"text": key.upper(), "model": "m", "prompt_tokens": 10, "completion_tokens": 5},
                      created_at=time.time(), expires_at=expires_at, query=f"q {key}",
                      vector=None if vector is None else np.asarray(vector, dtype=np.float32))



def test_put_get_and_expiry(store: CacheStore) -> None:
    now = time.time()
    store.put(entry("a"))
    store.put(entry("old", expires_at=now - 1))
    got = store.get("a", now)
    assert got is not None and got.response["text"] == "A" and got.query == "q a" and got.saved_tokens == 15
    assert store.get("old", now) is None
    assert store.get("missing", now) is None


def test_vectors_are_grouped_by_namespace_and_group(store: CacheStore) -> None:
    v0 = store.version("ns")
    store.put(entry("a", vector=[1, 0, 0]))
    store.put(entry("b", vector=[0, 1, 0]))
    store.put(entry("c", group="other", vector=[0, 0, 1]))
    store.put(entry("d", namespace="ns2", vector=[0, 0, 1]))
    store.put(entry("e", vector=[0, 0, 1], expires_at=time.time() - 1))
    keys, matrix = store.vectors("ns", "g", time.time())
    assert sorted(keys) == ["a", "b"] and matrix.shape == (2, 3)
    assert matrix[keys.index("b")].tolist() == [0, 1, 0]
    assert store.version("ns") > v0


def test_counters_stats_and_clear(store: CacheStore) -> None:
    store.put(entry("a"))
    store.put(entry("b", namespace="other"))
    store.count("ns", hits=2, misses=1, saved_tokens=30)
    stats = store.stats()
    assert (stats["ns"].entries, stats["ns"].hits, stats["ns"].misses, stats["ns"].saved_tokens) == (1, 2, 1, 30)
    version = store.version("ns")
    assert store.clear("ns") == 1
    assert store.get("a", time.time()) is None and store.get("b", time.time()) is not None
    assert store.version("ns") > version
    assert store.stats()["ns"].hits == 0
    assert store.clear() == 1


def test_corrupt_sqlite_file_is_reported_with_path_and_fix(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    path.write_bytes(b"this is not a database" * 200)
    with pytest.raises(UsageError, match=r"cache.sqlite is corrupt.*--rebuild"):
        SQLiteStore(path)
    rebuilt = SQLiteStore(path, rebuild=True)
    assert rebuilt.moved_to is not None and rebuilt.moved_to.exists()
    rebuilt.put(entry("a"))
    assert rebuilt.get("a", time.time()) is not None


def test_open_store_specs(tmp_path: Path) -> None:
    assert isinstance(open_store("memory"), MemoryStore)
    sqlite = open_store(f"sqlite:{tmp_path / 'x.sqlite'}")
    assert isinstance(sqlite, SQLiteStore) and sqlite.path == tmp_path / "x.sqlite"
    with pytest.raises(UsageError, match="unknown cache store"):
        open_store("mongo://x")


def test_unreachable_redis_fails_at_start_up() -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(UsageError, match=rf"cannot reach Redis at redis://127.0.0.1:{port}"):
        open_store(f"redis://127.0.0.1:{port}/0")
