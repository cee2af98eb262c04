from __future__ import annotations

import pytest

from relaykit.bench.composition import CONDITIONS, Corpus, block_trials, parse_corpus
from relaykit.bench.composition.design import conditions_named
from relaykit.errors import UsageError


def test_eleven_conditions_of_ten_items(corpus: Corpus) -> None:
    trials = block_trials(corpus, block=0, seed=0, conditions=CONDITIONS)
    assert len(trials) == 11 and all(len(t.items) == 10 for t in trials)
    counts = {t.condition.name: len(t.targets) for t in trials}
    assert counts["signal_100"] == 10 and counts["signal_80"] == 8 and counts["signal_30"] == 3
    assert counts["signal_10"] == 1 and all(counts[n] == 5 for n in counts if n.startswith("pos_"))
    assert all(all(i.label in (0, 2, 3) for i in t.items) for t in trials)  # label-1 items are left out


def test_signal_sets_are_nested_and_positions_share_items(corpus: Corpus) -> None:
    trials = {t.condition.name: t for t in block_trials(corpus, 3, 0, CONDITIONS)}
    ids = {name: {i.id for i in t.targets} for name, t in trials.items()}
    assert ids["signal_10"] < ids["signal_30"] < ids["signal_50"] < ids["signal_80"] < ids["signal_100"]
    fifty = {i.id for i in trials["signal_50"].items}
    assert all({i.id for i in t.items} == fifty for n, t in trials.items() if n.startswith("pos_"))
    start = "".join("S" if i.is_signal else "N" for i in trials["pos_start"].items)
    middle = "".join("S" if i.is_signal else "N" for i in trials["pos_middle"].items)
    assert start == "SSSSSNNNNN" and middle == "NNSSSSSNNN"


def test_blocks_are_reproducible_and_differ(corpus: Corpus) -> None:
    first = [t.items for t in block_trials(corpus, 1, 7, CONDITIONS)]
    assert first == [t.items for t in block_trials(corpus, 1, 7, CONDITIONS)]
    assert first != [t.items for t in block_trials(corpus, 2, 7, CONDITIONS)]


def _small(n_signal: int, n_noise: int) -> Corpus:
    lines = [f'{{"id": "s{i}", "source_type": "email", "text": "x", "label": 3}}' for i in range(n_signal)]
    lines += [f'{{"id": "n{i}", "source_type": "email", "text": "y", "label": 0}}' for i in range(n_noise)]
    return parse_corpus(lines, "small.jsonl")


def test_too_few_items_names_the_condition_and_shortfall() -> None:
    with pytest.raises(UsageError, match=r"7 signal items .* signal_100 needs 10: add at least 3"):
        block_trials(_small(7, 20), 0, 0, CONDITIONS)
    with pytest.raises(UsageError, match=r"4 noise items .* signal_50 needs 5: add at least 1"):
        block_trials(_small(12, 4), 0, 0, conditions_named(["signal_100", "signal_80", "signal_50"]))
    assert len(block_trials(_small(7, 5), 0, 0, conditions_named(["signal_50"]))) == 1


def test_unknown_condition() -> None:
    with pytest.raises(UsageError, match="unknown condition"):
        conditions_named(["signal_60"])
