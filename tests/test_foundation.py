"""The shared low-layer shapes: one accounting record, one registry, shared text primitives, chunked counting."""

from __future__ import annotations

import pytest

from relaykit import tokens
from relaykit.accounting import ACCOUNTING_KEYS, Accounting, Usage
from relaykit.errors import UsageError
from relaykit.registry import Registry
from relaykit.text import idf_weights, pack, split_sentences, words


def test_ratio_is_out_over_in_everywhere() -> None:
    smaller = Accounting(tokens_in=100, tokens_out=30)
    assert smaller.ratio == pytest.approx(0.3)
    assert smaller.compression_factor == pytest.approx(100 / 30)
    assert Accounting(tokens_in=0, tokens_out=0).ratio == 1.0
    assert not smaller.over_budget
    assert Accounting(tokens_in=100, tokens_out=31, budget=30).over_budget


def test_accounting_dict_has_the_shared_keys() -> None:
    record = Accounting(10, 5, method="m", kept=(0,), dropped=(1,), usage=Usage(model_calls=1, prompt_tokens=3))
    as_dict = record.to_dict()
    assert tuple(as_dict) == ACCOUNTING_KEYS
    assert as_dict["usage"]["total_tokens"] == 3


def test_usage_adds() -> None:
    total = Usage(1, 2, 3, 4, 0.5) + Usage(1, 1, 1, 1, 0.25)
    assert total == Usage(2, 3, 4, 5, 0.75)


def test_registry_did_you_mean_and_override() -> None:
    reg: Registry[int] = Registry("widget")
    reg.register("alpha", 1)
    with pytest.raises(UsageError, match="did you mean 'alpha'"):
        reg.get("alpah")
    with reg.override("alpha", 2):
        assert reg.get("alpha") == 2
    assert reg.get("alpha") == 1
    with reg.override("beta", 3):
        assert "beta" in reg
    assert "beta" not in reg
    with pytest.raises(UsageError, match="non-empty"):
        reg.register("", 4)


def test_pack_skips_what_does_not_fit() -> None:
    assert pack([5, 8, 2, 1], cost=lambda x: x, budget=8) == [5, 2, 1]
    assert pack([3, 3, 3], cost=lambda x: x, budget=8, separator=1) == [3, 3]


def test_text_primitives() -> None:
    assert words("H07 costs 1.5 km, don't") == ["h07", "costs", "1.5", "km", "don't"]
    assert split_sentences("One. Two is 2.5 km.\nThree") == ["One.", "Two is 2.5 km.", "Three"]
    idf = idf_weights([["a", "b"], ["a"]], form="plain")
    assert idf["b"] > idf["a"] > 0


def test_counting_never_fails_on_length() -> None:
    text = "word " * 400_000  # 2,000,000 characters: the tokenizer alone refuses this
    assert tokens.count(text) == pytest.approx(400_000, rel=0.01)
    assert "".join(tokens.iter_chunks(text)) == text


def test_runs_split_in_order_without_dropping() -> None:
    from relaykit.text import runs

    assert runs([3, 3, 9, 1, 1], cost=lambda x: x, budget=6) == [[3, 3], [9], [1, 1]]
    assert runs([1, 1, 1], cost=lambda x: x, budget=None, max_items=2) == [[1, 1], [1]]
    assert runs([], cost=lambda x: x, budget=5) == []


def test_one_unknown_name_wording() -> None:
    from relaykit.errors import unknown_name

    assert str(unknown_name("encoding", "o200k", ["o200k_base", "cl100k_base"])) == (
        "unknown encoding 'o200k'; did you mean 'o200k_base'? choose one of: o200k_base, cl100k_base")
    with pytest.raises(UsageError, match="unknown encoding 'x'; choose one of"):
        tokens.count("hi", "x")
