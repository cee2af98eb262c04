"""A toy suite for the lab's logic: look a value up, then write it; success = the right value written."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from relaykit.bench.delegation import SuiteTask, register_suite
from relaykit.delegation import ToolResult, ToolSpec
from relaykit.delegation.execute import ExecutorStep
from relaykit.delegation.graph import DelegationGraph
from relaykit.models import ChatRequest
from relaykit.testing import ScriptedModel

TOOLS = (
    ToolSpec("lookup", "Look a key up.", {"type": "object", "properties": {"key": {"type": "string"}},
                                          "required": ["key"]}),
    ToolSpec("store", "Store a value.", {"type": "object", "properties": {"key": {"type": "string"},
                                                                          "value": {"type": "string"}},
                                         "required": ["key", "value"]}),
)


class ToyEpisode:
    def __init__(self, key: str) -> None:
        self.key, self.stored = key, {}

    def tools(self) -> Sequence[ToolSpec]:
        return TOOLS

    def begin_turn(self, index: int) -> None:
        return None

    def call(self, name: str, args: Mapping[str, Any]) -> ToolResult:
        if name == "lookup":
            return ToolResult(True, f"value-of-{args['key']}")
        if name == "store":
            if args.get("value") != f"value-of-{args.get('key')}":
                return ToolResult(False, "Error: value not found in lookups")
            self.stored[args["key"]] = args["value"]
            return ToolResult(True, "stored")
        return ToolResult(False, f"Error: unknown tool {name}")

    def success(self) -> bool:
        return self.stored == {self.key: f"value-of-{self.key}"}


class ToySuite:
    name = "toy"

    def tasks(self, limit: int | None = None, offset: int = 0) -> list[SuiteTask]:
        keys = [f"k{i}" for i in range(6)][offset:]
        keys = keys[:limit] if limit is not None else keys
        return [SuiteTask(f"toy/{k}", (f"Look up {k} then store its value under {k}.",), TOOLS) for k in keys]

    def episode(self, task: SuiteTask) -> ToyEpisode:
        return ToyEpisode(task.id.split("/")[1])


register_suite("toy", ToySuite)


def toy_responder(broken_graph_keys: tuple[str, ...] = ()) -> ScriptedModel:
    """Planner/router/executor in one: graphs are complete (run directly); the NL executor gets odd keys wrong."""

    def respond(request: ChatRequest) -> Any:
        text = " ".join(str(m["content"]) for m in request.messages)
        found = re.search(r"\bk\d+\b", text)
        key = found.group(0) if found else None
        if key is None:  # the hand-off lost the key (TF-IDF can drop it): the executor gives up
            return {"action": "finish", "answer": "no key"}
        if request.schema is DelegationGraph:
            if key in broken_graph_keys:
                return {"nodes": [{"id": "t1", "type": "tool_call", "value": "teleport"}], "edges": []}
            return {"nodes": [{"id": "t1", "type": "tool_call", "value": "lookup", "args": {"key": key}},
                              {"id": "t2", "type": "tool_call", "value": "store",
                               "args": {"key": key, "value": "$t1"}}],
                    "edges": [{"src": "t1", "dst": "t2", "relation": "depends_on"}]}
        if request.schema is ExecutorStep:
            done = sum(1 for m in request.messages if m["role"] == "assistant")
            wrong = int(key[1:]) % 2 == 1
            script = [{"action": "call", "tool": "store", "args": {"key": key, "value": "guess"}}] * 3 if wrong else \
                [{"action": "call", "tool": "lookup", "args": {"key": key}},
                 {"action": "call", "tool": "store", "args": {"key": key, "value": f"value-of-{key}"}}]
            return script[done] if done < len(script) else {"action": "finish", "answer": "done"}
        if str(request.messages[0]["content"]).startswith("Classify"):
            return "GRAPH" if int(key[1:]) < 4 else "NL"
        return f"First call lookup with key {key}, then call store with that value. " * 8

    return ScriptedModel(respond)


@pytest.fixture
def toy_model() -> ScriptedModel:
    return toy_responder()


@pytest.fixture
def toy_factory() -> Any:
    return toy_responder


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
