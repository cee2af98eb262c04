"""The one lab runner: validation before a run exists, resume and its kind check, locks, budgets, failures,
progress on stderr, the store's permissions and what it never stores."""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from relaykit.bench.lab import (
    LabFailed,
    LabModels,
    RunContext,
    Runner,
    RunOptions,
    StderrProgress,
    Unit,
    open_run,
)
from relaykit.bench.store import RunBusy, RunInfo, RunStore, strip_credentials
from relaykit.cli._common import multi
from relaykit.errors import ModelTimeout, UsageError
from relaykit.testing import ScriptedModel


class ToyLab:
    """Squares numbers; units with ``model`` ask a model (scripted) for nothing but its reply."""

    kind = "toy"

    def __init__(self, config: Mapping[str, Any]) -> None:
        if int(config["n"]) < 1:
            raise UsageError("n must be at least 1")
        self.config = dict(config)
        self.ran: list[str] = []

    def stored_config(self) -> dict[str, Any]:
        return self.config

    def model_specs(self) -> Sequence[str]:
        return ["scripted"] if self.config.get("model") else []

    def units(self) -> list[Unit]:
        return [Unit(f"sq/{i}", group=f"g{i // 2}", uses_model=bool(self.config.get("model")), tags={"i": str(i)})
                for i in range(int(self.config["n"]))]

    def run_unit(self, unit: Unit, ctx: RunContext) -> dict[str, Any]:
        self.ran.append(unit.key)
        if self.config.get("model"):
            ctx.models.get("scripted").complete([{"role": "user", "content": unit.key}])  # type: ignore[attr-defined]
        i = int(unit.key.split("/")[1])
        return {"square": i * i}

    def summarize(self, store: RunStore, run: RunInfo) -> int:
        return sum(v["square"] for v in store.results(run.run_id).values())


def _open(store: RunStore, config: Mapping[str, Any] | None, resume: str | None = None,
          models: LabModels | None = None) -> tuple[ToyLab, str]:
    return open_run(store, "toy", lambda stored: ToyLab(stored or config or {}), resume, models)


def test_a_bad_option_registers_no_run(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "runs.sqlite")
    with pytest.raises(UsageError, match="at least 1"):
        _open(store, {"n": 0})
    with pytest.raises(UsageError, match="concurrency"):
        RunOptions(concurrency=0)
    with pytest.raises(UsageError, match="model-budget"):
        RunOptions(model_budget_s=-5)
    with pytest.raises(UsageError, match="unknown model backend"):
        _open(store, {"n": 2, "model": True}, models=_bad_models())
    assert store.list_runs() == []


def _bad_models() -> LabModels:
    class Bad(LabModels):
        def get(self, spec: str) -> Any:
            from relaykit.models import open_model

            return open_model("nonsense:" + spec)

    return Bad()


def test_run_resume_skips_done_and_checks_the_kind(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "runs.sqlite")
    lab, run_id = _open(store, {"n": 5})
    outcome = Runner(store).run(lab, run_id)
    assert outcome.ran == 5 and outcome.status == "finished" and lab.summarize(store, store.get_run(run_id)) == 30
    again, same = _open(store, None, resume=run_id)
    assert Runner(store).run(again, same).ran == 0 and again.ran == []
    other = store.create_run("relay", {})
    with pytest.raises(UsageError, match="not a 'toy' run"):
        _open(store, None, resume=other)


