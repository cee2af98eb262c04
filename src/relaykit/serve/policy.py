"""A route's policy over an incoming history: the structure check and the compression to its budget.

Chat-completions bodies carry ``messages``; Responses bodies carry ``input`` (a string, or a list of Responses
input items, checked and compressed in their own format through ``relaykit.trajectory.formats``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from relaykit import tokens
from relaykit.errors import UsageError
from relaykit.serve.config import Route
from relaykit.trajectory.compress import compress_trajectory
from relaykit.trajectory.formats import SOURCE_KEY, compress_formatted, get_format
from relaykit.trajectory.validate import validate


@dataclass(frozen=True)
class Shaped:
    """What to send upstream in place of the history (``messages`` or ``input``) and the tokens before/after."""

    messages: Any
    tokens_before: int
    tokens_after: int
    violations: tuple[str, ...] = ()


def check(route: Route, messages: Any) -> list[str]:
    """The structure violations of ``messages`` that the route rejects (none when it passes histories through)."""
    if route.structure_check != "reject":
        return []
    return [str(v) for v in validate(messages)]


def budget_for(route: Route, body: dict[str, Any], before: int) -> int | str | None:
    """The token budget for this request, or ``None`` when no compression is due."""
    policy = route.compression
    if policy is None:
        return None
    if policy.budget != "fit":
        return policy.budget
    window = min(u.context_window for u in route.upstreams)
    asked = body.get("max_tokens") or body.get("max_completion_tokens") or body.get("max_output_tokens")
    room = window - int(asked or route.default_max_tokens)
    if room < 1:
        raise UsageError(f"max_tokens leaves no room for the history in a {window}-token window")
    return None if before <= room else room


def shape(route: Route, body: dict[str, Any], before: int | None = None) -> Shaped:
    """Compress ``body['messages']`` under the route's policy (``BudgetTooSmall`` and friends are UsageErrors);
    ``before``: the history's tokens when the caller has counted them already."""
    messages = body["messages"]
    before = tokens.count_messages(messages) if before is None else before
    budget = budget_for(route, body, before)
    if budget is None or validate(messages):  # a history let through unchecked is sent as it came
        return Shaped(messages, before, before)
    assert route.compression is not None
    result = compress_trajectory(messages, route.compression.method, budget=budget, **route.compression.options)
    kept = [dict(m) for m in result.messages if isinstance(m, dict)]
    return Shaped(kept, before, result.accounting.tokens_out)  # counted exactly as count_messages counts


# -- the Responses API (``POST /v1/responses``) -------------------------------------------------------------

def responses_chat_view(items: Any) -> list[dict[str, Any]]:
    """Responses ``input`` seen as chat messages (a string is one user message); what tokens are counted on."""
    if isinstance(items, str):
        return [{"role": "user", "content": items}]
    view = get_format("responses").to_chat(items).messages
    return [{k: v for k, v in m.items() if k != SOURCE_KEY} for m in view]


def check_responses(route: Route, items: Any) -> list[str]:
    """The Responses-API rules ``input`` breaks, when the route rejects invalid histories."""
    if route.structure_check != "reject" or isinstance(items, str):
        return []
    return [str(v) for v in get_format("responses").validate(items)]


def shape_responses(route: Route, body: dict[str, Any], before: int | None = None) -> Shaped:
    """Compress ``body['input']`` in the Responses format, under the route's policy."""
    items = body["input"]
    before = tokens.count_messages(responses_chat_view(items)) if before is None else before
    budget = budget_for(route, body, before)
    if budget is None or isinstance(items, str) or get_format("responses").validate(items):
        return Shaped(items, before, before)
    assert route.compression is not None
    result = compress_formatted(items, route.compression.method, format="responses", budget=budget,
                                **route.compression.options)
    return Shaped(result.messages, before, result.accounting.tokens_out)


__all__ = ["Shaped", "budget_for", "check", "check_responses", "responses_chat_view", "shape", "shape_responses"]
