"""A tiny scripted environment for lab tests (no real environment needed)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from relaykit.bench.trajectory.envs import Episode, GoldStep, LiveEpisode

ROOMS = ["hall", "kitchen", "garden", "attic", "cellar", "study"]


def gold(k: int) -> Episode:
    steps = [GoldStep(f"go to {room}", f"You are in the {room}. There is a {room}-box here.") for room in ROOMS]
    steps.append(GoldStep("open hall-box", "You find the coin."))
    return Episode("fake", f"ep{k}", "Find the coin. It is in the hall-box.", tuple(steps))


class FakeLive:
    def __init__(self) -> None:
        self.task = "Find the coin. It is in the hall-box."

    def step(self, action: str) -> tuple[str, float, bool]:
        done = action == "open hall-box"
        return ("You find the coin." if done else "Nothing here."), (1.0 if done else 0.0), done

    def valid_actions(self) -> list[str]:
        return ["open hall-box", "go to hall", "look around"]


@dataclass
class FakeEnv:
    name: str = "fake"
    playable: bool = True

    def episodes(self, n: int, seed: int) -> Iterator[Episode]:
        return (gold(seed + k) for k in range(n))

    def live(self, episode: Episode) -> LiveEpisode:
        return FakeLive()
