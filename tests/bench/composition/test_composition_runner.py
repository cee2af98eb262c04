from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from relaykit.bench.composition import CompositionConfig, Corpus, execute, start_run, summarize, write_corpus
from relaykit.bench.composition.report import html_report, print_report
from relaykit.bench.store import RunStore
from relaykit.errors import RateLimited, UsageError
from relaykit.testing import ScriptedModel


def _setup(tmp_path: Path, corpus: Corpus, blocks: int = 4, **extra: object) -> tuple[RunStore, CompositionConfig]:
    path = tmp_path / "corpus.jsonl"
    write_corpus(corpus.items, path)
    config = CompositionConfig(corpus=str(path), models=("calibrated",), blocks=blocks, **extra)  # type: ignore[arg-type]
    return RunStore(tmp_path / "runs.sqlite"), config


def test_full_run_finds_the_planted_calibration_effect(tmp_path: Path, corpus: Corpus,
                                                        calibrated_model: ScriptedModel) -> None:
    store, config = _setup(tmp_path, corpus)
    run_id = start_run(store, corpus, config)
    seen: list[tuple[int, int]] = []
    assert execute(store, run_id, corpus, config, {"calibrated": calibrated_model},
                   progress=lambda d, t: seen.append((d, t))) == 44
    assert seen[-1] == (44, 44) and calibrated_model.calls == 44
    summary = summarize(store, store.get_run(run_id))
    conds = summary["conditions"]
    assert summary["trials"] == 44 and summary["synthetic_corpus"] and store.get_run(run_id).status == "finished"
    assert conds["signal_50"]["relacc"] == 1.0 and conds["signal_100"]["relacc"] < 1.0
    assert all(c["parse_success"] == 1.0 for c in conds.values())
    contrasts = {c["name"]: c for c in summary["contrasts"]}
    assert contrasts["C1"]["mean"] > 0.05 and contrasts["C1"]["n"] == 4 and contrasts["C5"]["mean"] == 0.0
    assert summary["c1_matched_items"]["mean"] > 0
    assert summary["c1_by_model"]["calibrated"] == pytest.approx(contrasts["C1"]["mean"])
    assert summary["agreement"]["spearman_all_items"] > 0.5


def test_resume_runs_only_what_is_missing(tmp_path: Path, corpus: Corpus, make_responder: Any) -> None:
    store, config = _setup(tmp_path, corpus, blocks=2)
    run_id = start_run(store, corpus, config)
    answers = make_responder(corpus)
    flaky = ScriptedModel(lambda r: RateLimited("slow down") if len(flaky.requests) > 5 else answers(r))
    assert execute(store, run_id, corpus, config, {"calibrated": flaky}) == 5  # failures are logged, not fatal
    assert len(store.done_keys(run_id)) == 5 and store.get_run(run_id).status == "incomplete"
    assert len(store.events(run_id, "failure")) == 17
    steady = ScriptedModel(answers)
    assert execute(store, run_id, corpus, config, {"calibrated": steady}) == 17
    assert steady.calls == 17 and len(store.done_keys(run_id)) == 22


def test_unparseable_answers_score_zero(tmp_path: Path, corpus: Corpus) -> None:
    store, config = _setup(tmp_path, corpus, blocks=1, conditions=("signal_50",), max_repairs=1)
    run_id = start_run(store, corpus, config)
    execute(store, run_id, corpus, config, {"calibrated": ScriptedModel(default="I think they all matter.")})
    (result,) = store.results(run_id).values()
    assert not result["parsed"] and result["relacc"] == 0.0 and result["calls"] == 2
    assert store.events(run_id, "parse_failure")


def test_reports_render(tmp_path: Path, corpus: Corpus, calibrated_model: ScriptedModel,
                        capsys: pytest.CaptureFixture[str]) -> None:
    store, config = _setup(tmp_path, corpus, blocks=2)
    run_id = start_run(store, corpus, config)
    execute(store, run_id, corpus, config, {"calibrated": calibrated_model})
    run = store.get_run(run_id)
    print_report(store, run, Console(width=200, file=sys.stdout))
    out = capsys.readouterr().out
    assert "SYNTHETIC" in out and "C1" in out and "signal_100" in out
    page = html_report(store, run)
    assert page.startswith("<!doctype html>") and "data:image/png;base64," in page and "C5" in page


def test_config_checks() -> None:
    with pytest.raises(UsageError, match="at least one model"):
        CompositionConfig(corpus="c", models=())
    with pytest.raises(UsageError, match="blocks"):
        CompositionConfig(corpus="c", models=("m",), blocks=0)
    with pytest.raises(UsageError, match="unknown condition"):
        CompositionConfig(corpus="c", models=("m",), conditions=("signal_60",))
