import json
import subprocess
import sys

import pytest

from relaykit.cli.app import main


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out, err


def test_tokens_counts_a_file(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "t.txt"
    f.write_text("hello world")
    code, out, _ = run_cli(capsys, "tokens", str(f))
    assert code == 0 and out.strip() == "2"


def test_tokens_reads_stdin() -> None:
    proc = subprocess.run([sys.executable, "-m", "relaykit.cli.app", "tokens", "-"], input=b"hello world",
                          capture_output=True, check=False)
    assert proc.returncode == 0 and proc.stdout.strip() == b"2"


def test_not_utf8_names_the_offset(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "bad.txt"
    f.write_bytes(b"abc\xff")
    code, _, err = run_cli(capsys, "tokens", str(f))
    assert code == 2 and "offset 3" in err and "Traceback" not in err


def test_missing_file_is_one_line_exit_2(capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run_cli(capsys, "tokens", "/no/such/file")
    assert code == 2 and "no such file" in err and len(err.strip().splitlines()) == 1


def test_doctor_json_reports_each_component(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    from relaykit.cli import doctor

    monkeypatch.setattr(doctor, "CHECKS", [("token counter", doctor._check_tokens),
                                           ("broken", lambda: (_ for _ in ()).throw(RuntimeError("fix me")))])
    code, out, _ = run_cli(capsys, "doctor", "--json")
    report = json.loads(out)
    assert code == 1 and report["ok"] is False
    assert [c["name"] for c in report["components"]] == ["token counter", "broken"]
    assert report["components"][0]["ok"] and "fix me" in report["components"][1]["detail"]
    assert set(report["components"][0]) == {"name", "ok", "detail", "seconds"}


def test_print_json_writes_undefined_figures_as_null(capsys) -> None:  # type: ignore[no-untyped-def]
    from relaykit.cli._common import print_json

    print_json({"rate": float("nan"), "ci": [float("inf"), 0.5], "n": 1})
    assert json.loads(capsys.readouterr().out) == {"rate": None, "ci": [None, 0.5], "n": 1}


def test_a_folder_given_as_input_is_named_as_a_folder(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run_cli(capsys, "tokens", str(tmp_path))
    assert code == 2 and "is a folder" in err and "no such file" not in err
    assert len(err.strip().splitlines()) == 1
