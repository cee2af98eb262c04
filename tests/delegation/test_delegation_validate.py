import itertools
import random

from relaykit.delegation import DelegationGraph, ToolSpec, check_graph_data, execution_order, validate_graph
from relaykit.delegation.validate import ordering_cycles

TOOLS = [
    ToolSpec("find_user", "Find a user.", {"type": "object", "properties": {"email": {"type": "string"}},
                                           "required": ["email"]}),
    ToolSpec("get_orders", "List orders.", {"type": "object", "properties": {"user_id": {"type": "string"},
                                                                              "limit": {"type": "integer"}},
                                            "required": ["user_id"]}),
]


def graph(nodes: list[tuple[str, str, object]], edges: list[tuple[str, str, str]]) -> DelegationGraph:
    return DelegationGraph.model_validate({
        "nodes": [{"id": i, "type": t, "value": v} for i, t, v in nodes],
        "edges": [{"src": s, "dst": d, "relation": r} for s, d, r in edges]})


def test_paper_direction_t1_before_t2() -> None:
    g = graph([("t2", "tool_call", "get_orders"), ("t1", "tool_call", "find_user")],
              [("t1", "t2", "depends_on")])
    report = validate_graph(g)
    assert report.valid and report.order == ("t1", "t2")


def test_follows_reads_src_before_dst_and_ties_keep_listing_order() -> None:
    g = graph([("c", "action", "c"), ("a", "action", "a"), ("b", "action", "b"), ("z", "goal", "z")],
              [("a", "c", "follows"), ("b", "c", "depends_on")])
    assert execution_order(g) == ["a", "b", "c", "z"]


def test_every_violation_at_once() -> None:
    data = {"nodes": [{"id": "a", "type": "action", "value": "x"}, {"id": "a", "type": "goal", "value": "y"},
                      {"id": "b", "type": "action", "value": "z"}, {"id": "c", "type": "action", "value": "w"},
                      {"id": "t", "type": "tool_call", "value": "no_such_tool"}],
            "edges": [{"src": "b", "dst": "c", "relation": "depends_on"},
                      {"src": "c", "dst": "b", "relation": "follows"},
                      {"src": "a", "dst": "ghost", "relation": "enables"}]}
    report = check_graph_data(data, TOOLS)
    codes = {v.code for v in report.violations}
    assert codes == {"duplicate_id", "unknown_node", "cycle", "unknown_tool"}
    cycle = next(v for v in report.violations if v.code == "cycle")
    assert "b, c" in cycle.message and cycle.node == "b"
    assert next(v for v in report.violations if v.code == "unknown_node").edge == 2
    assert next(v for v in report.violations if v.code == "unknown_tool").node == "t"
    assert report.order == () and not report.valid


def test_schema_errors_come_back_as_violations_with_paths() -> None:
    report = check_graph_data({"nodes": [{"id": "a", "type": "goal"}]})
    assert not report.valid and report.violations[0].code == "schema"
    assert "$.nodes[0].value" in report.violations[0].message


def test_tool_args_checked_against_parameters() -> None:
    data = {"nodes": [{"id": "t1", "type": "tool_call", "value": "get_orders",
                       "args": {"user_id": "u1", "limit": "ten", "colour": "red"}},
                      {"id": "a1", "type": "tool_arg", "key": "email", "value": "x@y"}],
            "edges": [{"src": "t1", "dst": "a1", "relation": "requires"}]}
    codes = sorted(v.code for v in check_graph_data(data, TOOLS).violations)
    assert codes == ["arg_type", "unknown_arg", "unknown_arg"]
    assert check_graph_data(data).valid  # without a tool list, arguments are not checked


def test_orphan_and_shared_tool_args() -> None:
    data = {"nodes": [{"id": "t1", "type": "tool_call", "value": "find_user"},
                      {"id": "t2", "type": "tool_call", "value": "find_user"},
                      {"id": "a1", "type": "tool_arg", "key": "email", "value": "x"},
                      {"id": "a2", "type": "tool_arg", "value": "y"}],
            "edges": [{"src": "t1", "dst": "a1", "relation": "requires"},
                      {"src": "t2", "dst": "a1", "relation": "requires"}]}
    codes = sorted(v.code for v in check_graph_data(data).violations)
    assert codes == ["tool_arg_key", "tool_arg_owner", "tool_arg_owner"]


def _has_cycle_brute(n: int, edges: list[tuple[int, int]]) -> bool:
    return not any(all(perm.index(a) < perm.index(b) for a, b in edges) for perm in itertools.permutations(range(n)))


def test_cycle_detection_matches_brute_force() -> None:
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(1, 5)
        edges = [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, 6))]
        g = graph([(f"n{i}", "action", i) for i in range(n)], [(f"n{a}", f"n{b}", "depends_on") for a, b in edges])
        cycles = ordering_cycles(g)
        assert bool(cycles) == _has_cycle_brute(n, edges), edges
        if not cycles:
            order = execution_order(g)
            assert sorted(order) == sorted(g.ids())
            assert all(order.index(f"n{a}") < order.index(f"n{b}") for a, b in edges)


def test_an_empty_graph_is_not_a_delegation() -> None:
    report = check_graph_data({"nodes": [], "edges": []})
    assert [v.code for v in report.violations] == ["empty"]
