"""τ²-bench retail and airline, driven without a user simulator.

The planner sees the customer's whole request at once (reason for the call, what they know, how
they behave), so no LLM user is needed. Tools and databases are τ²'s own; success is the gold end
state: the database after the executor's calls must hash equal to the database after the task's
gold actions. Only tasks whose gold actions write to the database are used (and whose gold actions change it: for the
others an empty run would already match).
"""

from __future__ import annotations

from typing import Any

from relaykit.bench.delegation.suites import SuiteTask
from relaykit.bench.envs.tau2 import INSTALL, Tau2Episode, domain_module, request_text
from relaykit.delegation import load_tools

_domain_module = domain_module  # the old private name, kept for callers not yet moved


class Tau2Suite:
    def __init__(self, domain: str) -> None:
        self.name = f"tau2-{domain}"
        self.domain = domain
        self._module = domain_module(domain)
        env = self._module.get_environment()
        self._tools = tuple(load_tools([t.openai_schema for t in env.get_tools()]))
        self._writes = {name for name in env.tools.get_tools() if env.tools.tool_type(name).value == "write"}
        self._raw = {t.id: t for t in self._module.get_tasks()}
        self._hashes: dict[str, str] = {}  # cache of gold and fresh database hashes (they are slow to compute)

    def tasks(self, limit: int | None = None, offset: int = 0) -> list[SuiteTask]:
        chosen: list[Any] = []
        candidates = [t for t in self._raw.values() if self._writes_db(t)][offset:]
        for task in candidates:
            if limit is not None and len(chosen) >= limit:
                break
            if Tau2Episode(self._module, task, self._tools, self._hashes).changes_state():
                chosen.append(task)
        return [SuiteTask(f"{self.name}/{t.id}", (request_text(t),), self._tools,
                          {"gold_tools": [a.name for a in t.evaluation_criteria.actions]}) for t in chosen]

    def _writes_db(self, task: Any) -> bool:
        criteria = task.evaluation_criteria
        return criteria is not None and any(a.name in self._writes for a in criteria.actions or [])

    def episode(self, task: SuiteTask) -> Tau2Episode:
        return Tau2Episode(self._module, self._raw[task.id.split("/", 1)[1]], self._tools, self._hashes)


__all__ = ["INSTALL", "Tau2Episode", "Tau2Suite", "domain_module", "request_text"]
