import json

import pytest

from relaykit.accounting import ACCOUNTING_KEYS
from relaykit.cli.app import main


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out, err


def tool_messages(n: int) -> list[dict]:
    msgs = [{"role": "system", "content": "Agent."}, {"role": "user", "content": "Find the key."}]
    for i in range(n):
        msgs += [{"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{i}", "type": "function", "function": {"name": "look", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": f"c{i}", "content": f"room {i}: a chair, a lamp, a rug"}]
    return msgs


def test_compress_trajectory_json_has_exactly_the_issue_keys(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "t.json"
    f.write_text(json.dumps(tool_messages(8)))
    code, out, _ = run_cli(capsys, "compress", "trajectory", str(f), "--method", "floor", "--json")
    data = json.loads(out)
    assert code == 0 and set(data) == {"messages", "accounting", "valid", "violations", "floor_steps", "scores",
                                       "references"}
    acc = data["accounting"]
    assert set(acc) == set(ACCOUNTING_KEYS) and acc["kept"] == [5, 6] and data["valid"] and data["violations"] == []
    assert acc["tokens_out"] < acc["tokens_in"] and acc["method"] == "floor"
    assert acc["ratio"] == round(acc["tokens_out"] / acc["tokens_in"], 4)


def test_plain_output_is_pure_json_on_stdout_and_the_summary_goes_to_stderr(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "t.json"
    f.write_text(json.dumps(tool_messages(8)))
    code, out, err = run_cli(capsys, "compress", "trajectory", str(f), "--budget", "50%")
    assert code == 0 and isinstance(json.loads(out), list) and "ratio 0." in err and "budget" in err


def test_budget_too_small_exits_2_with_the_minimum(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "t.json"
    f.write_text(json.dumps(tool_messages(8)))
    code, _, err = run_cli(capsys, "compress", "trajectory", str(f), "--budget", "20")
    assert code == 2 and "at least" in err and "Traceback" not in err
    minimum = int(err.split("at least ")[1].split()[0])
    code, out, _ = run_cli(capsys, "compress", "trajectory", str(f), "--budget", str(minimum), "--json")
    assert code == 0 and json.loads(out)["accounting"]["tokens_out"] <= minimum
    code, _, err = run_cli(capsys, "compress", "trajectory", str(f), "--budget", "lots")
    assert code == 2 and "30%" in err


def test_reference_mode_and_recall_command(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "t.json"
    msgs = tool_messages(8)
    for m in msgs[3::2]:
        m["content"] = (m["content"] + ", and a long description of everything else in the room. ") * 3
    f.write_text(json.dumps(msgs))
    db = str(tmp_path / "refs.sqlite")
    code, out, _ = run_cli(capsys, "compress", "trajectory", str(f), "--keep", "0", "--dropped", "reference",
                           "--store", db, "--json")
    data = json.loads(out)
    handle, index = next(iter(data["references"].items()))
    assert code == 0 and any(handle in str(m.get("content")) for m in data["messages"])
    assert (tmp_path / "refs.sqlite").stat().st_mode & 0o777 == 0o600
    code, out, _ = run_cli(capsys, "trajectory", "recall", handle, "--store", db)
    assert code == 0 and out == msgs[3 + 2 * index]["content"] + "\n"
    code, _, err = run_cli(capsys, "trajectory", "recall", "step-nope", "--store", db)
    assert code == 2 and "no step is stored" in err


def test_compress_react_transcript(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "t.txt"
    obs = "is a long observation, a room with many things in it"
    f.write_text("Task: x\n" + "".join(f"Thought: t{i}\nAction: a{i}\nObservation: o{i} {obs}\n" for i in range(6)))
    code, out, _ = run_cli(capsys, "compress", "trajectory", str(f), "--keep", "0", "--dropped", "placeholder")
    assert code == 0 and "Action: a0" in out and "Observation: o0" not in out and "Observation: o5" in out


def test_invalid_input_is_one_red_line_with_exit_2(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "bad.json"
    msgs = tool_messages(2)
    del msgs[3]  # the first tool result
    f.write_text(json.dumps(msgs))
    code, _, err = run_cli(capsys, "compress", "trajectory", str(f))
    assert code == 2 and "already invalid" in err and "Traceback" not in err
    f.write_text("[]")
    code, _, err = run_cli(capsys, "compress", "trajectory", str(f))
    assert code == 2 and "empty" in err
    code, _, err = run_cli(capsys, "bench", "trajectory", "--env", "twx", "--methods", "magic")
    assert code == 2 and "unknown method" in err


def test_bench_trajectory_runs_and_reports(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[1] / "bench" / "trajectory"))
    from lab_fakes import FakeEnv

    from relaykit.bench.trajectory import register_env

    register_env("fake", FakeEnv)
    store = str(tmp_path / "runs.sqlite")
    code, out, _ = run_cli(capsys, "bench", "trajectory", "--env", "fake", "--episodes", "2", "--methods",
                           "none,agora,floor", "--store", store)
    assert code == 0 and "grounding recall" in out and "agora" in out
    run_id = out.split("run id: ")[1].split()[0]
    import subprocess

    proc = subprocess.run([sys.executable, "-m", "relaykit.cli.app", "report", run_id, "--store", store],
                          capture_output=True, text=True, check=False)  # a fresh process: the report registers
    assert proc.returncode == 0 and "floor" in proc.stdout
