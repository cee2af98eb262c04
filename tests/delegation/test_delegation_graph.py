import json

import pytest

from relaykit.delegation import NODE_TYPES, RELATIONS, DelegationGraph, graph_json_schema, parse_graph, render_graph
from relaykit.errors import UsageError

PAPER_EXAMPLE = {
    "nodes": [
        {"id": "g1", "type": "goal", "value": "get order status"},
        {"id": "e1", "type": "entity", "value": "john.doe@example.com"},
        {"id": "t1", "type": "tool_call", "value": "lookup_customer"},
        {"id": "t2", "type": "tool_call", "value": "get_orders"},
        {"id": "t3", "type": "tool_call", "value": "respond_status"},
    ],
    "edges": [
        {"src": "t1", "dst": "t2", "relation": "depends_on"},
        {"src": "t2", "dst": "t3", "relation": "depends_on"},
        {"src": "e1", "dst": "t1", "relation": "targets"},
    ],
}


def test_eight_node_types_and_seven_relations() -> None:
    assert len(NODE_TYPES) == 8 and "tool_arg" in NODE_TYPES and "postcondition" in NODE_TYPES
    assert len(RELATIONS) == 7 and {"depends_on", "follows", "contradicts"} <= set(RELATIONS)


def test_schema_lists_the_types_for_constrained_decoding() -> None:
    schema = json.dumps(graph_json_schema())
    assert all(t in schema for t in NODE_TYPES) and all(r in schema for r in RELATIONS)


def test_paper_example_parses_and_round_trips() -> None:
    graph = parse_graph(json.dumps(PAPER_EXAMPLE))
    assert graph.ids() == ["g1", "e1", "t1", "t2", "t3"]
    assert parse_graph(graph.to_json()) == graph


def test_schema_errors_carry_json_paths() -> None:
    bad = {"nodes": [{"id": "a", "type": "goal", "value": "x"}, {"id": "b", "type": "wish", "value": "y"}],
           "edges": [{"src": "a", "relation": "depends_on"}]}
    with pytest.raises(UsageError) as info:
        parse_graph(bad)
    text = str(info.value)
    assert "$.nodes[1].type" in text and "$.edges[0].dst" in text


def test_not_json_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="not JSON"):
        parse_graph("{nodes: }")


def test_both_argument_forms_read_the_same() -> None:
    inline = DelegationGraph.model_validate({"nodes": [
        {"id": "t1", "type": "tool_call", "value": "get_order", "args": {"order_id": "#W1", "n": 2}}]})
    as_nodes = DelegationGraph.model_validate({
        "nodes": [{"id": "t1", "type": "tool_call", "value": "get_order"},
                  {"id": "a1", "type": "tool_arg", "key": "order_id", "value": "#W1"},
                  {"id": "a2", "type": "tool_arg", "key": "n", "value": 2}],
        "edges": [{"src": "t1", "dst": "a1", "relation": "requires"},
                  {"src": "a2", "dst": "t1", "relation": "targets"}]})
    assert inline.call_args("t1") == as_nodes.call_args("t1") == {"order_id": "#W1", "n": 2}
    assert as_nodes.canonical() == inline


def test_renderers() -> None:
    graph = parse_graph(PAPER_EXAMPLE)
    outline = render_graph(graph, "outline")
    assert outline.index("t1") < outline.index("t2") < outline.index("t3")
    assert "after t1" in outline and "e1 targets t1" in outline
    assert render_graph(graph, "mermaid").startswith("flowchart")
    with pytest.raises(UsageError, match=r"unknown graph form.*choose one of"):
        render_graph(graph, "svg")
