from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from relaykit.bench.composition import load_corpus
from relaykit.cli.app import main
from relaykit.models import ChatRequest, registry
from relaykit.testing import ScriptedModel


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_corpus_then_arrange(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "c.jsonl"
    code, out, _ = run_cli(capsys, "context", "corpus", "--out", str(corpus), "--meetings", "10", "--emails", "40",
                           "--chats", "0", "--email-rate", "0.2")
    assert code == 0 and "SYNTHETIC" in out and len(load_corpus(corpus).items) == 50
    code, out, _ = run_cli(capsys, "context", "arrange", str(corpus), "--json", "--max-tokens", "400")
    data = json.loads(out)
    assert code == 0 and set(data) == {"batches", "left_out", "routed", "notices", "accounting"} and data["routed"]
    assert all(b["tokens"] <= 400 for b in data["batches"])
    placed = {i for b in data["batches"] for i in b["ids"]}
    assert {i.id for i in load_corpus(corpus).signal} <= placed


def test_arrange_bad_input_is_one_red_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    items = tmp_path / "items.jsonl"
    items.write_text('{"id": "a", "text": "x", "label": 7}\n')
    code, _, err = run_cli(capsys, "context", "arrange", str(items))
    assert code == 2 and "0-3 scale" in err and "Traceback" not in err


def test_fuse_union(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    samples = tmp_path / "s.json"
    samples.write_text(json.dumps([["a", "b"], ["b", "c"], ["b"]]))
    code, out, _ = run_cli(capsys, "context", "fuse", str(samples), "--k", "2", "--json")
    assert code == 0 and json.loads(out) == {"ids": ["b"], "support": {"a": 1, "b": 3, "c": 1}, "method": "union",
                                             "n": 3, "chosen": None, "dropped": []}


def _oracle(corpus_path: Path) -> ScriptedModel:
    labels = load_corpus(corpus_path).by_id()

    def respond(request: ChatRequest) -> str:
        ids = re.findall(r"^\[([^\]]+)\] \(", request.messages[-1]["content"], re.MULTILINE)
        return json.dumps({"items": [{"id": i, "score": labels[i].label, "fact_types": list(labels[i].fact_types)}
                                     for i in ids]})

    return ScriptedModel(respond, name="oracle")


def test_bench_composition_runs_resumes_and_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "c.jsonl"
    run_cli(capsys, "context", "corpus", "--out", str(corpus), "--meetings", "20", "--emails", "40", "--chats", "10")
    oracle = registry.SpecForm("oracle-test", lambda rest, options: _oracle(corpus))
    with registry.MODELS.override("oracle-test", oracle):
        store = str(tmp_path / "runs.sqlite")
        code, out, err = run_cli(capsys, "bench", "composition", "--corpus", str(corpus), "--model", "oracle-test",
                                 "--blocks", "2", "--store", store, "--json")
        summary = json.loads(out)
        assert code == 0 and "SYNTHETIC" in err and summary["trials"] == 22
        assert summary["conditions"]["signal_100"]["relacc"] == 1.0
        assert [c["name"] for c in summary["contrasts"]] == ["C1", "C2", "C3", "C4", "C5"]
        code, out, _ = run_cli(capsys, "bench", "composition", "--resume", summary["run_id"], "--store", store,
                               "--json")
        assert code == 0 and json.loads(out)["trials"] == 22
        html = tmp_path / "r.html"
        code, out, _ = run_cli(capsys, "report", summary["run_id"], "--store", store, "--html", str(html))
        assert code == 0 and "C1" in out and html.read_text().startswith("<!doctype html>")


def test_bench_composition_small_corpus_names_the_shortfall(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text("\n".join(json.dumps({"id": f"x{i}", "source_type": "email", "text": "t", "label": 3})
                                for i in range(4)))
    code, _, err = run_cli(capsys, "bench", "composition", "--corpus", str(corpus), "--model", "scripted",
                           "--store", str(tmp_path / "r.sqlite"))
    assert code == 2 and "4 signal items" in err and "add at least 6" in err
