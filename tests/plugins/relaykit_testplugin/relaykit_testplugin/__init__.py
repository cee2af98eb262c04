"""A third-party relaykit plugin, as a user would write one: it imports only relaykit's public API."""

from __future__ import annotations

from typing import Any

import numpy as np

from relaykit.embeddings import Embedder
from relaykit.models import ChatRequest, ChatResponse, Model, SpecForm
from relaykit.models.cache import CacheStore, MemoryStore
from relaykit.telemetry import Event


class EchoModel(Model):
    """Answers every request with its last message, prefixed by the spec's rest (``echo:PREFIX``)."""

    def __init__(self, prefix: str) -> None:
        self.name = f"echo:{prefix}"
        self.prefix = prefix

    def _complete(self, request: ChatRequest) -> ChatResponse:
        return ChatResponse(text=self.prefix + str(request.messages[-1]["content"]), model=self.name)


echo_model = SpecForm("echo:PREFIX", lambda rest, options: EchoModel(rest))


class ConstantEmbedder:
    name = "constant"

    def __init__(self, dim: int) -> None:
        self.dim = dim

    def embed(self, texts: Any) -> Any:
        out = np.ones((len(texts), self.dim), dtype=np.float32)
        return out / np.sqrt(self.dim)


def constant_embedder(rest: str) -> Embedder:
    return ConstantEmbedder(int(rest or 4))


def memory_store(rest: str, **options: Any) -> CacheStore:
    return MemoryStore()


class CountingSink:
    def __init__(self) -> None:
        self.count = 0

    def emit(self, event: Event) -> None:
        self.count += 1


def counting_sink(rest: str) -> CountingSink:
    return CountingSink()


def first_line(job: Any) -> Any:
    """A hand-off method: the first line of the trace (registered through ``relaykit.handoff``)."""
    return str(getattr(job, "trace", "")).split("\n", 1)[0]
