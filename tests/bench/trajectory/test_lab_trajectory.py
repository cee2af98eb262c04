import importlib.util

import pytest
from lab_fakes import FakeEnv

from relaykit.bench.reports import report_for
from relaykit.bench.store import RunStore
from relaykit.bench.trajectory import LabConfig, register_env, run_lab
from relaykit.bench.trajectory.envs import episode_messages, open_env, parse_call
from relaykit.bench.trajectory.report import html_report, summarize
from relaykit.errors import UsageError
from relaykit.testing import ScriptedModel
from relaykit.trajectory import validate

register_env("fake", FakeEnv)


def policy_model() -> ScriptedModel:
    """Opens the box only when the context still says which box holds the coin."""
    def answer(request):  # type: ignore[no-untyped-def]
        text = " ".join(str(m.get("content")) for m in request.messages[1:])
        return "open hall-box" if "hall-box" in text else "look around"
    return ScriptedModel(answer)


def test_model_free_and_policy_parts_are_recorded_and_resumable(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = RunStore(tmp_path / "runs.sqlite")
    cfg = LabConfig(env="fake", methods=("none", "agora", "selective-context"), episodes=2, policy="scripted")
    model = policy_model()
    from relaykit.trajectory.selective import word_info

    run_id = run_lab(cfg, store, model=model, token_info=word_info)
    results = store.results(run_id)
    assert len(results) == 2 * 3 * 2
    rows = {r["method"]: r for r in summarize(results)}
    assert rows["none"]["valid_rate"] == 1.0 and rows["none"]["grounding_recall"] == 1.0
    assert rows["none"]["reward"] == 1.0 and rows["none"]["retention"] == 1.0
    assert rows["agora"]["ratio"] < 1.0 and rows["agora"]["valid_rate"] == 1.0
    assert rows["selective-context"]["grounding_recall"] < 1.0  # token pruning drops the words actions need
    calls = model.calls
    run_lab(cfg, store, run_id=run_id, model=model, token_info=word_info)
    assert model.calls == calls  # resumed: nothing recomputed
    assert report_for(store.get_run(run_id)).kind == "trajectory"
    assert "<table" in html_report(store, store.get_run(run_id))


def test_unknown_env_and_bad_calls() -> None:
    with pytest.raises(UsageError, match="unknown environment"):
        open_env("nope")
    assert parse_call("mv(source='a', destination='b')") == ("mv", [], {"source": "a", "destination": "b"})
    assert parse_call("sort('f.txt')") == ("sort", ["f.txt"], {})
    with pytest.raises(UsageError, match="cannot read the call"):
        parse_call("os.system('x')")


def needs(package: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(importlib.util.find_spec(package) is None,
                              reason=f"{package} is not installed (pip install 'relaykit[envs]')")


@pytest.mark.envs
@needs("textworld_express")
def test_textworld_express_gold_episode_is_a_valid_trajectory() -> None:
    episode = next(open_env("twx").episodes(1, 1))
    msgs = episode_messages(episode)
    assert len(episode.steps) >= 3 and validate(msgs) == [] and episode.steps[0].valid_actions


def test_twx_rooms_is_a_dev_environment_of_object_listings() -> None:
    from relaykit.bench.trajectory.decisions import DecisionConfig
    from relaykit.bench.trajectory.envs import TWX_GAMES, TWX_ROOM_GAMES, TextWorldExpress

    rooms, twx = open_env("twx-rooms"), open_env("twx")
    assert isinstance(rooms, TextWorldExpress) and isinstance(twx, TextWorldExpress)
    assert rooms.name == "twx-rooms" and rooms.games == TWX_ROOM_GAMES != TWX_GAMES
    assert twx.games == TWX_GAMES  # the old twx cases are unchanged
    assert "twc" in {game for game, _ in TWX_ROOM_GAMES} and "twx-rooms" in DecisionConfig(envs=()).dev_envs


def test_scienceworld_dev_and_bfcl_dev_never_read_held_out_tasks_or_entries() -> None:
    from relaykit.bench.trajectory.decisions import DecisionConfig
    from relaykit.bench.trajectory.envs import (
        BFCL_DEV_FIRST,
        SCIWORLD_DEV_TASKS,
        SCIWORLD_TASKS,
        BFCLMultiTurn,
        ScienceWorld,
    )

    sw, held = open_env("scienceworld-dev"), open_env("scienceworld")
    assert isinstance(sw, ScienceWorld) and isinstance(held, ScienceWorld)
    assert sw.tasks == SCIWORLD_DEV_TASKS and held.tasks == SCIWORLD_TASKS
    assert not set(SCIWORLD_DEV_TASKS) & set(SCIWORLD_TASKS)
    dev, bfcl = open_env("bfcl-dev"), open_env("bfcl")
    assert isinstance(dev, BFCLMultiTurn) and isinstance(bfcl, BFCLMultiTurn)
    questions = [{"id": f"q{k}"} for k in range(200)]
    assert [q["id"] for q in bfcl._entries(questions, 5, 105)] == [f"q{k}" for k in range(105, 110)]  # unchanged
    for seed in (0, 105, 149, 1000):  # the seed picks a start among entries 120+ and wraps around them
        picked = [int(q["id"][1:]) for q in dev._entries(questions, 5, seed)]
        assert len(picked) == 5 and min(picked) >= BFCL_DEV_FIRST >= 120
    assert dev._entries(questions[:100], 5, 105) == []
    dev_envs = DecisionConfig(envs=()).dev_envs
    assert {"scienceworld-dev", "bfcl-dev"} <= set(dev_envs) and not {"scienceworld", "bfcl"} & set(dev_envs)


@pytest.mark.envs
@needs("scienceworld")
def test_scienceworld_dev_gold_episodes_are_other_tasks() -> None:
    from relaykit.bench.trajectory.envs import SCIWORLD_DEV_TASKS

    episodes = list(open_env("scienceworld-dev").episodes(2, 105))
    assert [e.meta["task"] for e in episodes] == list(SCIWORLD_DEV_TASKS[:2])
    assert all(validate(episode_messages(e)) == [] and len(e.steps) >= 10 for e in episodes)


@pytest.mark.envs
@needs("bfcl_eval")
def test_bfcl_dev_gold_episodes_come_from_entries_120_on() -> None:
    from relaykit.bench.trajectory.envs import _bfcl_file

    ids = [q["id"] for q in _bfcl_file("BFCL_v4_multi_turn_base.json")]
    episodes = list(open_env("bfcl-dev").episodes(2, 105))
    assert episodes and all(ids.index(e.episode_id) >= 120 for e in episodes)
    assert all(validate(episode_messages(e)) == [] for e in episodes)


@pytest.mark.envs
@needs("textworld_express")
def test_twx_rooms_episodes_put_listed_objects_away() -> None:
    episodes = list(open_env("twx-rooms").episodes(2, 105))
    assert [e.meta["game"] for e in episodes] == ["twc", "sorting"]
    assert all(validate(episode_messages(e)) == [] for e in episodes)
    actions = [s.action for e in episodes for s in e.steps]
    assert any(a.startswith("put ") for a in actions) and all(e.episode_id.startswith(e.meta["game"]) for e in episodes)


@pytest.mark.envs
@needs("bfcl_eval")
def test_bfcl_gold_episode_runs_the_tool_backends() -> None:
    episode = next(open_env("bfcl").episodes(1, 0))
    msgs = episode_messages(episode)
    assert validate(msgs) == [] and any(m.get("tool_calls") for m in msgs)
    assert "document" in episode.steps[0].observation and len(episode.steps) >= 4


@pytest.mark.envs
@needs("scienceworld")
def test_scienceworld_gold_episode() -> None:
    episode = next(open_env("scienceworld").episodes(1, 0))
    assert validate(episode_messages(episode)) == [] and len(episode.steps) >= 3
