import pytest

from relaykit.accounting import Tally
from relaykit.delegation import (
    DelegationGraph,
    Format,
    HeuristicRouter,
    ModelRouter,
    ToolSpec,
    open_router,
    plan_graph,
    plan_nl,
    route,
)
from relaykit.delegation.prompts import GRAPH_PLANNER_PROMPT, ROUTER_PROMPT
from relaykit.errors import InvalidOutput, UsageError
from relaykit.testing import ScriptedModel

TOOLS = [ToolSpec("find_user", "Find a user.", {"type": "object", "properties": {"email": {"type": "string"}}})]
GOOD = {"nodes": [{"id": "g", "type": "goal", "value": "find"},
                  {"id": "t1", "type": "tool_call", "value": "find_user", "args": {"email": "a@b"}}],
        "edges": [{"src": "t1", "dst": "g", "relation": "enables"}]}
UNKNOWN_TOOL = {"nodes": [{"id": "t1", "type": "tool_call", "value": "delete_everything"}], "edges": []}


def test_plan_graph_asks_with_the_schema_and_returns_a_valid_graph() -> None:
    model = ScriptedModel([GOOD])
    usage = Tally()
    graph = plan_graph(model, "find user a@b", TOOLS, usage=usage)
    assert isinstance(graph, DelegationGraph) and graph.call_args("t1") == {"email": "a@b"}
    request = model.requests[0]
    assert request.schema is DelegationGraph and request.temperature == 0.0
    assert request.messages[0]["content"] == GRAPH_PLANNER_PROMPT
    assert "find_user(email?)" in request.messages[1]["content"]
    assert usage.model_calls == 1 and usage.total_tokens > 0


def test_rule_violations_go_back_to_the_planner_then_it_repairs() -> None:
    model = ScriptedModel([UNKNOWN_TOOL, GOOD])
    graph = plan_graph(model, "find user", TOOLS)
    assert graph.tool_calls()[0].value == "find_user"
    repair = model.requests[1].messages[-1]["content"]
    assert "delete_everything" in repair and "not in the tool list" in repair


def test_schema_repair_and_rule_repair_share_one_bound() -> None:
    model = ScriptedModel(["not json", UNKNOWN_TOOL, UNKNOWN_TOOL, GOOD])
    with pytest.raises(InvalidOutput, match="kept producing invalid"):
        plan_graph(model, "find user", TOOLS, max_repairs=2)
    assert model.calls == 3


def test_plan_nl_returns_prose() -> None:
    model = ScriptedModel(["First call find_user with a@b."])
    assert plan_nl(model, "find user", TOOLS).startswith("First")
    with pytest.raises(InvalidOutput):
        plan_nl(ScriptedModel(["  "]), "x", TOOLS)


def test_model_router_is_conservative_and_deterministic() -> None:
    model = ScriptedModel(lambda req: "GRAPH" if "then" in req.messages[-1]["content"] else "Probably NL")
    router = ModelRouter(model)
    decision = router.route("look up the user then list orders")
    assert decision.format is Format.GRAPH and decision.router_tokens > 0
    assert router.route("tidy up the playlist").format is Format.NL
    assert ModelRouter(ScriptedModel(["graph-ish? maybe"])).route("x").format is Format.GRAPH
    assert ModelRouter(ScriptedModel(["I think GRAPH"])).route("x").format is Format.NL
    request = model.requests[0]
    assert request.temperature == 0.0 and request.messages[0]["content"] == ROUTER_PROMPT


def test_heuristic_router() -> None:
    assert HeuristicRouter().route("First look up the user, then fetch orders, then sum totals").format is Format.GRAPH
    assert HeuristicRouter().route("If they prefer something upbeat, maybe add it").format is Format.NL
    assert route("Fix whatever seems wrong").format is Format.NL  # no model: the heuristic router
    assert route("x", ScriptedModel(["GRAPH"])).format is Format.GRAPH


def test_router_registry() -> None:
    assert open_router("graph").route("anything").format is Format.GRAPH
    with pytest.raises(UsageError, match="needs a model"):
        open_router("model")
    with pytest.raises(UsageError, match=r"unknown router.*choose one of"):
        open_router("coin")


def test_tokens_of_failed_planning_are_still_counted() -> None:
    usage = Tally()
    with pytest.raises(InvalidOutput):
        plan_graph(ScriptedModel(["nope", "still nope"]), "find user", TOOLS, max_repairs=1, usage=usage)
    assert usage.model_calls == 2 and usage.prompt_tokens > 0
