"""Issue 18: paper 004's graph shape is accepted and emitted as given; schema and structural violations together."""

import json
from pathlib import Path

import pytest

from relaykit.cli.app import main
from relaykit.delegation import ToolSpec, check_graph_data, parse_graph, render_graph

TOOLS = [
    ToolSpec("find_user_id_by_email", "Find a user.", {"type": "object", "properties": {
        "email": {"type": "string"}}, "required": ["email"]}),
    ToolSpec("get_orders", "List orders.", {"type": "object", "properties": {
        "user_id": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["user_id"]}),
]
PAPER_SHAPE = {
    "nodes": [{"id": "g1", "type": "goal", "value": "get order status"},
              {"id": "t1", "type": "tool_call", "value": "find_user_id_by_email"},
              {"id": "a1", "type": "tool_arg", "value": "email=mia.lee@example.com"},
              {"id": "t2", "type": "tool_call", "value": "get_orders"},
              {"id": "a2", "type": "tool_arg", "value": "user_id=$t1"},
              {"id": "a3", "type": "tool_arg", "value": "limit=5"}],
    "edges": [{"src": "a1", "dst": "t1", "relation": "targets"}, {"src": "t1", "dst": "t2", "relation": "depends_on"},
              {"src": "t2", "dst": "a2", "relation": "requires"}, {"src": "t2", "dst": "a3", "relation": "requires"},
              {"src": "t2", "dst": "g1", "relation": "enables"}],
}


def test_paper_shape_tool_args_are_accepted_and_read() -> None:
    report = check_graph_data(PAPER_SHAPE, TOOLS)
    assert report.valid, report.violations
    graph = parse_graph(PAPER_SHAPE)
    assert graph.call_args("t1") == {"email": "mia.lee@example.com"}
    assert graph.call_args("t2") == {"user_id": "$t1", "limit": "5"}
    assert "email=\"mia.lee@example.com\"" in render_graph(graph, "outline")
    folded = graph.canonical()
    assert folded.node("t1").args == {"email": "mia.lee@example.com"} and "a1" not in folded.ids()


def test_graphs_are_emitted_in_the_form_the_user_chose() -> None:
    assert json.loads(parse_graph(PAPER_SHAPE).to_json()) == PAPER_SHAPE  # no "key" field, no "args" added
    keyed = {"nodes": [{"id": "t1", "type": "tool_call", "value": "find_user_id_by_email"},
                       {"id": "a1", "type": "tool_arg", "key": "email", "value": "a=b@c.d"}],
             "edges": [{"src": "t1", "dst": "a1", "relation": "requires"}]}
    graph = parse_graph(keyed)
    assert json.loads(graph.to_json()) == keyed and graph.call_args("t1") == {"email": "a=b@c.d"}


def test_key_value_arguments_are_type_checked_as_written() -> None:
    bad = json.loads(json.dumps(PAPER_SHAPE))
    bad["nodes"][5]["value"] = "limit=ten"
    bad["nodes"].append({"id": "a4", "type": "tool_arg", "value": "no parameter here"})
    bad["edges"].append({"src": "t2", "dst": "a4", "relation": "requires"})
    codes = sorted(v.code for v in check_graph_data(bad, TOOLS).violations)
    assert codes == ["arg_type", "tool_arg_key"]


def test_unknown_node_type_does_not_hide_a_dangling_edge() -> None:
    data = {"nodes": [{"id": "t1", "type": "tool_call", "value": "get_orders"},
                      {"id": "w1", "type": "widget", "value": "?"}],
            "edges": [{"src": "t1", "dst": "t9", "relation": "depends_on"}]}
    codes = [v.code for v in check_graph_data(data).violations]
    assert codes[0] == "schema" and "unknown_node" in codes


FIVE_KINDS = {
    "nodes": [{"id": "t1", "type": "tool_call", "value": "find_user_id_by_email"},
              {"id": "t2", "type": "tool_call", "value": "get_orders"},
              {"id": "t2", "type": "action", "value": "again"},
              {"id": "w1", "type": "widget", "value": "?"},
              {"id": "a1", "type": "tool_arg", "value": "email=x@y.z"}],
    "edges": [{"src": "t1", "dst": "t9", "relation": "depends_on"},
              {"src": "t1", "dst": "t2", "relation": "depends_on"},
              {"src": "t2", "dst": "t1", "relation": "follows"}],
}


def test_five_kinds_of_problems_are_all_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(FIVE_KINDS))
    with pytest.raises(SystemExit) as info:
        main(["delegation", "validate", str(path), "--json"])
    result = json.loads(capsys.readouterr().out)
    codes = {v["code"] for v in result["violations"]}
    assert info.value.code == 1 and not result["valid"]
    assert codes == {"schema", "duplicate_id", "unknown_node", "cycle", "tool_arg_owner"}
    with pytest.raises(SystemExit):
        main(["delegation", "validate", str(path)])
    out = capsys.readouterr().out
    assert all(code in out for code in codes) and "widget" in out


@pytest.mark.parametrize("data", [None, [], "x", 3, {"nodes": "x"}, {"nodes": [1, None, {"id": ["x"]}]},
                                  {"nodes": [{"id": "a", "type": "goal", "value": 1}], "edges": [{"src": 1}, 2,
                                   {"src": "a", "dst": "a", "relation": ["depends_on"]}]}])
def test_any_shape_gives_a_report_never_an_exception(data: object) -> None:
    report = check_graph_data(data)
    assert not report.valid and report.violations[0].code == "schema"
