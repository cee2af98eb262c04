import json
from pathlib import Path
from typing import Any

import pytest

from relaykit.bench.delegation import LabConfig, run_lab, summarize
from relaykit.bench.reports import report_for
from relaykit.bench.store import RunStore
from relaykit.cli.app import main
from relaykit.errors import UsageError
from relaykit.testing import ScriptedModel


def config(**overrides: object) -> LabConfig:
    base = {"suite": "toy", "planner": "scripted", "executor": "scripted", "formats": ["all"], "limit": 6}
    return LabConfig.build(**{**base, **overrides})  # type: ignore[arg-type]


def test_formats_expand() -> None:
    assert config(formats=["oracle"]).arms == ("nl", "graph")
    assert config(formats=["routed,nl", "graph"]).arms == ("routed", "nl", "graph")
    with pytest.raises(UsageError, match="unknown format"):
        config(formats=["yaml"])


def test_every_arm_runs_and_is_scored(tmp_path: Path, toy_model: ScriptedModel) -> None:
    store = RunStore(tmp_path / "runs.sqlite")
    run_id = run_lab(config(), store, planner=toy_model, executor=toy_model)
    results = store.results(run_id)
    assert len(results) == 6 * 4
    graph = results["toy/k1|graph"]
    assert graph["success"] and graph["executed_by"] == ["direct"] and graph["prefill_tokens"] > 0
    nl = results["toy/k1|nl"]
    assert not nl["success"] and nl["taxonomy"]["retry_loop"] and nl["taxonomy"]["missing_prerequisite"]
    assert results["toy/k2|nl"]["success"] and results["toy/k2|nl"]["prefill_tokens"] == 0
    assert results["toy/k5|routed"]["formats"] == ["nl"] and results["toy/k0|routed"]["formats"] == ["graph"]
    assert results["toy/k0|routed"]["router_tokens"] > 0


def test_summary_statistics(tmp_path: Path, toy_model: ScriptedModel) -> None:
    store = RunStore(tmp_path / "runs.sqlite")
    run_id = run_lab(config(), store, planner=toy_model, executor=toy_model)
    summary = summarize(store, run_id)
    results = store.results(run_id)
    formats = summary["formats"]
    assert formats["graph"]["success_rate"] == 1.0 and formats["nl"]["success_rate"] == 0.5
    assert formats["routed"]["success_rate"] == pytest.approx(5 / 6)  # k5 routed to NL fails
    graph_vs_nl = next(c for c in summary["comparisons"] if c["arm"] == "graph")
    assert graph_vs_nl["diff"] == 0.5 and (graph_vs_nl["wins"], graph_vs_nl["losses"]) == (3, 0)
    assert graph_vs_nl["p"] == 0.25 and graph_vs_nl["p_holm"] >= graph_vs_nl["p"]
    assert graph_vs_nl["ci"][0] > 0
    assert summary["compression"]["nl"] == {"handoff": 1.0, "end_to_end": 1.0}
    nl_total = sum(results[f"toy/k{i}|nl"]["total_tokens"] for i in range(6))
    graph_total = sum(results[f"toy/k{i}|graph"]["total_tokens"] for i in range(6))
    assert summary["compression"]["graph"]["end_to_end"] == pytest.approx(nl_total / graph_total)
    assert summary["compression"]["graph"]["handoff"] > 1.0 > summary["compression"]["graph"]["end_to_end"]  # prefill
    assert summary["routing"]["graph_rate"] == pytest.approx(4 / 6)
    assert summary["oracle"]["success_rate"] == 1.0
    assert summary["oracle"]["headroom_over_routed"] == pytest.approx(1 / 6)
    assert summary["taxonomy"]["nl"]["failures"] == 3 and summary["taxonomy"]["nl"]["misalignment"] == 3


def test_resume_skips_finished_units(tmp_path: Path, toy_model: ScriptedModel) -> None:
    store = RunStore(tmp_path / "runs.sqlite")
    run_id = run_lab(config(limit=2, formats=["graph"]), store, planner=toy_model, executor=toy_model)
    calls = toy_model.calls
    again = run_lab(config(), store, resume=run_id, planner=toy_model, executor=toy_model)
    assert again == run_id and toy_model.calls == calls
    with pytest.raises(UsageError):
        run_lab(config(), store, resume="delegation-nope", planner=toy_model)


def test_invalid_planner_output_is_recorded_and_the_lab_goes_on(tmp_path: Path, toy_factory: Any) -> None:
    model = toy_factory(broken_graph_keys=("k0",))
    store = RunStore(tmp_path / "runs.sqlite")
    results = store.results(run_lab(config(limit=2, formats=["graph"]), store, planner=model, executor=model))
    failed = results["toy/k0|graph"]
    assert not failed["success"] and failed["planner_failed"] and "teleport" in failed["errors"][0]
    assert results["toy/k1|graph"]["success"]


def test_report_terminal_and_html(tmp_path: Path, toy_model: ScriptedModel, capsys: pytest.CaptureFixture[str]
                                  ) -> None:
    store_path = tmp_path / "runs.sqlite"
    store = RunStore(store_path)
    run_id = run_lab(config(limit=4), store, planner=toy_model, executor=toy_model)
    assert report_for(store.get_run(run_id)).kind == "delegation"
    html = tmp_path / "r.html"
    with pytest.raises(SystemExit) as info:
        main(["report", run_id, "--store", str(store_path), "--html", str(html)])
    out = capsys.readouterr().out
    assert info.value.code in (0, None) and "paired against NL" in out and "failure taxonomy" in out
    assert "data:image/png;base64" in html.read_text()


def test_cli_runs_the_lab_and_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With a bare scripted model every call fails: the lab records each failure and still reports."""
    store = str(tmp_path / "runs.sqlite")
    with pytest.raises(SystemExit) as info:
        main(["bench", "delegation", "--suite", "toy", "--planner", "scripted", "--executor", "scripted",
              "--format", "oracle,routed", "--limit", "2", "--store", store, "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert info.value.code in (0, None)
    assert set(summary) == {"run_id", "suite", "planner", "executor", "tasks", "formats", "comparisons",
                            "compression", "routing", "oracle", "taxonomy"}
    assert summary["tasks"] == 2 and summary["formats"]["graph"]["planner_failures"] == 2
    assert summary["routing"]["nl"] == 2  # the router failed, so routed fell back to NL


def test_compression_leaves_out_failed_plans(tmp_path: Path, toy_factory: Any) -> None:
    model = toy_factory(broken_graph_keys=("k0",))
    store = RunStore(tmp_path / "runs.sqlite")
    run_id = run_lab(config(limit=2, formats=["oracle"]), store, planner=model, executor=model)
    results = store.results(run_id)
    expected = results["toy/k1|nl"]["handoff_tokens"] / results["toy/k1|graph"]["handoff_tokens"]
    assert summarize(store, run_id)["compression"]["graph"]["handoff"] == pytest.approx(expected)
