"""The CLI a new user meets: --version, completion, an example in every help, runs/report that only read."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer

from relaykit import __version__
from relaykit.bench.store import RunStore
from relaykit.cli.app import app, main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out, err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"relaykit {__version__}"


def test_completion_script_and_real_completions(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # typer finds the user's shell from the process tree (shellingham); a test run without a parent shell
    # (CI, a background job) has none, so stand in for a bash parent
    monkeypatch.setattr(typer.completion, "_get_shell_name", lambda: "bash")
    code, out, _ = run(capsys, "--show-completion")
    assert code == 0 and "_relaykit_completion" in out and "complete " in out
    monkeypatch.setenv("_RELAYKIT_COMPLETE", "complete_bash")
    monkeypatch.setenv("COMP_WORDS", "relaykit be")
    monkeypatch.setenv("COMP_CWORD", "1")
    code, out, _ = run(capsys)
    assert code == 0 and "bench" in out.split()


def _commands(group: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    for name, command in group.commands.items():
        yield (*path, name)
        if hasattr(command, "commands"):  # a group (typer ships its own click)
            yield from _commands(command, (*path, name))


def test_every_command_help_has_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    root = typer.main.get_command(app)
    paths = [(), *_commands(root)]
    assert len(paths) > 20
    missing = []
    for path in paths:
        code, out, _ = run(capsys, *path, "--help")
        if code != 0 or "Example: relaykit" not in " ".join(out.split()):
            missing.append(" ".join(path) or "relaykit")
    assert not missing, f"no example in the help of: {', '.join(missing)}"


def test_read_only_commands_never_create_a_store(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RELAYKIT_HOME", str(tmp_path / "home"))
    missing = tmp_path / "nope" / "runs.sqlite"
    for args in (("runs", "--store", str(missing)), ("report", "relay-x", "--store", str(missing)),
                 ("runs", "delete", "relay-x", "--store", str(missing)), ("report", "relay-x")):
        code, out, err = run(capsys, *args)
        assert code == 2 and "no run" in err and "Traceback" not in err and err.count("\n") == 1, args
    code, out, _ = run(capsys, "runs", "--json")  # the default store does not exist yet: an empty list
    assert code == 0 and json.loads(out) == []
    assert list(tmp_path.iterdir()) == []  # nothing was created, not even a folder


def test_runs_dates_json_delete_and_report_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "runs.sqlite"
    store = RunStore(path)
    keep = store.create_run("delegation", {"suite": "toy", "arms": ["nl"]})
    store.record(keep, "toy/k0|nl", {"task": "toy/k0", "arm": "nl", "success": True, "formats": ["nl"],
                                     "router_tokens": 0, "handoff_tokens": 10, "total_tokens": 50, "steps": 1,
                                     "taxonomy": {"category": ""}})
    store.finish(keep)
    gone = store.create_run("delegation", {"suite": "toy", "arms": ["nl"]})
    code, out, _ = run(capsys, "runs", "--store", str(path), "--json")
    rows = json.loads(out)
    assert code == 0 and [r["run_id"] for r in rows] == [keep, gone]
    assert rows[0]["started"].endswith("Z") and rows[0]["results"] == 1 and rows[0]["status"] == "finished"
    assert rows[1]["finished"] is None
    code, out, _ = run(capsys, "runs", "--store", str(path))
    assert code == 0 and keep in out and "started (UTC)" in out
    code, _, err = run(capsys, "runs", "--store", str(path), "delete", gone)
    assert code == 0 and f"deleted run {gone}" in err
    assert [r.run_id for r in RunStore(path).list_runs()] == [keep]
    code, out, _ = run(capsys, "report", keep, "--store", str(path), "--json", "--html", str(tmp_path / "r.html"))
    data = json.loads(out)
    assert code == 0 and data["run_id"] == keep and data["kind"] == "delegation"
    assert data["summary"]["formats"]["nl"]["success_rate"] == 1.0 and (tmp_path / "r.html").is_file()
    code, _, err = run(capsys, "report", keep, "--store", str(path), "--html", str(tmp_path / "no" / "r.html"))
    assert code == 2 and "does not exist" in err


def test_tokens_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "t.txt"
    text.write_text("hello world", encoding="utf-8")
    code, out, _ = run(capsys, "tokens", str(text), "--json")
    assert code == 0 and json.loads(out) == {"file": str(text), "encoding": "o200k_base", "tokens": 2}


# commands that do something (write a file, delete) rather than print results
ACTIONS = {("cache", "clear"), ("context", "corpus"), ("bench", "relay", "export-world"),
           ("bench", "relay", "export-truth"), ("runs", "delete"), ("serve",)}


def test_every_command_that_prints_results_takes_json() -> None:
    root: Any = typer.main.get_command(app)
    missing = []
    for path in _commands(root):
        command = root
        for word in path:
            command = command.commands[word]
        is_group = hasattr(command, "commands")
        if path in ACTIONS or (is_group and not getattr(command, "invoke_without_command", False)):
            continue
        if "--json" not in {opt for p in command.params for opt in p.opts}:
            missing.append(" ".join(path))
    assert not missing, f"no --json on: {', '.join(missing)}"
