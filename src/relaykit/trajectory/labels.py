"""Counterfactual step labels: does removing past step *i* change what the agent does next?

For a prefix (a message list ending at the current observation) and each past step *i*:

- binary label: remove step *i*, ask the policy for the next action, compare with its action on the
  full prefix (1 = the action changed);
- graded label (models with log-probabilities, like the embedded llama.cpp model): the drop in
  log-probability of the gold next action when step *i* is removed.

A policy is any relaykit ``Model`` (wrapped in :class:`ModelPolicy`, its answer snapped to the
environment's valid actions when it lists them) or a plain function (:class:`ScriptedPolicy`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from relaykit.models.base import Model
from relaykit.trajectory.features import step_features, words
from relaykit.trajectory.parse import Msg, Trajectory, parse, render_messages


class Policy(Protocol):
    """Chooses the next action for a message list (``valid_actions`` may be empty: anything goes)."""

    def next_action(self, messages: Sequence[Mapping[str, Any]], valid_actions: Sequence[str] = ()) -> str: ...


def snap(text: str, valid_actions: Sequence[str]) -> str:
    """The valid action closest to ``text`` (exact match first, then word overlap); ``text`` if none listed."""
    line = text.strip().splitlines()[0].strip() if text.strip() else ""
    if not valid_actions:
        return line
    lowered = {a.lower(): a for a in valid_actions}
    if line.lower() in lowered:
        return lowered[line.lower()]
    said = set(line.lower().split())

    def overlap(action: str) -> tuple[float, int]:
        have = set(action.lower().split())
        return (len(said & have) / (len(said | have) or 1), -len(action))

    return max(valid_actions, key=overlap)


@dataclass
class ModelPolicy:
    """A relaykit ``Model`` as a policy: greedy, short answers, snapped to the valid actions."""

    model: Model
    max_tokens: int = 24

    def next_action(self, messages: Sequence[Mapping[str, Any]], valid_actions: Sequence[str] = ()) -> str:
        reply = self.model.complete(list(messages), temperature=0.0, max_tokens=self.max_tokens)
        return snap(reply.text, valid_actions)


@dataclass
class ScriptedPolicy:
    """A policy from a function of the messages and the valid actions."""

    fn: Callable[[Sequence[Mapping[str, Any]], Sequence[str]], str]

    def next_action(self, messages: Sequence[Mapping[str, Any]], valid_actions: Sequence[str] = ()) -> str:
        return self.fn(messages, valid_actions)


@dataclass
class GroundedPolicy:
    """A scripted oracle: it takes the gold action when every word of it that the full history mentioned
    is still in the context, and a fallback action otherwise (it cannot name what it no longer sees)."""

    gold: str
    full_history: frozenset[str]
    fallback: str = "look around"

    def next_action(self, messages: Sequence[Mapping[str, Any]], valid_actions: Sequence[str] = ()) -> str:
        needed = words(self.gold) & self.full_history
        present = context_words(messages)
        return self.gold if needed <= present else self.fallback


def context_words(messages: Sequence[Mapping[str, Any]]) -> frozenset[str]:
    """Content words of every non-system message (what the agent can still read)."""
    from relaykit.tokens import message_text

    return words("\n".join(message_text(m) for m in messages if m.get("role") not in ("system", "developer")))


def without_step(trajectory: Trajectory, index: int) -> list[Msg]:
    """The trajectory's messages with past step ``index`` removed."""
    return render_messages(trajectory.with_steps([s for s in trajectory.steps if s.index != index]))


@dataclass(frozen=True)
class StepLabels:
    """Labels for one prefix: features of its past steps and one label (and graded label) per step."""

    features: np.ndarray
    changed: tuple[int, ...]
    logprob_drop: tuple[float, ...] = field(default=())


def gold_logprob(model: Model, messages: Sequence[Mapping[str, Any]], gold: str) -> float:
    return float(sum(t.logprob for t in model.score_continuation(list(messages), gold)))


def label_prefix(
    messages: Sequence[Mapping[str, Any]],
    policy: Policy | None = None,
    *,
    valid_actions: Sequence[str] = (),
    gold: str | None = None,
    scorer_model: Model | None = None,
) -> StepLabels:
    """Counterfactual labels for every past step of ``messages`` (a chat list ending at an observation)."""
    trajectory = parse(list(messages))
    variants = [without_step(trajectory, s.index) for s in trajectory.past]
    changed: list[int] = []
    if policy is not None:
        base = policy.next_action(messages, valid_actions)
        changed = [int(policy.next_action(v, valid_actions) != base) for v in variants]
    drops: list[float] = []
    if scorer_model is not None and gold:
        full = gold_logprob(scorer_model, messages, gold)
        # newest removal first: consecutive prompts then share the longest prefix (cache-friendly backends)
        newest_first = [full - gold_logprob(scorer_model, v, gold) for v in reversed(variants)]
        drops = newest_first[::-1]
    return StepLabels(step_features(trajectory), tuple(changed), tuple(drops))


__all__ = ["GroundedPolicy", "ModelPolicy", "Policy", "ScriptedPolicy", "StepLabels", "context_words",
           "label_prefix", "snap", "without_step"]
