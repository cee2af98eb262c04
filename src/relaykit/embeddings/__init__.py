"""One ``Embedder`` interface: MiniLM (shipped in a wheel), OpenAI-compatible, and a hashing embedder."""

from relaykit.embeddings.base import Embedder, HashingEmbedder, cosine, open_embedder, register_embedder

__all__ = ["Embedder", "HashingEmbedder", "cosine", "open_embedder", "register_embedder"]
