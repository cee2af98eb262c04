"""The relay run's speed work changes no result: run-scoped memory on and off give the same stored results."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest

from relaykit import memo
from relaykit.bench.relay.runner import RelayConfig, open_lab, run_relay
from relaykit.bench.store import RunStore

METHODS = ("passthrough", "extract-rules", "prune", "truncate", "tfidf")
TIMES = ("seconds", "booker_seconds", "compression_seconds")


def _results(tmp_path: Path, name: str) -> dict[str, Any]:
    store = RunStore(tmp_path / f"{name}.sqlite")
    lab, run_id = open_lab(store, RelayConfig(methods=METHODS, goals=6, embedder="hashing"))
    run_relay(store, lab, run_id)
    return {key: {k: v for k, v in value.items() if k not in TIMES} for key, value in store.results(run_id).items()}


def test_memory_on_and_off_give_the_same_results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    remembered = _results(tmp_path, "on")
    assert not memo.active() and not any(memo._tables)  # the run's memory is gone once it ends
    monkeypatch.setattr(memo, "remembering", contextlib.nullcontext)
    plain = _results(tmp_path, "off")
    assert remembered and remembered == plain
