"""The rule-based misalignment taxonomy: label a failed execution from its trace alone.

A failure is *misalignment* when its trace shows any of:

(a) ``missing_prerequisite``: a tool call that failed with an error saying something it needs is
    absent (not found, does not exist, not logged in, must first ..., required ...);
(b) ``retry_loop``: ``retry_threshold`` (default 3) or more consecutive calls of the same tool, each
    after the previous one failed or with the same arguments;
(c) ``order_violation``: a call made before a call the delegation stated must precede it.

Any other failure is a *verification* error (the steps ran but the end state is wrong).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from relaykit.delegation.graph import DelegationGraph
from relaykit.delegation.validate import ordering_edges

PREREQUISITE_ERROR = re.compile(
    r"not found|does(?:n't| not) exist|no such|not exist|must (?:first|be)|first (?:call|log|authenticate)|"
    r"not logged|log ?in (?:is )?required|not authenticated|unauthori[sz]ed|not initiali[sz]ed|"
    r"is required|missing|unknown (?:user|order|id|file|directory)|invalid \w*\s?id",
    re.I,
)


@dataclass(frozen=True)
class Misalignment:
    missing_prerequisite: bool = False
    retry_loop: bool = False
    order_violation: bool = False

    @property
    def misaligned(self) -> bool:
        return self.missing_prerequisite or self.retry_loop or self.order_violation

    def category(self) -> str:
        return "misalignment" if self.misaligned else "verification"

    def to_dict(self) -> dict[str, Any]:
        return {"missing_prerequisite": self.missing_prerequisite, "retry_loop": self.retry_loop,
                "order_violation": self.order_violation, "category": self.category()}

    as_dict = to_dict  # deprecated: the labs' runners still call it; the one verb is to_dict()


def _field(step: Any, name: str) -> Any:
    return step.get(name) if isinstance(step, Mapping) else getattr(step, name)


def has_missing_prerequisite(steps: Sequence[Any]) -> bool:
    return any(not _field(s, "ok") and PREREQUISITE_ERROR.search(str(_field(s, "output"))) for s in steps)


def has_retry_loop(steps: Sequence[Any], threshold: int = 3) -> bool:
    run = 1
    for prev, cur in itertools.pairwise(steps):
        same_tool = _field(prev, "tool") == _field(cur, "tool")
        same_args = json.dumps(_field(prev, "args"), sort_keys=True) == json.dumps(_field(cur, "args"), sort_keys=True)
        run = run + 1 if same_tool and (not _field(prev, "ok") or same_args) else 1
        if run >= threshold:
            return True
    return False


def violates_order(steps: Sequence[Any], precedence: Iterable[tuple[str, str]]) -> bool:
    """True if some tool was called while a tool stated to come before it had not been called yet."""
    before_of: dict[str, set[str]] = {}
    for first, then in precedence:
        if first != then:
            before_of.setdefault(then, set()).add(first)
    called: set[str] = set()
    for step in steps:
        tool = str(_field(step, "tool"))
        if before_of.get(tool, set()) - called:
            return True
        called.add(tool)
    return False


def graph_precedence(graph: DelegationGraph) -> list[tuple[str, str]]:
    """(earlier tool, later tool) for every pair of tool_call nodes joined by a path of ordering edges."""
    succ: dict[str, set[str]] = {}
    for before, after in ordering_edges(graph):
        succ.setdefault(before, set()).add(after)
    names = {n.id: str(n.value) for n in graph.tool_calls()}
    pairs = []
    for start in names:
        seen, frontier = set(), list(succ.get(start, ()))
        while frontier:
            node = frontier.pop()
            if node in seen:
                continue
            seen.add(node)
            frontier.extend(succ.get(node, ()))
        pairs += [(names[start], names[n]) for n in seen if n in names and n != start]
    return pairs


def prose_precedence(text: str, tool_names: Iterable[str]) -> list[tuple[str, str]]:
    """The order a prose delegation states: tools in the order they are first mentioned, consecutive pairs."""
    positions = []
    for name in tool_names:
        match = re.search(rf"\b{re.escape(name)}\b", text)
        if match:
            positions.append((match.start(), name))
    mentioned = [name for _, name in sorted(positions)]
    return list(itertools.pairwise(mentioned))


def classify(steps: Sequence[Any], precedence: Iterable[tuple[str, str]] = (), *, retry_threshold: int = 3
             ) -> Misalignment:
    """Label a trace with the three misalignment rules."""
    return Misalignment(
        missing_prerequisite=has_missing_prerequisite(steps),
        retry_loop=has_retry_loop(steps, retry_threshold),
        order_violation=violates_order(steps, precedence),
    )
