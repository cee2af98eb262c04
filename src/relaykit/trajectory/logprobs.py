"""Log-probabilities from the embedded model that reuse the shared prompt prefix between calls.

Counterfactual labelling scores the same gold action after many prompts that differ in one removed
step, so consecutive prompts share a long prefix. This scorer keeps llama.cpp's KV cache for the
common prefix and evaluates only the rest. It reads the last position's logits straight from the
context, which also works when the model was loaded without ``logits_all`` (llama-cpp-python 0.3.x
then leaves ``Llama.scores`` empty).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from relaykit.models import local
from relaykit.models.base import Message, TokenLogprob
from relaykit.models.local import LocalModel


def _common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


class PrefixCachedLocal(LocalModel):
    """The embedded model whose ``score_continuation`` reuses the KV cache of the previous prompt."""

    def _last_logprobs(self) -> np.ndarray:
        llama = self.llama
        logits = np.ctypeslib.as_array(llama._ctx.get_logits(), shape=(llama.n_vocab(),)).astype(np.float64)
        top = float(logits.max())
        return np.asarray(logits - (top + math.log(float(np.exp(logits - top).sum()))))

    def _eval_from_cache(self, tokens: list[int]) -> None:
        llama = self.llama
        cached = list(llama.input_ids[: llama.n_tokens])
        keep = min(_common_prefix(cached, tokens), len(tokens) - 1)
        llama.n_tokens = keep
        llama.eval(tokens[keep:])

    def score_continuation(self, messages: Sequence[Message], continuation: str) -> list[TokenLogprob]:
        llama = self.llama
        prompt = self._prompt_tokens(messages)
        target = list(llama.tokenize(continuation.encode("utf-8"), add_bos=False, special=False))
        out: list[TokenLogprob] = []
        with local._LOCK:
            self._eval_from_cache(prompt)
            for token in target:
                piece = llama.detokenize([token]).decode("utf-8", "ignore")
                out.append(TokenLogprob(piece, float(self._last_logprobs()[token])))
                llama.eval([token])
        return out


__all__ = ["PrefixCachedLocal"]
