import sqlite3
import threading

import pytest

from relaykit.bench.store import MIGRATIONS, RunStore
from relaykit.errors import UsageError


def test_runs_results_and_events_round_trip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = RunStore(tmp_path / "runs.sqlite")
    run_id = store.create_run("relay", {"goals": 3, "methods": ["a"]})
    assert run_id.startswith("relay-")
    assert store.record(run_id, "score/G1", {"feasible": True})
    assert not store.record(run_id, "score/G1", {"feasible": False})  # append-only: the first value stays
    assert store.results(run_id) == {"score/G1": {"feasible": True}}
    assert store.result(run_id, "score/G1") == {"feasible": True}
    assert store.done_keys(run_id) == {"score/G1"}
    store.log_event(run_id, "failure", {"goal": "G2"})
    store.log_event(run_id, "booker", {"goal": "G1"})
    assert [e["kind"] for e in store.events(run_id)] == ["failure", "booker"]
    assert store.events(run_id, "failure")[0]["payload"] == {"goal": "G2"}
    info = store.get_run(run_id)
    assert info.config == {"goals": 3, "methods": ["a"]} and info.status == "running"
    store.finish(run_id)
    assert store.get_run(run_id).status == "finished" and store.get_run(run_id).finished_at is not None


def test_unknown_run_and_result_are_usage_errors_that_list_runs(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = RunStore(tmp_path / "runs.sqlite")
    run_id = store.create_run("relay", {})
    with pytest.raises(UsageError, match=run_id):
        store.get_run("nope")
    with pytest.raises(UsageError, match="no result"):
        store.result(run_id, "missing")


def test_store_survives_reopen_and_is_wal(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "runs.sqlite"
    store = RunStore(path)
    run_id = store.create_run("k", {})
    store.record(run_id, "a", {"x": 1})
    store.close()
    again = RunStore(path)  # migrations are applied once
    assert again.results(run_id) == {"a": {"x": 1}} and [r.run_id for r in again.list_runs("k")] == [run_id]
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("SELECT count(*) FROM migrations").fetchone()[0] == len(MIGRATIONS)


def test_concurrent_records_from_threads(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = RunStore(tmp_path / "runs.sqlite")
    run_id = store.create_run("k", {})

    def work(start: int) -> None:
        for i in range(start, start + 50):
            store.record(run_id, f"u{i}", {"i": i})

    threads = [threading.Thread(target=work, args=(n * 50,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(store.done_keys(run_id)) == 200


def test_unreadable_store_is_a_usage_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "runs.sqlite"
    bad.write_bytes(b"this is not a database" * 100)
    with pytest.raises(UsageError, match="move it aside"):
        RunStore(bad)
