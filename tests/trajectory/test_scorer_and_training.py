import json

import numpy as np
import pytest

from relaykit.errors import UsageError
from relaykit.testing import ScriptedModel
from relaykit.trajectory import LinearScorer, default_scorer, load_scorer, parse
from relaykit.trajectory.features import FEATURES, step_features
from relaykit.trajectory.labels import GroundedPolicy, ModelPolicy, ScriptedPolicy, context_words, label_prefix, snap
from relaykit.trajectory.train import LabelledSet, auc, save_scorer, train_scorer


def text_trajectory() -> list[dict]:
    msgs = [{"role": "system", "content": "Act."}, {"role": "user", "content": "Take the coin."}]
    steps = [("look around", "You see a red door and a table."), ("open red door", "The red door opens."),
             ("go north", "You are in the hall. A coin is here."), ("inventory", "You carry nothing."),
             ("look around", "The hall is empty apart from the coin.")]
    for action, obs in steps:
        msgs += [{"role": "assistant", "content": action}, {"role": "user", "content": obs}]
    return msgs


def test_features_have_one_row_per_past_step_and_read_the_history() -> None:
    x = step_features(parse(text_trajectory()))
    assert x.shape == (4, len(FEATURES))
    col = dict(zip(FEATURES, x.T))
    assert col["age"][0] == 1.0 and col["inv_age"][-1] == 1.0
    assert col["repeated_action"][0] == 1.0 and col["repeated_action"][1] == 0.0  # look around comes again
    assert col["used_later"][0] > 0  # "red door" from step 0's observation is named by step 1's action


def test_counterfactual_labels_with_a_scripted_policy() -> None:
    msgs = text_trajectory()
    gold = "take coin"
    policy = GroundedPolicy(gold, context_words(msgs))
    labels = label_prefix(msgs, policy)
    # only step 2 mentions the coin apart from the current step... which also does: nothing changes
    assert labels.changed == (0, 0, 0, 0)
    policy = GroundedPolicy("sit on table", context_words(msgs))
    assert label_prefix(msgs, policy).changed == (1, 0, 0, 0)  # only step 0's observation mentions the table
    calls: list[int] = []
    scripted = ScriptedPolicy(lambda m, v: calls.append(len(m)) or ("a" if len(m) == 12 else "b"))
    assert label_prefix(msgs, scripted).changed == (1, 1, 1, 1) and len(calls) == 5


def test_graded_labels_use_log_probability_drops() -> None:
    msgs = text_trajectory()
    model = ScriptedModel(logprob=lambda m, text: -1.0 if any("table" in str(x["content"]) for x in m) else -3.0)
    labels = label_prefix(msgs, gold="sit on table", scorer_model=model)
    assert labels.logprob_drop == (2.0, 0.0, 0.0, 0.0) and labels.changed == ()
    assert model.calls == 5


def test_model_policy_snaps_to_valid_actions() -> None:
    policy = ModelPolicy(ScriptedModel(["Go to the north please"]))
    assert policy.next_action([{"role": "user", "content": "x"}], ["go north", "go south", "take coin"]) == "go north"
    assert snap("TAKE COIN", ["take coin"]) == "take coin" and snap("anything\nmore", []) == "anything"


def test_training_finds_a_planted_signal_and_round_trips(tmp_path) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, len(FEATURES)))
    y = (x[:, 6] + 0.3 * rng.normal(size=400) > 0.8).astype(float)
    data = LabelledSet(x, y, tuple(f"ep{i // 20}" for i in range(400)))
    report = train_scorer(data, seed=1)
    assert report.test_auc > 0.9 and report.train_rows + report.test_rows == 400
    assert len(report.test_episodes) == 5 and report.test_rows == 5 * 20  # whole episodes are held out
    path = save_scorer(report.scorer, tmp_path / "s.json")
    assert load_scorer(path).weights == report.scorer.weights
    with pytest.raises(UsageError, match="too few labels"):
        train_scorer(LabelledSet(x[:3], np.zeros(3), ("a", "b", "c")))


def test_auc_and_bad_scorer_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert auc([0.1, 0.9, 0.8], [0, 1, 1]) == 1.0 and auc([0.5, 0.5], [0, 1]) == 0.5
    assert np.isnan(auc([0.1], [1]))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"weights": [1]}))
    with pytest.raises(UsageError, match="not a relaykit linear scorer"):
        load_scorer(bad)
    with pytest.raises(UsageError, match="no scorer file"):
        load_scorer(tmp_path / "missing.json")


def test_the_shipped_scorer_loads_and_scores_every_past_step() -> None:
    scorer = default_scorer()
    assert isinstance(scorer, LinearScorer) and scorer.meta.get("test_auc", 0) > 0.6
    scores = scorer.score(parse(text_trajectory()))
    assert len(scores) == 4 and all(0.0 <= s <= 1.0 for s in scores)
