import threading
import time

import pytest

from relaykit.context import AcquisitionMemo
from relaykit.telemetry import STAGE_END, MemorySink, Telemetry


def test_each_source_is_fetched_once_and_shared() -> None:
    calls: list[str] = []
    memo = AcquisitionMemo()

    def fetch_mail() -> list[str]:
        calls.append("mail")
        return ["m1", "m2"]

    for _stage in ("extract", "match", "summarize"):
        assert memo.get("mail", fetch_mail) == ["m1", "m2"]
    assert calls == ["mail"]
    assert memo.stats() == {"sources": 1, "fetches": 1, "reuses": 2}


def test_concurrent_callers_wait_for_the_one_fetch() -> None:
    count = 0
    gate = threading.Event()

    def slow() -> int:
        nonlocal count
        count += 1
        gate.wait(2)
        return 42

    memo = AcquisitionMemo()
    results: list[int] = []
    threads = [threading.Thread(target=lambda: results.append(memo.get("chat", slow))) for _ in range(5)]
    for t in threads:
        t.start()
    time.sleep(0.05)
    gate.set()
    for t in threads:
        t.join(5)
    assert results == [42] * 5 and count == 1


def test_failed_fetch_is_not_remembered() -> None:
    attempts = iter([RuntimeError("api down"), "ok"])

    def flaky() -> str:
        value = next(attempts)
        if isinstance(value, Exception):
            raise value
        return value

    memo = AcquisitionMemo()
    with pytest.raises(RuntimeError):
        memo.get("mail", flaky)
    assert memo.get("mail", flaky) == "ok"


def test_acquire_all_runs_sources_in_parallel_and_emits_stages() -> None:
    sink = MemorySink()
    telemetry = Telemetry(sink)
    memo = AcquisitionMemo(telemetry)
    with telemetry.run() as run_id:
        got = memo.acquire_all({"mail": lambda: 1, "chat": lambda: 2, "meetings": lambda: 3})
    assert {e.run_id for e in sink.events} == {run_id}, "worker threads must report into the caller's run"
    assert got == {"mail": 1, "chat": 2, "meetings": 3}
    assert memo.acquire_all({"mail": lambda: 99}) == {"mail": 1}
    assert len(sink.of(STAGE_END)) == 3
    memo.forget("mail")
    assert memo.get("mail", lambda: 5) == 5
