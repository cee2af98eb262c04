"""Every compress / validate command's ``--json`` output carries the one accounting record under
``"accounting"``, with the same keys meaning the same thing: ratio = tokens_out / tokens_in (below 1 = smaller)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from relaykit.accounting import ACCOUNTING_KEYS, Accounting
from relaykit.cli.app import main

TRACE = "\n".join(f"Step {i}: checked depot D{i:02d}; the crane there lifts {10 + i} tonnes and is free on day {i}."
                  for i in range(40))
GOAL = "book a crane that lifts 30 tonnes"
MESSAGES = [{"role": "system", "content": "Agent."}, {"role": "user", "content": "Find the key."}]
for _i in range(8):
    MESSAGES += [{"role": "assistant", "content": None, "tool_calls": [
        {"id": f"c{_i}", "type": "function", "function": {"name": "look", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": f"c{_i}", "content": f"room {_i}: a chair, a lamp, a rug, a long corridor"}]
ITEMS = [{"id": f"e{i}", "text": f"email {i} about the release status", "relevance": 3 if i < 4 else 0}
         for i in range(12)]
GRAPH = {"nodes": [{"id": "g", "type": "goal", "value": "find the user"}], "edges": []}


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:  # type: ignore[type-arg]
    with pytest.raises(SystemExit) as info:
        main([*args, "--json"])
    out, err = capsys.readouterr()
    assert int(info.value.code or 0) == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def _needs_accounting(result: object, owner: str) -> None:
    assert isinstance(getattr(result, "accounting", None), Accounting), f"the {owner} result carries no Accounting"


def _check(data: dict, smaller: bool) -> None:  # type: ignore[type-arg]
    acc = data["accounting"]
    assert tuple(acc) == ACCOUNTING_KEYS
    assert acc["ratio"] == pytest.approx(acc["tokens_out"] / acc["tokens_in"], abs=1e-4)
    assert (acc["ratio"] < 1) == smaller and (acc["tokens_out"] < acc["tokens_in"]) == smaller
    assert isinstance(acc["notices"], list) and set(acc["usage"]) >= {"model_calls", "prompt_tokens"}


def test_compress_handoff(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from relaykit.handoff import compress_handoff

    _needs_accounting(compress_handoff(TRACE, GOAL, "truncate"), "hand-off")
    trace = tmp_path / "trace.txt"
    trace.write_text(TRACE)
    _check(run_json(capsys, "compress", "handoff", str(trace), "--goal", GOAL, "--method", "truncate"), True)


def test_compress_trajectory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from relaykit.trajectory import compress_trajectory

    _needs_accounting(compress_trajectory(MESSAGES, method="floor"), "trajectory")
    path = tmp_path / "t.json"
    path.write_text(json.dumps(MESSAGES))
    _check(run_json(capsys, "compress", "trajectory", str(path), "--method", "floor"), True)


def test_context_arrange(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "items.jsonl"
    path.write_text("\n".join(json.dumps(item) for item in ITEMS))
    data = run_json(capsys, "context", "arrange", str(path), "--batch-size", "4")
    _check(data, smaller=bool(data["left_out"]))
    assert len(data["accounting"]["dropped"]) == len(data["left_out"])


def test_delegation_validate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(GRAPH))
    _check(run_json(capsys, "delegation", "validate", str(path)), smaller=False)
