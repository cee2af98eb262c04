"""The reference reader's and the evidence audit's answers kept between runs (``relaykit.memo.Kept``): the same
results as reading afresh, and a changed input, reader or release never meets an old answer."""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

from relaykit.bench.relay.booker import Reader, read_payload
from relaykit.bench.relay.generate import WorldSpec, generate_world
from relaykit.bench.relay.reading import Kept, kept_facts, kept_prompt_tokens, open_reading_cache, source_digest
from relaykit.bench.relay.researcher import Auditor
from relaykit.bench.relay.runner import RelayConfig, open_lab, run_relay
from relaykit.bench.store import RunStore
from relaykit.cli.app import main

METHODS = ("passthrough", "extract-rules", "prune", "truncate", "tfidf")
TIMES = ("seconds", "booker_seconds", "compression_seconds")


def _results(store_path: Path, reading: Kept | None) -> dict[str, Any]:
    store = RunStore(store_path)
    lab, run_id = open_lab(store, RelayConfig(methods=METHODS, goals=6, embedder="hashing"), reading=reading)
    run_relay(store, lab, run_id)
    return {key: {k: v for k, v in value.items() if k not in TIMES} for key, value in store.results(run_id).items()}


def test_kept_answers_give_the_same_results_as_reading_afresh(tmp_path: Path) -> None:
    plain = _results(tmp_path / "plain.sqlite", None)
    first_cache = open_reading_cache(tmp_path / "readings.sqlite")
    first = _results(tmp_path / "first.sqlite", first_cache)
    assert first_cache.hits == 0 and first_cache.misses > 0
    first_cache.close()
    again = open_reading_cache(tmp_path / "readings.sqlite")  # a new process, as a repeated run opens it
    repeated = _results(tmp_path / "again.sqlite", again)
    assert again.misses == 0 and again.hits == first_cache.misses  # every reading and audit came from disk
    assert plain and plain == first == repeated
    assert stat.S_IMODE((tmp_path / "readings.sqlite").stat().st_mode) == 0o600


def _goal_and_trace() -> tuple[Any, str]:
    world = generate_world(WorldSpec(goals=1))
    goal = world.goals[0]
    return goal, Auditor().research(world, goal).trace


def _facts(kept: Kept, goal: Any, text: str) -> dict[str, Any]:
    return kept_facts(kept, goal, text, lambda: read_payload(goal, text, text))


def test_a_changed_input_is_read_afresh(tmp_path: Path) -> None:
    goal, trace = _goal_and_trace()
    kept = open_reading_cache(tmp_path / "r.sqlite")
    truth = _facts(kept, goal, trace)
    assert truth == read_payload(goal, trace, trace) and kept.misses == 1
    # plant a wrong answer for this exact input: the reader now answers from the cache...
    key = "reader\0" + json.dumps([goal.text, goal.amenity, trace])
    kept.put(key, [{"id": "H999", "attributes": {}, "verdicts": {}, "eliminated": True}])
    assert list(_facts(kept, goal, trace)) == ["H999"]
    assert Reader(kept).book(goal, trace, trace).notes["options_read"] == 1  # the Booker reads through it
    # ...but a payload that differs by one character, or another goal, is read again
    changed = trace + "\n"
    assert _facts(kept, goal, changed) == truth
    other = goal.model_copy(update={"amenity": "spa" if goal.amenity != "spa" else "gym"})
    assert _facts(kept, other, trace) == read_payload(other, trace, trace)


def test_the_prompt_token_count_is_kept_per_goal_and_payload(tmp_path: Path) -> None:
    goal, trace = _goal_and_trace()
    kept = open_reading_cache(tmp_path / "r.sqlite")
    assert kept is not None
    booking = Reader(kept).book(goal, trace, trace)
    assert booking.prompt_tokens == Reader().book(goal, trace, trace).prompt_tokens
    kept.put("prompt-tokens\0" + json.dumps([goal.text, trace]), 7)  # planted: read back for this input only
    assert Reader(kept).book(goal, trace, trace).prompt_tokens == 7
    assert kept_prompt_tokens(kept, goal, trace + " ", lambda: 8) == 8


def test_another_tokenizer_release_reads_afresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.metadata

    first = open_reading_cache(tmp_path / "r.sqlite")
    real = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version",
                        lambda name: "0.0.0-other" if name == "bpe-openai" else real(name))
    other = open_reading_cache(tmp_path / "r.sqlite")
    assert first is not None and other is not None and first.salt != other.salt


def test_a_changed_reader_or_release_reads_afresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "src" / "fakereader"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "rules.py").write_text("LIMIT = 1\n")
    (tmp_path / "src" / "fakesolo.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    before = source_digest(["fakereader", "fakesolo"], "1.0")
    assert before == source_digest(["fakesolo", "fakereader"], "1.0")  # order does not matter
    assert before != source_digest(["fakereader", "fakesolo"], "1.1")  # another release
    (package / "rules.py").write_text("LIMIT = 2\n")  # a file inside a package edited
    edited = source_digest(["fakereader", "fakesolo"], "1.0")
    (tmp_path / "src" / "fakesolo.py").write_text("X = 2\n")  # a single module edited
    assert len({before, edited, source_digest(["fakereader", "fakesolo"], "1.0")}) == 3
    sys.modules.pop("fakereader", None)

    old = Kept(tmp_path / "k.sqlite", before)
    old.put("the same input", {"answer": "old"})
    old.close()
    assert Kept(tmp_path / "k.sqlite", before).get("the same input") == {"answer": "old"}
    new = Kept(tmp_path / "k.sqlite", edited)
    assert new.get("the same input") is None and new.misses == 1  # the old reader's answer is never read
    assert new._db.execute("SELECT COUNT(*) FROM readings").fetchone()[0] == 0  # and is dropped


def test_the_cli_keeps_readings_next_to_the_run_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "runs.sqlite"
    args = ["bench", "relay", "--goals", "3", "--methods", "passthrough,extract-rules,truncate", "--embedder",
            "hashing", "--store", str(store), "--json"]
    outputs = []
    for _ in range(2):
        with pytest.raises(SystemExit) as info:
            main(args)
        assert info.value.code == 0
        result = json.loads(capsys.readouterr().out)
        outputs.append({k: v for k, v in result.items() if k != "run_id"})
    assert outputs[0] == outputs[1]
    cache = open_reading_cache(tmp_path / "readings.sqlite")
    assert cache is not None  # per payload: the reader's facts, its prompt's tokens and the audit
    assert cache._db.execute("SELECT COUNT(*) FROM readings").fetchone()[0] == 3 * 3 * 3


def test_an_unusable_cache_file_is_left_alone_and_the_run_reads_afresh(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "readings.sqlite").write_bytes(b"not a database, " * 100)
    assert open_reading_cache(tmp_path / "readings.sqlite") is None
    with pytest.raises(SystemExit) as info:
        main(["bench", "relay", "--goals", "2", "--methods", "passthrough", "--embedder", "hashing", "--store",
              str(tmp_path / "runs.sqlite"), "--json"])
    out, err = capsys.readouterr()
    assert info.value.code == 0 and json.loads(out)["methods"]["passthrough"]["n"] == 2
    assert "cannot be used as a cache" in err
    assert (tmp_path / "readings.sqlite").read_bytes() == b"not a database, " * 100
