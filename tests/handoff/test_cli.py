import io
import json
import subprocess
import sys

import pytest
from test_evidence import CONTRACT_TRACE, GOAL

from relaykit.accounting import ACCOUNTING_KEYS
from relaykit.cli.app import main
from relaykit.cli.compress_handoff import parse_setting

KEYS = {"method", "payload", "accounting", "tokens_in", "tokens_out", "ratio", "evidence_recall", "lost_facts",
        "invented_facts"}


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = 0
    try:
        main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def trace_file(tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "trace.txt"
    path.write_text(CONTRACT_TRACE)
    return path


def test_text_output_prints_payload_and_one_accounting_line(trace_file, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli(capsys, "compress", "handoff", str(trace_file), "--goal", GOAL, "--method", "truncate",
                             "--setting", "budget=60")
    assert code == 0 and out.startswith("Goal G07")
    assert "truncate:" in err and "ratio" in err and "→" in err and len(err.strip().splitlines()) == 1


def test_json_output_has_exactly_the_issue_keys(trace_file, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    facts = tmp_path / "facts.json"
    facts.write_text(json.dumps([{"id": "H01", "attribute": "price", "value": "$145"},
                                 {"id": "H09", "attribute": "price", "value": "99 USD"}]))
    code, out, _ = run_cli(capsys, "compress", "handoff", str(trace_file), "--goal", GOAL, "--method",
                           "extract-rules", "--facts", str(facts), "--json")
    data = json.loads(out)
    assert code == 0 and set(data) == KEYS and data["method"] == "extract-rules"
    assert set(data["accounting"]) == set(ACCOUNTING_KEYS) and data["accounting"]["ratio"] == round(data["ratio"], 4)
    assert isinstance(data["payload"], str) and data["evidence_recall"] == 0.5 and data["invented_facts"] == []
    assert data["lost_facts"] == [{"id": "H09", "attribute": "price", "value": "99 USD"}]
    code, out, _ = run_cli(capsys, "compress", "handoff", str(trace_file), "--goal", GOAL, "--method", "prune",
                           "--embedder", "hashing", "--json")
    data = json.loads(out)
    assert data["evidence_recall"] is None and data["lost_facts"] == [] and 0 < data["ratio"] <= 1


def test_stdin_is_read_for_dash() -> None:
    cmd = [sys.executable, "-m", "relaykit.cli.app", "compress", "handoff", "-", "--goal", "g",
           "--method", "passthrough", "--json"]
    ok = subprocess.run(cmd, input=b"H01 passes.", capture_output=True, check=False)
    assert ok.returncode == 0 and json.loads(ok.stdout)["payload"] == "H01 passes."


@pytest.mark.parametrize(("data", "message"), [(b"ab\xfe", "offset 2"), (b"  ", "trace is empty")])
def test_bad_stdin_is_one_red_line(data: bytes, message: str, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, _, err = run_cli(capsys, "compress", "handoff", "-", "--goal", "g", "--method", "passthrough")
    assert code == 2 and message in err and "Traceback" not in err


def test_bad_settings_and_methods(trace_file, capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run_cli(capsys, "compress", "handoff", str(trace_file), "--goal", GOAL, "--setting", "oops")
    assert code == 2 and "key=value" in err
    code, _, err = run_cli(capsys, "compress", "handoff", str(trace_file), "--goal", GOAL, "--method", "zip")
    assert code == 2 and "unknown hand-off method" in err and "Traceback" not in err
    assert parse_setting("threshold=0.4") == ("threshold", 0.4)
    assert parse_setting("id-pattern=V\\d+") == ("id_pattern", "V\\d+")
    assert parse_setting("budget=null") == ("budget", None)


def test_json_format_and_the_larger_than_trace_warning(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    terse = tmp_path / "terse.txt"
    terse.write_text("H1 100 USD ok\nH2 900 USD no-go\n")
    code, out, err = run_cli(capsys, "compress", "handoff", str(terse), "--goal", "Find a hotel under 200 USD.",
                             "--method", "extract-rules", "--format", "json")
    assert code == 0 and json.loads(out)["options"][1] == {"id": "H2", "evidence": "900 USD", "sentences": [1],
                                                           "verdict": "eliminated"}
    assert "larger than the trace" in err
