"""A route's policy over an incoming history: the structure check and the compression to its budget."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from relaykit import tokens
from relaykit.errors import UsageError
from relaykit.serve.config import Route
from relaykit.trajectory.compress import compress_trajectory
from relaykit.trajectory.validate import validate


@dataclass(frozen=True)
class Shaped:
    """The messages to send upstream and the token counts before and after."""

    messages: list[dict[str, Any]]
    tokens_before: int
    tokens_after: int
    violations: tuple[str, ...] = ()


def check(route: Route, messages: Any) -> list[str]:
    """The structure violations of ``messages`` that the route rejects (none when it passes histories through)."""
    problems = [str(v) for v in validate(messages)]
    return problems if route.structure_check == "reject" else []


def budget_for(route: Route, body: dict[str, Any], before: int) -> int | str | None:
    """The token budget for this request, or ``None`` when no compression is due."""
    policy = route.compression
    if policy is None:
        return None
    if policy.budget != "fit":
        return policy.budget
    window = min(u.context_window for u in route.upstreams)
    room = window - int(body.get("max_tokens") or body.get("max_completion_tokens") or route.default_max_tokens)
    if room < 1:
        raise UsageError(f"max_tokens leaves no room for the history in a {window}-token window")
    return None if before <= room else room


def shape(route: Route, body: dict[str, Any]) -> Shaped:
    """Compress ``body['messages']`` under the route's policy (``BudgetTooSmall`` and friends are UsageErrors)."""
    messages = body["messages"]
    before = tokens.count_messages(messages)
    budget = budget_for(route, body, before)
    if budget is None or validate(messages):  # a history let through unchecked is sent as it came
        return Shaped(list(messages), before, before)
    assert route.compression is not None
    result = compress_trajectory(messages, route.compression.method, budget=budget, **route.compression.options)
    kept = [dict(m) for m in result.messages if isinstance(m, dict)]
    return Shaped(kept, before, result.accounting.tokens_out)  # counted exactly as count_messages counts


__all__ = ["Shaped", "budget_for", "check", "shape"]
