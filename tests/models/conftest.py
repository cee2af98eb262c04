"""Fixtures for the model-wrapper tests: the Redis server fixture lives in tests/conftest.py."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from relaykit.models.cache import CacheStore, MemoryStore
from relaykit.models.cache.redis_store import RedisStore
from relaykit.models.cache.sqlite import SQLiteStore


@pytest.fixture(params=["memory", "sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[CacheStore]:
    """Each cache store backend, empty (Redis under a key prefix of its own)."""
    if request.param == "memory":
        made: CacheStore = MemoryStore()
    elif request.param == "sqlite":
        made = SQLiteStore(tmp_path / "cache.sqlite")
    else:
        made = RedisStore(request.getfixturevalue("redis_url"), prefix=f"t{time.time_ns()}:")
    yield made
    made.close()


InThreads = Callable[[Callable[[int], None]], None]


@pytest.fixture()
def in_threads() -> InThreads:
    """Runs ``work(t)`` for t = 0..3 in four threads at once, joins them, and raises what any of them raised
    (an exception in a thread would otherwise pass unnoticed)."""
    def run(work: Callable[[int], None]) -> None:
        errors: list[BaseException] = []

        def guarded(t: int) -> None:
            try:
                work(t)
            except BaseException as exc:  # reported below, in the test's thread
                errors.append(exc)

        threads = [threading.Thread(target=guarded, args=(t,)) for t in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if errors:
            raise errors[0]
    return run
