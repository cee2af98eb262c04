"""Token-level Selective Context, the baseline that shows why agents need step-level compression.

Each content string is split into the model's tokens with their self-information (``-log p``); the
least informative tokens go until ``keep`` of them remain. Action verbs, identifiers and brackets are
predictable, so they are the first to go: the action grammar breaks even though the message list
itself stays structurally valid (roles, tool calls and call ids are never touched).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

from relaykit.models.base import Model
from relaykit.selective import most_informative

TokenInfo = Callable[[str], Sequence[tuple[str, float]]]
PROMPT = ({"role": "user", "content": "Repeat the following text."},)


def prune_text(text: str, info: TokenInfo, keep: float) -> str:
    """``text`` with only the ``keep`` share of its most informative tokens, in their order."""
    pieces = list(info(text))
    if not pieces:
        return text
    n_keep = max(1, math.ceil(keep * len(pieces))) if keep > 0 else 0
    kept = most_informative([p[1] for p in pieces], n_keep)  # the one Selective Context core
    return "".join(pieces[i][0] for i in kept)


def prune_message(message: dict[str, Any], info: TokenInfo, keep: float) -> dict[str, Any]:
    content = message.get("content")
    if not isinstance(content, str) or not content:
        return message
    return {**message, "content": prune_text(content, info, keep)}


def model_token_info(model: Model | None = None, cache_size: int = 4096) -> TokenInfo:
    """Self-information of each token under ``model`` (the embedded model by default), cached per text."""
    if model is None:
        from relaykit.models import open_model

        model = open_model("local")  # reuses the shared prompt prefix between calls
    scorer = model

    @functools.lru_cache(maxsize=cache_size)
    def info(text: str) -> tuple[tuple[str, float], ...]:
        return tuple((t.token, -t.logprob) for t in scorer.score_continuation(PROMPT, text))

    return info


def word_info(text: str) -> list[tuple[str, float]]:
    """A model-free stand-in for tests and dry runs: longer, rarer-looking words carry more information."""
    import re

    return [(m.group(0), float(len(m.group(0).strip()))) for m in re.finditer(r"\s*\S+", text)] or [(text, 0.0)]


__all__ = ["TokenInfo", "model_token_info", "prune_message", "prune_text", "word_info"]
