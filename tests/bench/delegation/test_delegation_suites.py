"""The real suites (marked envs): gold actions reach the gold state, an empty run does not, and the lab runs."""

from __future__ import annotations

import ast
import inspect
import json
from pathlib import Path
from typing import Any

import pytest

from relaykit.bench.delegation import LabConfig, open_suite, run_lab, summarize
from relaykit.bench.store import RunStore
from relaykit.delegation import DelegationGraph, validate_graph
from relaykit.delegation.execute import ExecutorStep
from relaykit.models import ChatRequest
from relaykit.testing import ScriptedModel

pytestmark = pytest.mark.envs


def tau2_gold(suite: Any, task_id: str) -> list[tuple[str, dict[str, Any]]]:
    raw = suite._raw[task_id.split("/", 1)[1]]
    return [(a.name, dict(a.arguments)) for a in raw.evaluation_criteria.actions]


def bfcl_gold(episode: Any, turn: int) -> list[tuple[str, dict[str, Any]]]:
    calls = []
    for text in episode._truth[turn]:
        node = ast.parse(text, mode="eval").body
        args = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
        params = list(inspect.signature(episode._methods[node.func.id]).parameters)
        args.update({p: ast.literal_eval(v) for p, v in zip(params, node.args)})
        calls.append((node.func.id, args))
    return calls


@pytest.mark.parametrize("name", ["tau2-retail", "tau2-airline"])
def test_tau2_gold_actions_reach_the_gold_state(name: str) -> None:
    pytest.importorskip("tau2")
    suite = open_suite(name)
    task = suite.tasks(limit=1)[0]
    assert task.turns[0].startswith("Request:") and {t.name for t in task.tools} >= {"calculate"}
    assert not suite.episode(task).success()
    episode = suite.episode(task)
    for tool, args in tau2_gold(suite, task.id):
        episode.call(tool, args)
    assert episode.success()


def test_bfcl_gold_calls_pass_the_answer_key_checker() -> None:
    pytest.importorskip("bfcl_eval")
    suite = open_suite("bfcl-multi-turn")
    task = suite.tasks(limit=1)[0]
    assert len(task.turns) == 4 and "cp" not in {t.name for t in task.tools}  # excluded_function honoured
    assert '"dict"' not in json.dumps([dict(t.parameters) for t in task.tools])
    assert not suite.episode(task).success()
    episode = suite.episode(task)
    for turn in range(len(task.turns)):
        episode.begin_turn(turn)
        for tool, args in bfcl_gold(episode, turn):
            assert episode.call(tool, args).ok
    assert episode.success()


def gold_planner(gold: list[list[tuple[str, dict[str, Any]]]]) -> ScriptedModel:
    """Plans the gold calls as a complete graph (run directly); the NL executor just gives up."""
    turn = {"i": 0}

    def respond(request: ChatRequest) -> Any:
        if request.schema is DelegationGraph:
            calls = gold[min(turn["i"], len(gold) - 1)]
            turn["i"] += 1
            nodes = [{"id": f"t{i}", "type": "tool_call", "value": name, "args": args}
                     for i, (name, args) in enumerate(calls)]
            edges = [{"src": f"t{i}", "dst": f"t{i + 1}", "relation": "depends_on"} for i in range(len(calls) - 1)]
            return {"nodes": nodes, "edges": edges}
        if request.schema is ExecutorStep:
            return {"action": "finish", "answer": "cannot"}
        if str(request.messages[0]["content"]).startswith("Classify"):
            return "GRAPH"
        return "Look the customer up, then make the change they asked for."

    return ScriptedModel(respond)


@pytest.mark.parametrize("name", ["tau2-retail", "bfcl-multi-turn"])
def test_lab_runs_every_format_on_the_real_suite(name: str, tmp_path: Path) -> None:
    pytest.importorskip("tau2" if name.startswith("tau2") else "bfcl_eval")
    suite = open_suite(name)
    task = suite.tasks(limit=1)[0]
    if name.startswith("tau2"):
        gold = [tau2_gold(suite, task.id)]
    else:
        episode = suite.episode(task)
        gold = [bfcl_gold(episode, t) for t in range(len(task.turns))]
    assert all(validate_graph(DelegationGraph.model_validate({"nodes": [
        {"id": f"t{i}", "type": "tool_call", "value": n, "args": a} for i, (n, a) in enumerate(calls)]}),
        task.tools).valid for calls in gold)
    store = RunStore(tmp_path / "runs.sqlite")
    config = LabConfig.build(suite=name, planner="scripted", executor="scripted", formats=["all"], limit=1)
    model = gold_planner(gold)
    run_id = run_lab(config, store, planner=model, executor=model)
    results = store.results(run_id)
    assert results[f"{task.id}|graph"]["success"] and results[f"{task.id}|graph"]["executed_by"][0] == "direct"
    assert not results[f"{task.id}|nl"]["success"]
    summary = summarize(store, run_id)
    assert set(summary["formats"]) == {"nl", "graph", "routed", "tfidf-terms"}
    assert summary["oracle"]["success_rate"] == 1.0
