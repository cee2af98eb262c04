"""Fixtures for the model-wrapper tests: the Redis server fixture lives in tests/conftest.py."""

from __future__ import annotations

import time
from collections.abc import Iterator
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
