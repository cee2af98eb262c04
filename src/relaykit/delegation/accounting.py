"""Token accounting per delegation: router call, hand-off tokens and the executor's format prefill.

The compression a user sees is end to end: ``nl_total / other_total`` where each total is the
router call (when routed) + the hand-off text + the format-specific executor prefill (the
graph-aware guidance, present only on graph delegations).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from relaykit import tokens
from relaykit.delegation.prompts import GRAPH_EXECUTOR_PROMPT


@dataclass(frozen=True)
class DelegationCost:
    router_tokens: int = 0
    handoff_tokens: int = 0
    prefill_tokens: int = 0

    @property
    def total(self) -> int:
        return self.router_tokens + self.handoff_tokens + self.prefill_tokens

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "total": self.total}


def graph_prefill_tokens(encoding: str = "o200k_base") -> int:
    """Tokens of the graph-aware executor guidance that travels with every graph delegation."""
    return tokens.count(GRAPH_EXECUTOR_PROMPT, encoding)


def delegation_cost(text: str, fmt: str, *, router_tokens: int = 0, encoding: str = "o200k_base") -> DelegationCost:
    """The cost of one delegation whose hand-off is ``text`` in format ``fmt`` (``graph`` adds the prefill)."""
    prefill = graph_prefill_tokens(encoding) if fmt == "graph" else 0
    return DelegationCost(router_tokens, tokens.count(text, encoding), prefill)


def compression(nl: DelegationCost, other: DelegationCost) -> float:
    """End-to-end compression of ``other`` against the NL delegation of the same task."""
    return nl.total / other.total if other.total else float("inf")
