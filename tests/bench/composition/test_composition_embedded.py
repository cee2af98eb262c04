"""One real trial on the embedded model: the whole pipeline (prompt, grammar-constrained JSON, scoring) runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from relaykit.bench.composition import CompositionConfig, Corpus, execute, start_run, write_corpus
from relaykit.bench.store import RunStore
from relaykit.models import open_model


@pytest.mark.embedded_model
def test_one_embedded_trial_is_scored_and_stored(tmp_path: Path, corpus: Corpus) -> None:
    path = tmp_path / "corpus.jsonl"
    write_corpus(corpus.items, path)
    store = RunStore(tmp_path / "runs.sqlite")
    config = CompositionConfig(corpus=str(path), models=("local",), blocks=1, conditions=("signal_10",),
                               max_tokens=150, max_repairs=0)
    run_id = start_run(store, corpus, config)
    assert execute(store, run_id, corpus, config, {"local": open_model("local")}) == 1
    (result,) = store.results(run_id).values()
    assert result["calls"] == 1 and result["prompt_tokens"] > 200 and result["n_targets"] == 1
    assert 0.0 <= result["relacc"] <= 1.0 and isinstance(result["parsed"], bool)
    assert len(result["items"]) == 10
