"""Token accounting per delegation: router call, hand-off tokens and the executor's format prefill.

The figure a user sees is end to end, as the one relaykit ``ratio``: ``other_total / nl_total`` (below 1 =
cheaper than the prose delegation of the same task), where each total is the router call (when routed) + the
hand-off text + the format-specific executor prefill (the graph-aware guidance, only on graph delegations).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from relaykit import tokens
from relaykit.accounting import Accounting
from relaykit.delegation.prompts import GRAPH_EXECUTOR_PROMPT


@dataclass(frozen=True)
class DelegationCost:
    router_tokens: int = 0
    handoff_tokens: int = 0
    prefill_tokens: int = 0

    @property
    def total(self) -> int:
        return self.router_tokens + self.handoff_tokens + self.prefill_tokens

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "total": self.total}

    as_dict = to_dict  # deprecated: the labs' runners still call it; the one verb is to_dict()


def graph_prefill_tokens(encoding: str = "o200k_base") -> int:
    """Tokens of the graph-aware executor guidance that travels with every graph delegation."""
    return tokens.count(GRAPH_EXECUTOR_PROMPT, encoding)


def delegation_cost(text: str, fmt: str, *, router_tokens: int = 0, encoding: str = "o200k_base") -> DelegationCost:
    """The cost of one delegation whose hand-off is ``text`` in format ``fmt`` (``graph`` adds the prefill)."""
    prefill = graph_prefill_tokens(encoding) if fmt == "graph" else 0
    return DelegationCost(router_tokens, tokens.count(text, encoding), prefill)


def delegation_accounting(nl: DelegationCost, other: DelegationCost, *, method: str = "",
                          encoding: str = "o200k_base") -> Accounting:
    """``other`` against the NL delegation of the same task: tokens_in = the NL total, tokens_out = ``other``'s
    total, so ``.ratio`` below 1 means ``other`` is cheaper end to end."""
    return Accounting(tokens_in=nl.total, tokens_out=other.total, method=method, encoding=encoding)


def delegation_ratio(nl: DelegationCost, other: DelegationCost) -> float:
    """``other.total / nl.total``: the one relaykit ratio (below 1 = smaller than the NL delegation)."""
    return delegation_accounting(nl, other).ratio
