import json
from pathlib import Path

import pytest

from relaykit.cli.app import main

GRAPH = {"nodes": [{"id": "t2", "type": "tool_call", "value": "get_orders"},
                   {"id": "t1", "type": "tool_call", "value": "find_user", "args": {"email": "a@b"}}],
         "edges": [{"src": "t1", "dst": "t2", "relation": "depends_on"}]}
TOOLS = [{"type": "function", "function": {"name": "find_user", "parameters": {
    "type": "object", "properties": {"email": {"type": "string"}}}}}, {"name": "get_orders"}]


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out, err


def write(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return str(path)


def test_validate_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "delegation", "validate", write(tmp_path, "g.json", GRAPH),
                           "--tools", write(tmp_path, "t.json", TOOLS), "--json")
    result = json.loads(out)
    assert code == 0 and set(result) == {"valid", "violations", "order", "accounting"}
    accounting = result.pop("accounting")
    assert result == {"valid": True, "violations": [], "order": ["t1", "t2"]}
    assert accounting["method"] == "validate" and accounting["ratio"] == 1.0 and accounting["notices"] == []


def test_validate_reports_every_violation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = {"nodes": [*GRAPH["nodes"], {"id": "t3", "type": "tool_call", "value": "refund"}],
           "edges": [*GRAPH["edges"], {"src": "t2", "dst": "t1", "relation": "follows"}]}
    code, out, _ = run_cli(capsys, "delegation", "validate", write(tmp_path, "g.json", bad),
                           "--tools", write(tmp_path, "t.json", TOOLS), "--json")
    result = json.loads(out)
    assert code == 1 and not result["valid"] and result["order"] == []
    assert {(v["code"], v["node"]) for v in result["violations"]} == {("cycle", "t2"), ("unknown_tool", "t3")}
    code, out, _ = run_cli(capsys, "delegation", "validate", write(tmp_path, "g.json", bad))
    assert code == 1 and "cycle" in out and "t1" in out


def test_validate_schema_errors_have_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "g.json", {"nodes": [{"id": 1}]})
    code, out, _ = run_cli(capsys, "delegation", "validate", path, "--json")
    messages = [v["message"] for v in json.loads(out)["violations"]]
    assert code == 1 and any(m.startswith("$.nodes[0].type") for m in messages)


def test_not_json_is_one_red_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "delegation", "validate", write(tmp_path, "g.json", "{oops"))
    # (rich wraps the one line at the test terminal's width, so compare the text unwrapped)
    assert code == 2 and "not valid JSON" in " ".join(err.split()) and "Traceback" not in err


def test_bench_rejects_unknown_suite_and_format(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    store = str(tmp_path / "runs.sqlite")
    code, _, err = run_cli(capsys, "bench", "delegation", "--suite", "nope", "--planner", "scripted",
                           "--executor", "scripted", "--store", store)
    assert code == 2 and "unknown suite" in err and "choose one of" in err
    code, _, err = run_cli(capsys, "bench", "delegation", "--suite", "tau2-retail", "--format", "json",
                           "--store", store)
    assert code == 2 and "unknown format" in err
