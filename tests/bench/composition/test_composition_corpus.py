from __future__ import annotations

import json
from pathlib import Path

import pytest

from relaykit.bench.composition import SyntheticSpec, generate_corpus, load_corpus, parse_corpus, write_corpus
from relaykit.errors import UsageError


def line(**fields: object) -> str:
    base = {"id": "a", "source_type": "email", "text": "hello", "label": 2, "fact_types": ["status"]}
    return json.dumps({**base, **fields})


def test_parse_keeps_fields_and_extras() -> None:
    corpus = parse_corpus([line(), "", line(id="b", label=0, fact_types=[], origin="x")])
    assert [i.id for i in corpus.items] == ["a", "b"] and corpus.items[1].extra == {"origin": "x"}
    assert [i.id for i in corpus.signal] == ["a"] and [i.id for i in corpus.noise] == ["b"]
    assert corpus.fact_types == ("status",) and not corpus.synthetic


def test_every_problem_is_named() -> None:
    lines = [line(id="a"), line(id="b", label=5), line(id="c", text=" "), "{oops", line(id="a"), '{"id": "d"}']
    with pytest.raises(UsageError) as info:
        parse_corpus(lines, "c.jsonl")
    message = str(info.value)
    for part in ("id b", "label 5", "id c", "no text", "line 4: not JSON", "'a' appears more than once",
                 "line 6 (id d): no 'source_type'"):
        assert part in message


def test_empty_and_missing_corpus() -> None:
    with pytest.raises(UsageError, match="empty"):
        parse_corpus(["", " "])
    with pytest.raises(UsageError, match="relaykit context corpus"):
        load_corpus("/no/such/corpus.jsonl")


def test_synthetic_corpus_follows_the_spec(tmp_path: Path) -> None:
    spec = SyntheticSpec(counts={"meeting": 30, "email": 100, "chat": 0}, signal_rates={"meeting": 0.7, "email": 0.1})
    corpus = generate_corpus(spec)
    summary = corpus.summary()
    assert summary["meeting"]["signal"] == 21 and summary["email"]["signal"] == 10 and "chat" not in summary
    assert corpus.synthetic and all(i.extra == {"synthetic": True} for i in corpus.items)
    assert all(i.fact_types for i in corpus.signal) and not any(i.fact_types for i in corpus.noise)
    assert generate_corpus(spec) == corpus and generate_corpus(SyntheticSpec(seed=5)) != corpus
    write_corpus(corpus.items, tmp_path / "c.jsonl")
    again = load_corpus(tmp_path / "c.jsonl")
    assert again.items == corpus.items and again.synthetic and again.digest() == corpus.digest()


def test_synthetic_spec_rejects_nonsense() -> None:
    with pytest.raises(UsageError, match="unknown source type"):
        SyntheticSpec(counts={"fax": 3})
    with pytest.raises(UsageError, match="signal rate"):
        SyntheticSpec(signal_rates={"email": 1.5})
