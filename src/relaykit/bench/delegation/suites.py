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
from relaykit.errors import UsageError


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
_SUITES: dict[str, SuiteFactory] = {}


def register_suite(name: str, factory: SuiteFactory) -> None:
    """Make ``open_suite(name)`` (and ``--suite name``) build a suite with ``factory``."""
    _SUITES[name] = factory


def suite_names() -> list[str]:
    return sorted(_SUITES)


def open_suite(name: str) -> Suite:
    factory = _SUITES.get(name)
    if factory is None:
        raise UsageError(f"unknown suite {name!r}; known suites: {', '.join(suite_names())}")
    return factory()


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
