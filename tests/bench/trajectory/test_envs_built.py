import importlib.util

import pytest

from relaykit.bench.trajectory import LabConfig, open_env
from relaykit.bench.trajectory.envs import episode_messages
from relaykit.bench.trajectory.envs_built import TextWorldMake, _clean, call_text
from relaykit.bench.trajectory.lab import model_free
from relaykit.errors import UsageError
from relaykit.trajectory import validate


def needs(package: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(importlib.util.find_spec(package) is None,
                              reason=f"{package} is not installed (pip install 'relaykit[envs]')")


def test_textworld_observations_lose_the_banner_and_the_prompt() -> None:
    raw = "\n  ___  \n | $$ \\$$ \n\nWelcome! Take the key.\n\n>          -= Hall =-0/1"
    assert _clean(raw) == "Welcome! Take the key."
    assert call_text("get_order", {"order_id": "#W1", "items": [1]}) == "get_order(order_id='#W1', items=[1])"


@pytest.mark.envs
@needs("textworld")
def test_textworld_game_built_with_tw_make_plays_its_walkthrough() -> None:
    assert isinstance(open_env("textworld"), TextWorldMake)
    adapter = TextWorldMake(rooms=2, objects=4, quest_length=5)  # a smaller game than the lab's, for speed
    episode = next(adapter.episodes(1, 3))
    msgs = episode_messages(episode)
    assert validate(msgs) == [] and len(episode.steps) >= 5 and episode.steps[0].valid_actions
    assert "TextWorld" in episode.task and "$$" not in episode.task
    live = adapter.live(episode)  # the same game again: its walkthrough wins it
    scores = [live.step(step.action) for step in episode.steps]
    assert scores[-1][1] == 1.0 and scores[-1][2] and live.valid_actions() is not None


@pytest.mark.envs
@needs("tau2")
def test_tau2_retail_gold_actions_become_a_tool_calling_trajectory() -> None:
    adapter = open_env("tau2-retail")
    episode = next(adapter.episodes(1, 0))
    msgs = episode_messages(episode)
    assert validate(msgs) == [] and sum(bool(m.get("tool_calls")) for m in msgs) == len(episode.steps) >= 5
    first = episode.steps[0]
    assert first.call is not None and not first.observation.startswith("Error")
    assert episode.steps[0].call["name"] in first.action
    row = model_free(episode, "agora", LabConfig(env="tau2-retail"), None)
    assert row["prefixes"] >= 1 and row["valid"] == row["prefixes"]
    with pytest.raises(UsageError, match="teacher-forced"):
        adapter.live(episode)
