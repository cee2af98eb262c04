"""Suites of the delegation lab: tasks, tools, a live environment per task, and a gold-outcome check.

A suite is found by name through a registry. Each task is one or more turns (one delegation per
turn); an :class:`Episode` is the live environment of one task: it takes tool calls and finally
says whether the end state matches the gold one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from relaykit.delegation import ToolResult, ToolSpec
from relaykit.registry import Registry


@dataclass(frozen=True)
class SuiteTask:
    """One task: its id, the user's turns (one delegation each) and the tools the executor may call."""

    id: str
    turns: tuple[str, ...]
    tools: tuple[ToolSpec, ...]
    meta: Mapping[str, Any] = field(default_factory=dict)


class Episode(Protocol):
    """The live environment of one task."""

    def tools(self) -> Sequence[ToolSpec]: ...

    def call(self, name: str, args: Mapping[str, Any]) -> ToolResult: ...

    def begin_turn(self, index: int) -> None: ...

    def success(self) -> bool: ...


class Suite(Protocol):
    name: str

    def tasks(self, limit: int | None = None, offset: int = 0) -> list[SuiteTask]: ...

    def episode(self, task: SuiteTask) -> Episode: ...


SuiteFactory = Callable[[], Suite]
SUITES: Registry[SuiteFactory] = Registry("suite")
"""Delegation-lab suites by name: ``tau2-retail``, ``tau2-airline``, ``bfcl-multi-turn``."""


def register_suite(name: str, factory: SuiteFactory) -> None:
    """Make ``open_suite(name)`` (and ``--suite name``) build a suite with ``factory``."""
    SUITES.register(name, factory)


def suite_names() -> list[str]:
    return sorted(SUITES.names())


def open_suite(name: str | Suite) -> Suite:
    """The suite registered as ``name``, or ``name`` itself when it already is a suite."""
    return SUITES.get(name)() if isinstance(name, str) else name


def _tau2(domain: str) -> SuiteFactory:
    def factory() -> Suite:
        from relaykit.bench.delegation.tau2 import Tau2Suite

        return Tau2Suite(domain)

    return factory


def _bfcl() -> Suite:
    from relaykit.bench.delegation.bfcl import BfclMultiTurnSuite

    return BfclMultiTurnSuite()


register_suite("tau2-retail", _tau2("retail"))
register_suite("tau2-airline", _tau2("airline"))
register_suite("bfcl-multi-turn", _bfcl)
