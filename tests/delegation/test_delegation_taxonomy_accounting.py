from relaykit import tokens
from relaykit.delegation import (
    DelegationGraph,
    ToolStep,
    classify,
    delegation_accounting,
    delegation_cost,
    delegation_ratio,
    tfidf_reencode,
)
from relaykit.delegation.prompts import GRAPH_EXECUTOR_PROMPT
from relaykit.delegation.taxonomy import graph_precedence, prose_precedence
from relaykit.delegation.tfidf import content_terms


def step(tool: str, ok: bool = True, output: str = "fine", **args: object) -> ToolStep:
    return ToolStep(tool, dict(args), ok, output)


def test_missing_prerequisite_error() -> None:
    assert classify([step("get_orders", False, "Error: user not found")]).missing_prerequisite
    assert not classify([step("get_orders", False, "Error: timeout")]).missing_prerequisite


def test_retry_loop_needs_three_consecutive_retries() -> None:
    failing = [step("cd", False, "bad", folder="x")] * 2
    assert not classify(failing).retry_loop
    assert classify([*failing, step("cd", True, folder="y")]).retry_loop
    same = [step("ls", a=1)] * 3
    assert classify(same).retry_loop and not classify(same, retry_threshold=4).retry_loop
    assert not classify([step("ls", a=1), step("ls", a=2), step("ls", a=3)]).retry_loop


def test_order_violation_against_graph_and_prose() -> None:
    graph = DelegationGraph.model_validate({
        "nodes": [{"id": "t1", "type": "tool_call", "value": "find_user"},
                  {"id": "x", "type": "action", "value": "think"},
                  {"id": "t2", "type": "tool_call", "value": "get_orders"}],
        "edges": [{"src": "t1", "dst": "x", "relation": "depends_on"},
                  {"src": "x", "dst": "t2", "relation": "follows"}]})
    precedence = graph_precedence(graph)
    assert precedence == [("find_user", "get_orders")]
    assert classify([step("get_orders"), step("find_user")], precedence).order_violation
    assert not classify([step("find_user"), step("get_orders")], precedence).order_violation
    prose = prose_precedence("Call find_user first, then get_orders.", ["get_orders", "find_user", "refund"])
    assert prose == [("find_user", "get_orders")]


def test_category() -> None:
    assert classify([step("a")]).category() == "verification"
    assert classify([step("a", False, "does not exist")]).category() == "misalignment"


def test_accounting_adds_router_and_graph_prefill() -> None:
    nl = delegation_cost("a long prose delegation " * 20, "nl")
    graph = delegation_cost('{"nodes":[]}', "graph", router_tokens=30)
    assert graph.prefill_tokens == tokens.count(GRAPH_EXECUTOR_PROMPT) and nl.prefill_tokens == 0
    assert graph.total == 30 + graph.handoff_tokens + graph.prefill_tokens
    assert delegation_ratio(nl, graph) == graph.total / nl.total
    record = delegation_accounting(nl, graph, method="graph")
    assert (record.tokens_in, record.tokens_out, record.ratio) == (nl.total, graph.total, graph.total / nl.total)


def test_tfidf_keeps_distinctive_terms_in_order() -> None:
    plan = ("Look up the customer by email john@x.com. Then get the orders of the customer. "
            "Then cancel order #W123 of the customer.")
    words = tfidf_reencode(plan, keep=0.5).split()
    assert "customer" not in words and "john@x.com" in words  # in every sentence vs. in one
    distinct = {w.lower() for w in content_terms(plan)}  # shared relaykit.text stop words removed
    assert len(words) == round(len(distinct) * 0.5) and words == sorted(words, key=lambda w: plan.index(w))
    assert "#W123" in tfidf_reencode(plan, keep=0.9).split()
