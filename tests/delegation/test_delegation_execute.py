import pytest

from relaykit.delegation import (
    DelegationGraph,
    DictToolEnv,
    ModelExecutor,
    ToolSpec,
    execute_direct,
    executor_system_prompt,
    is_directly_executable,
)
from relaykit.delegation.execute import ExecutorStep
from relaykit.delegation.prompts import GRAPH_EXECUTOR_PROMPT
from relaykit.errors import UsageError
from relaykit.testing import ScriptedModel

SPECS = [ToolSpec("find_user", "", {"properties": {"email": {"type": "string"}}, "required": ["email"]}),
         ToolSpec("get_orders", "", {"properties": {"user_id": {"type": "string"}}, "required": ["user_id"]})]


def make_env(log: list[str]) -> DictToolEnv:
    def find_user(email: str) -> str:
        log.append("find_user")
        return "u42"

    def get_orders(user_id: str) -> str:
        log.append("get_orders")
        if user_id != "u42":
            raise KeyError("user not found")
        return "#W1"

    return DictToolEnv({"find_user": find_user, "get_orders": get_orders}, SPECS)


def chain(second_args: dict[str, object]) -> DelegationGraph:
    return DelegationGraph.model_validate({
        "nodes": [{"id": "t2", "type": "tool_call", "value": "get_orders", "args": second_args},
                  {"id": "t1", "type": "tool_call", "value": "find_user", "args": {"email": "a@b"}}],
        "edges": [{"src": "t1", "dst": "t2", "relation": "depends_on"}]})


def test_direct_execution_follows_the_topological_order_and_resolves_references() -> None:
    log: list[str] = []
    trace = execute_direct(chain({"user_id": "$t1"}), make_env(log))
    assert log == ["find_user", "get_orders"] and trace.finished and trace.executed_by == "direct"
    assert trace.steps[1].args == {"user_id": "u42"} and trace.steps[1].output == "#W1"


def test_direct_execution_refuses_incomplete_graphs() -> None:
    graph = chain({})
    assert not is_directly_executable(graph, SPECS)
    with pytest.raises(UsageError, match="user_id"):
        execute_direct(graph, make_env([]))


def test_direct_execution_stops_at_the_first_error() -> None:
    trace = execute_direct(chain({"user_id": "nobody"}), make_env([]))
    assert not trace.finished and "user not found" in trace.error


def test_graph_prompt_travels_only_with_graphs() -> None:
    assert GRAPH_EXECUTOR_PROMPT in executor_system_prompt("graph", SPECS)
    assert GRAPH_EXECUTOR_PROMPT not in executor_system_prompt("nl", SPECS)
    assert "topological" in GRAPH_EXECUTOR_PROMPT and "depends_on" in GRAPH_EXECUTOR_PROMPT


def test_model_executor_calls_tools_and_sees_results() -> None:
    model = ScriptedModel([
        {"action": "call", "tool": "find_user", "args": {"email": "a@b"}},
        {"action": "call", "tool": "get_orders", "args": {"user_id": "u42"}},
        {"action": "finish", "answer": "order #W1"},
    ])
    log: list[str] = []
    trace = ModelExecutor(model).run(chain({}).to_json(), "graph", make_env(log))
    assert trace.finished and trace.answer == "order #W1" and log == ["find_user", "get_orders"]
    assert model.requests[0].schema is ExecutorStep
    assert GRAPH_EXECUTOR_PROMPT in model.requests[0].messages[0]["content"]
    assert "Result (ok): u42" in model.requests[1].messages[-1]["content"]
    assert trace.usage.model_calls == 3


def test_model_executor_stops_after_max_steps_and_on_invalid_output() -> None:
    loop = ScriptedModel(lambda _req: {"action": "call", "tool": "find_user", "args": {"email": "x"}})
    trace = ModelExecutor(loop, max_steps=3).run("do it", "nl", make_env([]))
    assert len(trace.steps) == 3 and not trace.finished and "3 steps" in trace.error
    broken = ModelExecutor(ScriptedModel(lambda _req: "nonsense"), max_repairs=0).run("do it", "nl", make_env([]))
    assert "invalid" in broken.error and not broken.steps
