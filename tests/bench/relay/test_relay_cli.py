import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from relaykit.bench.relay.runner import RelayConfig, open_lab, run_relay
from relaykit.bench.relay.summary import summarize
from relaykit.bench.store import RunStore
from relaykit.cli.app import main

FAST = "passthrough,extract-rules,truncate"


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out, " ".join(err.split())  # rich wraps long error lines


def test_export_world_then_run_on_it_as_json(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    world = tmp_path / "w.json"
    code, _, _ = run_cli(capsys, "bench", "relay", "export-world", str(world), "--goals", "4")
    assert code == 0 and json.loads(world.read_text())["format"] == "relaykit.relay-world"
    code, out, _ = run_cli(capsys, "bench", "relay", "--world", str(world), "--methods", FAST, "--embedder",
                           "hashing", "--store", str(tmp_path / "s.sqlite"), "--json")
    result = json.loads(out)
    assert code == 0 and set(result) == {"run_id", "full_n", "methods", "mcnemar"}
    assert set(result["methods"]) == set(FAST.split(",")) and result["methods"]["passthrough"]["ratio"] == 1.0
    code, out, _ = run_cli(capsys, "report", result["run_id"], "--store", str(tmp_path / "s.sqlite"), "--html",
                           str(tmp_path / "r.html"))
    page = (tmp_path / "r.html").read_text()
    assert code == 0 and "Table I" in out and "McNemar" in out
    assert "data:image/png;base64," in page and "Table III" in page and "<script" not in page


def test_export_truth(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out_file = tmp_path / "t.json"
    code, _, _ = run_cli(capsys, "bench", "relay", "export-truth", str(out_file), "--goals", "6", "--seed", "2")
    truth = json.loads(out_file.read_text())
    assert code == 0 and len(truth["goals"]) == 6 and {"feasible", "optimal"} <= set(truth["goals"][0])


def test_bad_world_file_lists_problems_in_one_line(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    world = tmp_path / "w.json"
    run_cli(capsys, "bench", "relay", "export-world", str(world), "--goals", "2")
    data = json.loads(world.read_text())
    data["hotels"][0]["stars"] = 9
    data["goals"][1]["window"] = "dawn"
    world.write_text(json.dumps(data))
    code, _, err = run_cli(capsys, "bench", "relay", "--world", str(world), "--store", str(tmp_path / "s.sqlite"))
    assert code == 2 and "$.hotels[0].stars" in err and "$.goals[1].window" in err and "Traceback" not in err


def test_bad_method_and_unknown_run_exit_2(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    store = str(tmp_path / "s.sqlite")
    code, _, err = run_cli(capsys, "bench", "relay", "--methods", "zip", "--store", store)
    assert code == 2 and "registered:" in err and "prune" in err
    code, _, err = run_cli(capsys, "bench", "relay", "--resume", "relay-missing", "--store", store)
    assert code == 2 and "no run store" in err and not Path(store).exists()  # a mistake creates nothing
    RunStore(store).close()
    code, _, err = run_cli(capsys, "bench", "relay", "--resume", "relay-missing", "--store", store)
    assert code == 2 and "known runs" in err


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "relaykit.cli.app", "bench", "relay", *args]


def _env() -> dict[str, str]:
    src = str(Path(__file__).resolve().parents[3] / "src")
    return {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _scores(store: Path) -> int:
    if not store.exists():
        return 0
    try:
        with sqlite3.connect(store) as db:
            return int(db.execute("SELECT count(*) FROM results WHERE key LIKE 'score/%'").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def test_sigkill_then_resume_gives_the_same_table(tmp_path) -> None:  # type: ignore[no-untyped-def]
    methods, goals = ("passthrough", "truncate"), 40
    args = ["--methods", ",".join(methods), "--embedder", "hashing", "--goals", str(goals), "--seed", "5"]
    killed_store = tmp_path / "killed.sqlite"
    proc = subprocess.Popen(_cli(*args, "--store", str(killed_store)), env=_env(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while _scores(killed_store) < 10 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    partial = _scores(killed_store)
    assert 10 <= partial < goals * 2, "the run must be killed part-way"
    with sqlite3.connect(killed_store) as db:
        run_id, status = db.execute("SELECT run_id, status FROM runs").fetchone()
    assert status == "running"
    resumed = subprocess.run(_cli("--resume", run_id, "--store", str(killed_store), "--json"), env=_env(),
                             capture_output=True, text=True, check=True)
    # The uninterrupted run with the same settings, in process (the same code the CLI runs).
    store = RunStore(tmp_path / "straight.sqlite")
    lab, straight_id = open_lab(store, RelayConfig(methods=methods, embedder="hashing", goals=goals, seed=5))
    run_relay(store, lab, straight_id)
    a, b = json.loads(resumed.stdout), summarize(store, store.get_run(straight_id)).as_json()
    assert a.pop("run_id") == run_id and b.pop("run_id") == straight_id
    assert a == json.loads(json.dumps(b))
    assert _scores(killed_store) == goals * 2


@pytest.mark.parametrize("bad", [["--methods", "truncate:head=abc"], ["--methods", ""], ["--model-budget", "-5"],
                                 ["--model-goals", "-5"], ["--booker", ""], ["--concurrency", "0"],
                                 ["--booker", "model", "--cache", "bogus:x"]])
def test_a_usage_error_registers_no_run(tmp_path, capsys, bad) -> None:  # type: ignore[no-untyped-def]
    store = tmp_path / "s.sqlite"
    code, out, err = run_cli(capsys, "bench", "relay", "--goals", "2", "--embedder", "hashing", *bad,
                             "--store", str(store))
    assert code == 2 and err.startswith("error:") and "Traceback" not in err and out == ""
    assert RunStore(store).list_runs() == []


def test_unreachable_model_ends_non_zero_with_a_summary(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    store = tmp_path / "s.sqlite"
    code, out, err = run_cli(capsys, "bench", "relay", "--goals", "2", "--embedder", "hashing", "--methods",
                             "passthrough", "--researcher", "model", "--model",
                             "openai-compat:http://u:secret@127.0.0.1:9/v1#m", "--store", str(store))
    assert code == 1 and "every model-dependent unit failed (2 failure(s)" in err and "--resume" in err
    assert "secret" not in err and out == ""
    (run,) = RunStore(store).list_runs()
    assert run.status == "incomplete" and "secret" not in str(run.config)


def test_tables_explain_themselves_and_end_with_the_report_command(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run_cli(capsys, "bench", "relay", "--goals", "4", "--embedder", "hashing", "--methods",
                           "passthrough,extract-rules,truncate", "--store", str(tmp_path / "s.sqlite"))
    lines = out.strip().splitlines()
    assert code == 0 and lines[0].startswith("Share of goals") and "higher is better" in out
    assert "Table I: overall performance over 4 goals" in out
    run_id = lines[-2].split()[-1]
    assert lines[-1] == f"HTML report: relaykit report {run_id} --html {run_id}.html"
    assert "agreed on every goal (p = 1) not shown" in out  # passthrough vs extract-rules never disagree
