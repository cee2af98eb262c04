"""BFCL v3/v4 multi-turn (base category), with its runnable tool backends and its answer-key checker.

Each user turn is one delegation. The executor's calls run on live instances of the task's
classes; afterwards the calls, grouped per turn, go to BFCL's own ``multi_turn_checker``, which
replays them and the ground truth and compares the states and results turn by turn.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from relaykit.bench.delegation.suites import SuiteTask
from relaykit.bench.envs.bfcl import INSTALL, backend_methods, call_string, data_file, turn_text
from relaykit.delegation import ToolResult, ToolSpec, load_tools

CATEGORY = "multi_turn_base"
TYPE_MAP = {"dict": "object", "float": "number", "tuple": "array", "any": None}


def json_schema_types(schema: Any) -> Any:
    """BFCL's Python-flavoured type names turned into JSON-schema ones."""
    if isinstance(schema, list):
        return [json_schema_types(s) for s in schema]
    if not isinstance(schema, Mapping):
        return schema
    out = {k: json_schema_types(v) for k, v in schema.items() if k != "type"}
    if "type" in schema:
        mapped = TYPE_MAP.get(schema["type"], schema["type"])
        if mapped is not None:
            out["type"] = mapped
    return out


class BfclMultiTurnSuite:
    name = "bfcl-multi-turn"

    def __init__(self) -> None:
        self._entries = data_file(f"BFCL_v4_{CATEGORY}.json")
        from bfcl_eval.constants.executable_backend_config import MULTI_TURN_FUNC_DOC_FILE_MAPPING

        answers = data_file(f"possible_answer/BFCL_v4_{CATEGORY}.json")
        self._answers = {a["id"]: a["ground_truth"] for a in answers}
        self._docs: dict[str, list[dict[str, Any]]] = {}
        for cls, file in MULTI_TURN_FUNC_DOC_FILE_MAPPING.items():
            docs = data_file(f"multi_turn_func_doc/{file}", missing_ok=True)
            if docs:
                self._docs[cls] = docs
        self._by_id = {e["id"]: e for e in self._entries}

    def _tools(self, entry: Mapping[str, Any]) -> tuple[ToolSpec, ...]:
        excluded = set(entry.get("excluded_function") or [])
        docs = [d for cls in entry["involved_classes"] for d in self._docs.get(cls, []) if d["name"] not in excluded]
        return tuple(load_tools([{"name": d["name"], "description": d.get("description", ""),
                                  "parameters": json_schema_types(d.get("parameters", {}))} for d in docs]))

    def tasks(self, limit: int | None = None, offset: int = 0) -> list[SuiteTask]:
        entries = self._entries[offset:]
        entries = entries[:limit] if limit is not None else entries
        return [SuiteTask(e["id"], tuple(turn_text(t) for t in e["question"]), self._tools(e),
                          {"classes": e["involved_classes"]}) for e in entries]

    def episode(self, task: SuiteTask) -> BfclEpisode:
        return BfclEpisode(self._by_id[task.id], self._answers[task.id], task.tools)


class BfclEpisode:
    def __init__(self, entry: Mapping[str, Any], ground_truth: list[list[str]], tools: Sequence[ToolSpec]) -> None:
        self._entry, self._truth, self._tools = entry, ground_truth, tools
        self._methods = backend_methods(entry)
        self.calls: list[list[str]] = [[] for _ in ground_truth]
        self._turn = 0

    def tools(self) -> Sequence[ToolSpec]:
        return self._tools

    def begin_turn(self, index: int) -> None:
        self._turn = index

    def call(self, name: str, args: Mapping[str, Any]) -> ToolResult:
        allowed = {t.name for t in self._tools}
        method = self._methods.get(name) if name in allowed else None
        if method is None:
            return ToolResult(False, f"Error: no tool named {name!r}")
        self.calls[self._turn].append(call_string(name, args))
        try:
            result = method(**dict(args))
        except Exception as exc:
            return ToolResult(False, f"Error during execution: {exc}")
        text = json.dumps(result, default=str) if isinstance(result, dict) else str(result)
        return ToolResult(not (isinstance(result, dict) and "error" in result), text)

    def success(self) -> bool:
        from bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker import multi_turn_checker

        decoded = [[turn] if turn else [] for turn in self.calls]
        try:
            verdict = multi_turn_checker(decoded, self._truth, dict(self._entry), CATEGORY,
                                         f"relaykit_{uuid.uuid4().hex[:12]}")
        except Exception:  # the checker asserts on malformed runs; that is a failure, not a crash
            return False
        return bool(verdict.get("valid"))


__all__ = ["CATEGORY", "INSTALL", "BfclEpisode", "BfclMultiTurnSuite", "call_string", "json_schema_types"]
