"""The hashing embedder: its remembered feature hashes and direct norm give the very bytes of the plain recipe
(one BLAKE2b per word and bigram, float32 sums, then ``normalise``), since stored vectors must keep matching."""

from __future__ import annotations

import hashlib
import itertools
import uuid

import numpy as np
import pytest

from relaykit.embeddings import HashingEmbedder
from relaykit.embeddings.base import _WORD, _hashed, normalise

TEXTS = [
    "case 17: what is the status of the invoice for the refund team about lamp in region r17",
    "writer 3 semantic 2 new request 41 zebra 679",
    "Transfer 100 USD to account 200, not 300!",
    "the the the the the",  # one feature counted five times
    "a b a b a b a b",  # repeated bigrams too
    "...  .  ...",  # words that strip to nothing
    "",
    "no words at all: ?? !! ,,",
    "Ünïcödé façade — naïve café in Zürich, 東京 and Москва; price €12.50 or £9 or $11.",
    "store my key [secret:1a2b3c4d] in the vault",
    " ".join(f"w{i}" for i in range(400)),  # more features than dimensions: buckets collide
    "x " * 5000,  # one bucket past 4,096: its float32 sum of squares is no longer exact
]


def plain(texts: list[str], dim: int) -> np.ndarray:
    """The recipe as first written: one digest per feature, accumulated in float32, then ``normalise``."""
    out = np.zeros((len(texts), dim), dtype=np.float32)
    for row, text in enumerate(texts):
        words = [w.lower().strip(".") for w in _WORD.findall(text)]
        for feature in words + [a + " " + b for a, b in itertools.pairwise(words)]:
            digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
            index = int.from_bytes(digest[:4], "little") % dim
            out[row, index] += 1.0 if digest[4] & 1 else -1.0
    return normalise(out)


@pytest.mark.parametrize("dim", [384, 512, 7])
def test_vectors_are_byte_identical_to_the_plain_recipe(dim: int) -> None:
    got = HashingEmbedder(dim).embed(TEXTS)
    assert got.dtype == np.float32 and got.shape == (len(TEXTS), dim) and got.flags.c_contiguous
    assert got.tobytes() == plain(TEXTS, dim).tobytes()
    one_by_one = np.vstack([HashingEmbedder(dim).embed([text]) for text in TEXTS])
    assert one_by_one.tobytes() == got.tobytes()


def test_empty_batch_and_zero_rows() -> None:
    assert HashingEmbedder(16).embed([]).shape == (0, 16)
    assert not HashingEmbedder(16).embed(["?!"]).any()


def test_feature_hashes_are_remembered() -> None:
    text = " ".join(uuid.uuid4().hex for _ in range(3))  # words no other test embedded
    before = _hashed.cache_info()
    HashingEmbedder(384).embed([text])
    HashingEmbedder(512).embed([text])  # the hash does not depend on the dimension: the same entries serve
    after = _hashed.cache_info()
    assert after.misses - before.misses == 5 and after.hits - before.hits == 5  # 3 words + 2 bigrams
    assert after.maxsize is not None and after.currsize <= after.maxsize


def test_many_generated_texts_are_byte_identical_to_the_plain_recipe() -> None:
    """2,000 texts of 0-60 words drawn from a small vocabulary with numbers (buckets collide, counts cancel to
    zero, signs mix): the sum of squares taken in any order is the same whole number, so the bytes are too."""
    rng = np.random.default_rng(14)
    vocabulary = ["invoice", "refund", "team", "zebra", "the", "of", "Request", "writer", "4.5", "$12", "a.b", "..."]
    texts = [" ".join(str(rng.integers(0, 50)) if rng.random() < 0.3 else vocabulary[rng.integers(len(vocabulary))]
                      for _ in range(int(rng.integers(0, 61)))) for _ in range(2000)]
    for dim in (384, 16):
        assert HashingEmbedder(dim).embed(texts).tobytes() == plain(texts, dim).tobytes()
