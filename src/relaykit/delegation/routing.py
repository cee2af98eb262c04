"""Routing: pick the delegation format, GRAPH or NL, per task.

Two routers ship: a model router (one short classification call at temperature 0, NL unless the
answer says GRAPH) and a heuristic router that needs no model. Both are found through a registry.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from relaykit.delegation.prompts import ROUTER_PROMPT
from relaykit.errors import UsageError
from relaykit.models import Model
from relaykit.registry import Registry


class Format(str, Enum):
    GRAPH = "graph"
    NL = "nl"


@dataclass(frozen=True)
class RouteDecision:
    """A router's choice, with the tokens the decision cost (prompt + completion, 0 for heuristics)."""

    format: Format
    router_tokens: int = 0
    reason: str = ""


class Router(Protocol):
    """Anything that picks a delegation format for a task."""

    def route(self, task: str) -> RouteDecision: ...


@dataclass(frozen=True)
class ModelRouter:
    """One classification call; GRAPH only when the answer's first word is GRAPH (conservative default)."""

    model: Model
    max_tokens: int = 4

    def route(self, task: str) -> RouteDecision:
        messages = [{"role": "system", "content": ROUTER_PROMPT}, {"role": "user", "content": task.strip()}]
        response = self.model.complete(messages, temperature=0.0, max_tokens=self.max_tokens, seed=0)
        words = re.findall(r"[A-Za-z]+", response.text)
        fmt = Format.GRAPH if words and words[0].upper() == "GRAPH" else Format.NL
        return RouteDecision(fmt, response.prompt_tokens + response.completion_tokens, response.text.strip()[:40])


ORDER_CUES = re.compile(
    r"\b(then|after(?:wards)?|before|first|second|next|finally|followed by|once|using the result|"
    r"and then|subsequently|look up|retrieve|fetch|total|sum|count|average)\b", re.I)
ADAPTIVE_CUES = re.compile(
    r"\b(if|unless|whether|otherwise|depending|for each|each of|every|any|maybe|perhaps|might|"
    r"flexible|suggest\w*|prefer\w*|try|until|or else|decide|figure out|not sure|vague)\b", re.I)


@dataclass(frozen=True)
class HeuristicRouter:
    """No model: GRAPH when ordering cues outnumber adaptive cues by ``margin`` or more, else NL."""

    margin: int = 2

    def route(self, task: str) -> RouteDecision:
        order = len(ORDER_CUES.findall(task))
        adaptive = len(ADAPTIVE_CUES.findall(task))
        fmt = Format.GRAPH if order - adaptive >= self.margin else Format.NL
        return RouteDecision(fmt, 0, f"order cues {order}, adaptive cues {adaptive}")


@dataclass(frozen=True)
class FixedRouter:
    """Always the same format (the NL-only and graph-only baselines)."""

    format: Format

    def route(self, task: str) -> RouteDecision:
        return RouteDecision(self.format, 0, "fixed")


RouterFactory = Callable[[Model | None], Router]
ROUTERS: Registry[RouterFactory] = Registry("router")
"""Router names (``model``, ``heuristic``, ``graph``, ``nl``) mapped to ``factory(model) -> Router``."""


def register_router(name: str, factory: RouterFactory) -> None:
    """Make ``open_router(name, model)`` build a router with ``factory``."""
    ROUTERS.register(name, factory)


def _model_router(model: Model | None) -> Router:
    if model is None:
        raise UsageError("the 'model' router needs a model; pass one, or use the 'heuristic' router")
    return ModelRouter(model)


def open_router(name: str | Router, model: Model | None = None) -> Router:
    """The router registered as ``name`` (built with ``model``), or ``name`` itself when it is a router."""
    if not isinstance(name, str):
        return name
    return ROUTERS.get(name)(model)


def route(task: str, router: Router | Model | None = None) -> RouteDecision:
    """Pick GRAPH or NL for ``task``: with a model, the model router; with nothing, the heuristic one."""
    if router is None:
        return HeuristicRouter().route(task)
    if isinstance(router, Model):
        return ModelRouter(router).route(task)
    return router.route(task)


register_router("model", _model_router)
register_router("heuristic", lambda _model: HeuristicRouter())
register_router("graph", lambda _model: FixedRouter(Format.GRAPH))
register_router("nl", lambda _model: FixedRouter(Format.NL))
