from __future__ import annotations

import pytest
from pydantic import ValidationError

from relaykit.bench.composition import CONDITIONS, Corpus, block_trials, fact_type_recall, relacc_credit, score_trial
from relaykit.bench.composition.scoring import Judgement, answer_schema, messages_for


def test_relacc_credit() -> None:
    assert [relacc_credit(2, m) for m in (2, 1, 3, 0, None)] == [1.0, 0.5, 0.5, 0.0, 0.0]
    assert relacc_credit(3, 0) == 0.0


def test_fact_type_recall_gives_half_credit_for_near_types() -> None:
    assert fact_type_recall(["decision", "action_item"], ["decision", "action_item"]) == 1.0
    assert fact_type_recall(["decision"], ["action_item"]) == 0.5
    assert fact_type_recall(["decision", "blocker"], ["status"]) == 0.0
    assert fact_type_recall([], ["status"]) is None


def test_score_trial(corpus: Corpus) -> None:
    trial = block_trials(corpus, 0, 0, CONDITIONS)[2]  # signal_50
    perfect = {i.id: Judgement(i.label, i.fact_types) for i in trial.items}
    result = score_trial(trial, perfect)
    assert result["relacc"] == 1.0 and result["fact_type_recall"] == 1.0 and result["parsed"]
    off = {i.id: Judgement(min(3, i.label + 1), ()) for i in trial.items}
    targets = trial.targets
    expected = sum(0.5 if t.label == 2 else 1.0 for t in targets) / len(targets)
    assert score_trial(trial, off)["relacc"] == pytest.approx(expected)
    failed = score_trial(trial, None)
    assert failed["relacc"] == 0.0 and failed["fact_type_recall"] == 0.0 and not failed["parsed"]
    partial = score_trial(trial, {t.id: Judgement(t.label, t.fact_types) for t in targets[:1]})
    assert partial["relacc"] == pytest.approx(1 / len(targets)) and partial["scored_share"] == 0.1


def test_schema_admits_only_prompt_ids_and_known_types() -> None:
    schema = answer_schema(["a", "b"], ["status", "decision"])
    schema.model_validate({"items": [{"id": "a", "score": 3, "fact_types": ["decision"]}]})
    for bad in ({"id": "z", "score": 1}, {"id": "a", "score": 4}, {"id": "a", "score": 1, "fact_types": ["x"]}):
        with pytest.raises(ValidationError):
            schema.model_validate({"items": [bad]})


def test_prompt_lists_every_item_and_the_vocabulary(corpus: Corpus) -> None:
    trial = block_trials(corpus, 0, 0, CONDITIONS)[0]
    system, user = messages_for(trial, corpus.fact_types)
    assert "action_item" in system["content"] and all(f"[{i.id}]" in user["content"] for i in trial.items)
