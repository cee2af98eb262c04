import json
from pathlib import Path

import pytest

from relaykit.cli.app import main
from relaykit.models.cache import Cached
from relaykit.models.cache.sqlite import SQLiteStore
from relaykit.telemetry import LLM_CALL, JsonlSink, Telemetry
from relaykit.testing import ScriptedModel


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out, err


def fill(path: Path) -> int:
    store = SQLiteStore(path)
    model = ScriptedModel(lambda r: "ok")
    for ns in ("a", "b"):
        cached = Cached(model, store, namespace=ns)
        cached.complete("one")
        cached.complete("one")
        cached.complete("two")
    store.close()
    return cached.stats.saved_tokens


def test_cache_stats_json_and_clear(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.sqlite"
    saved = fill(path)
    code, out, _ = run_cli(capsys, "cache", "stats", "--cache", f"sqlite:{path}", "--json")
    data = json.loads(out)
    assert code == 0 and set(data) == {"entries", "hits", "misses", "saved_tokens", "namespaces"}
    assert (data["entries"], data["hits"], data["misses"]) == (4, 2, 4)
    assert data["namespaces"]["a"]["saved_tokens"] == saved and data["saved_tokens"] == 2 * saved
    code, out, _ = run_cli(capsys, "cache", "clear", "--cache", f"sqlite:{path}", "--namespace", "a")
    assert code == 0 and "cleared 2 entries" in out
    _, out, _ = run_cli(capsys, "cache", "stats", "--store", f"sqlite:{path}", "--json")
    assert json.loads(out)["entries"] == 2
    code, out, _ = run_cli(capsys, "cache", "stats", "--store", f"sqlite:{path}")
    assert code == 0 and "33.3%" in out  # namespace b: 1 hit, 2 misses


def test_corrupt_cache_is_one_red_line_then_rebuild(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.sqlite"
    path.write_bytes(b"garbage" * 1000)
    code, out, err = run_cli(capsys, "cache", "stats", "--store", f"sqlite:{path}")
    assert code == 2 and "corrupt" in err and str(path) in err and "Traceback" not in err + out
    code, out, _ = run_cli(capsys, "cache", "clear", "--store", f"sqlite:{path}", "--rebuild")
    assert code == 0 and "moved to" in out
    code, _, _ = run_cli(capsys, "cache", "stats", "--store", f"sqlite:{path}")
    assert code == 0


def test_bad_store_spec_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "cache", "stats", "--store", "mongo://x")
    assert code == 2 and "unknown cache store" in err


def test_trace_summarize(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.jsonl"
    sink = JsonlSink(path)
    telemetry = Telemetry(sink)
    with telemetry.run(), telemetry.stage("extract"):
        telemetry.emit(LLM_CALL, model="m1", input_tokens_est=10, output_tokens_est=2, prompt_tokens=11,
                       completion_tokens=3, latency_ms=12.5)
    sink.close()
    code, out, _ = run_cli(capsys, "trace", "summarize", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["models"]["m1"]["prompt_tokens"] == 11 and data["stages"]["extract"]["model_calls"] == 1
    code, out, _ = run_cli(capsys, "trace", "summarize", str(path))
    assert code == 0 and "extract" in out and "m1" in out
    code, _, err = run_cli(capsys, "trace", "summarize", str(tmp_path / "none.jsonl"))
    assert code == 2 and "no such trace file" in err