def test_two_processes_cannot_run_one_run(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite"
    first = RunStore(path)
    _, run_id = _open(first, {"n": 2})  # the creating process holds the lock until the run finishes
    code = ("import sys; from relaykit.bench.store import RunStore\n"
            f"try:\n    RunStore({str(path)!r}).acquire({run_id!r})\nexcept Exception as e:\n"
            "    print(type(e).__name__, e); sys.exit(3)\n")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    busy = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert busy.returncode == 3 and "RunBusy" in busy.stdout and str(os.getpid()) in busy.stdout
    first.finish(run_id)  # releases the lock
    assert subprocess.run([sys.executable, "-c", code], env=env).returncode == 0
    # a fresh lock from a process on another host is respected; a stale one is taken over
    import sqlite3

    RunStore(path).acquire(run_id)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE locks SET host = 'elsewhere', heartbeat = strftime('%s','now') WHERE run_id = ?", (run_id,))
    with pytest.raises(RunBusy):
        RunStore(path).acquire(run_id)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE locks SET heartbeat = 0 WHERE run_id = ?", (run_id,))
    RunStore(path).acquire(run_id)


def test_model_budget_and_failures(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "runs.sqlite")
    lab, run_id = _open(store, {"n": 6, "model": True}, models=LabModels(given={"*": ScriptedModel(["ok"] * 99)}))
    outcome = Runner(store, LabModels(given={"*": ScriptedModel(["ok"] * 99)})).run(
        lab, run_id, RunOptions(model_budget_s=1e-9))
    assert outcome.ran == 2 and outcome.skipped == 4 and outcome.status == "incomplete"  # the first group runs
    skipped = store.events(run_id, "skipped")[0]["payload"]
    assert skipped["units"] == 4 and sum(skipped["by"].values()) == 4


def _unreachable(request: Any) -> Any:
    raise ModelTimeout("connection refused by http://user:pw@127.0.0.1:9")


def test_every_model_unit_failing_ends_with_a_summary(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "runs.sqlite")
    models = LabModels(given={"*": ScriptedModel(_unreachable)})
    lab, run_id = _open(store, {"n": 3, "model": True}, models=models)
    with pytest.raises(LabFailed, match=r"3 failure\(s\): 3 x ModelTimeout.*--resume"):
        Runner(store, models).run(lab, run_id)
    assert store.get_run(run_id).status == "incomplete" and len(store.events(run_id, "failure")) == 3
    assert "pw@" not in str(store.events(run_id)) and "http://127.0.0.1:9" in str(store.events(run_id))


def test_plain_progress_lines_when_not_a_terminal() -> None:
    stream = io.StringIO()
    progress = StderrProgress("toy", stream=stream)
    progress.start(100, 0)
    for _ in range(100):
        progress.advance()
    progress.close()
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("toy: 0/100") and lines[-1].startswith("toy: 100/100 units (100%)")
    assert 10 <= len(lines) <= 12  # every 10 %


def test_store_is_private_and_keeps_no_credentials(tmp_path: Path) -> None:
    home = tmp_path / "home"
    store = RunStore(home / "runs.sqlite")
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    assert stat.S_IMODE((home / "runs.sqlite").stat().st_mode) == 0o600
    run_id = store.create_run("toy", {"model": "openai-compat:https://bob:s3cret@llm.example/v1?api_key=k#m",
                                      "models": ["http://u:p@h:1/v1", "local"]})
    stored = store.get_run(run_id).config
    assert "s3cret" not in str(stored) and "u:p@" not in str(stored) and "api_key=k" not in str(stored)
    assert stored["model"].startswith("openai-compat:https://llm.example/v1") and stored["models"][1] == "local"
    assert strip_credentials("redis://localhost:6379/0") == "redis://localhost:6379/0"


def test_delete_run(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "runs.sqlite")
    lab, run_id = _open(store, {"n": 2})
    Runner(store).run(lab, run_id)
    store.delete_run(run_id)
    assert store.list_runs() == [] and store.results(run_id) == {}


def test_multi_value_flags_one_convention() -> None:
    assert multi(["a,b", "c"], "--model") == ("a", "b", "c")
    assert multi("a, b", "--methods") == ("a", "b")
    assert multi(None, "--methods") is None and multi([], "--methods") is None
    with pytest.raises(UsageError, match="names nothing"):
        multi([""], "--methods")
