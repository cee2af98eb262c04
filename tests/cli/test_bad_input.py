"""Issue 14, bad input: the messages say what to fix, and read-only commands leave files as they were."""

from __future__ import annotations

from pathlib import Path

import pytest

from relaykit.cli.app import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    with pytest.raises(SystemExit) as info:
        main(list(argv))
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) <= 1
    return int(info.value.code or 0), " ".join(err.split())


def test_read_only_commands_never_turn_a_text_file_into_a_store(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RELAYKIT_HOME", str(tmp_path / "home"))
    text = tmp_path / "empty.txt"
    text.write_text("")
    assert run(capsys, "report", "X", "--store", str(text))[0] == 2
    assert run(capsys, "cache", "stats", "--store", f"sqlite:{text}")[0] == 2
    assert text.read_bytes() == b""
    code, err = run(capsys, "runs", "--store", str(tmp_path / "typo" / "runs.sqlite"))
    assert code == 2 and "never creates" in err
    assert run(capsys, "runs")[0] == 0 and run(capsys, "cache", "stats")[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.txt"]


def test_misplaced_and_ignored_size_options_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    world = tmp_path / "w.json"
    code, err = run(capsys, "bench", "relay", "--goals", "5", "export-world", str(world))
    assert code == 2 and "put them after it" in err and not world.exists()
    assert run(capsys, "bench", "relay", "export-world", str(world), "--goals", "5")[0] == 0
    code, err = run(capsys, "bench", "relay", "--world", str(world), "--goals", "5")
    assert code == 2 and "--goals size a generated world" in err


def test_settings_are_checked_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "t.txt"
    trace.write_text("Hotel H1: price 5 USD.")
    for setting, words in (("threshold=high", "must be a number"), ("ratio=abc", "must be a number"),
                           ("ratio=0", "between 0 and 1"), ("budget=2.5", "whole number")):
        method = "prune" if setting.startswith("threshold") else "truncate"
        code, err = run(capsys, "compress", "handoff", str(trace), "--goal", "g", "--method", method,
                        "--setting", setting)
        assert code == 2 and words in err, (setting, err)
    trace.write_text("Hotel H1: price 5 USD. Hotel H2: price 9 USD, 2 km out. Hotel H3: no rooms left on Friday.")
    code, err = run(capsys, "compress", "handoff", str(trace), "--goal", "g", "--method", "truncate",
                    "--setting", "ratio=0.5")
    assert code == 0 and "warning" not in err  # (half of a one-sentence trace keeps nothing, which warns)


def test_deeply_nested_json_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    for argv in (("delegation", "validate", str(deep)), ("compress", "trajectory", str(deep))):
        code, err = run(capsys, *argv)
        assert code == 2 and "nested too deeply" in err


def test_outputs_are_checked_before_the_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(capsys, "context", "corpus", "--out", str(tmp_path / "no" / "c.jsonl"))
    assert code == 2 and "does not exist" in err
    code, err = run(capsys, "context", "corpus", "--out", str(tmp_path / "c.jsonl"), "--emails", "100000000")
    assert code == 2 and "100,000" in err and not (tmp_path / "c.jsonl").exists()
    code, err = run(capsys, "trajectory", "train", "--test-share", "2")
    assert code == 2 and "--test-share" in err
