"""One embedder interface: MiniLM from its wheel, OpenAI-compatible, hashing; found through ``EMBEDDERS``."""

from relaykit.embeddings.base import (
    EMBEDDERS,
    Embedder,
    EmbedderFactory,
    HashingEmbedder,
    cosine,
    open_embedder,
    register_embedder,
)

__all__ = ["EMBEDDERS", "Embedder", "EmbedderFactory", "HashingEmbedder", "cosine", "open_embedder",
           "register_embedder"]
