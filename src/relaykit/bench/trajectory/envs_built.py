"""More trajectory-lab adapters: TextWorld games built locally with tw-make, and τ²-bench retail/airline.

* ``textworld``: a tiny game is generated and compiled into a temporary folder with TextWorld's own
  generator (what ``tw-make custom`` runs), and its walkthrough is played as the gold path. Playable.
* ``tau2-retail`` / ``tau2-airline``: a task's gold actions are run against τ²'s own tools and
  database (the same driver as the delegation lab) and become a tool-calling chat trajectory. Like
  BFCL these are scored teacher-forced, not played live (there is no user simulator).

Importing this module registers the adapters (the package ``__init__`` does it).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from relaykit.bench.envs.bfcl import call_string
from relaykit.bench.envs.tau2 import Tau2Episode, domain_module, request_text
from relaykit.bench.trajectory.envs import TOOL_SYSTEM, Episode, GoldStep, LiveEpisode, _require, register_env
from relaykit.errors import UsageError


def _clean(text: str) -> str:
    """A TextWorld observation without the ASCII-art banner (lines with no letters) and the prompt line."""
    lines: list[str] = []
    for line in str(text).splitlines():
        if line.startswith(">"):  # the prompt, followed by the status bar (room and score)
            break
        if any(c.isalpha() for c in line) or not line.strip():
            lines.append(line.rstrip())
    return "\n".join(lines).strip()


# --- TextWorld (tw-make) -----------------------------------------------------------------------

class _TWLive:
    def __init__(self, env: Any, task: str, state: Any) -> None:
        self.env, self.task, self._state = env, task, state

    def step(self, action: str) -> tuple[str, float, bool]:
        self._state, _, done = self.env.step(action)
        top = max(1, int(self._state["max_score"] or 1))
        return _clean(self._state.feedback), float(self._state.score) / top, bool(done)

    def valid_actions(self) -> list[str]:
        return list(self._state["admissible_commands"] or [])


@dataclass
class TextWorldMake:
    """Games made with TextWorld's generator (``tw-make custom``), one per seed, in a temporary folder."""

    name: str = "textworld"
    playable: bool = True
    rooms: int = 4
    objects: int = 8
    quest_length: int = 8
    step_limit: int = 60
    _dir: Any = None
    _games: dict[int, str] = field(default_factory=dict)

    def _game(self, seed: int) -> str:
        if seed not in self._games:
            tw = _require("textworld", "textworld")
            generator = _require("textworld.generator", "textworld")
            if self._dir is None:
                self._dir = tempfile.TemporaryDirectory(prefix="relaykit-tw-")
            opts = tw.GameOptions()
            opts.nb_rooms, opts.nb_objects, opts.quest_length = self.rooms, self.objects, self.quest_length
            opts.seeds = seed
            opts.path = str(Path(self._dir.name) / f"game-{seed}.z8")
            opts.force_recompile = True
            self._games[seed] = generator.compile_game(generator.make_game(opts), opts)
        return self._games[seed]

    def _start(self, seed: int) -> tuple[Any, Any]:
        tw = _require("textworld", "textworld")
        infos = tw.EnvInfos(admissible_commands=True, extras=["walkthrough"], objective=True, max_score=True)
        env = tw.start(self._game(seed), request_infos=infos)
        return env, env.reset()

    def episodes(self, n: int, seed: int) -> Iterator[Episode]:
        for k in range(n):
            env, state = self._start(seed + k)
            task = _clean(state.feedback)
            steps = []
            for action in state["extra.walkthrough"] or []:
                valid = tuple(state["admissible_commands"] or ())
                state, _, done = env.step(action)
                steps.append(GoldStep(action, _clean(state.feedback), valid_actions=valid))
                if done:
                    break
            env.close()
            yield Episode(self.name, f"tw-{seed + k}", task, tuple(steps), meta={"seed": seed + k})

    def live(self, episode: Episode) -> LiveEpisode:
        env, state = self._start(int(episode.meta["seed"]))
        return _TWLive(env, _clean(state.feedback), state)


# --- τ²-bench retail / airline -----------------------------------------------------------------

call_text = call_string  # a tool call written as ``name(key='value', ...)`` (the form BFCL's gold actions use)


@dataclass
class Tau2Gold:
    """τ² tasks whose gold actions make a trajectory of at least ``min_steps`` tool calls."""

    name: str = "tau2-retail"
    domain: str = "retail"
    min_steps: int = 5
    playable: bool = False
    _module: Any = None

    def _domain(self) -> Any:
        if self._module is None:
            self._module = domain_module(self.domain)
        return self._module

    def _tasks(self) -> list[Any]:
        tasks = [t for t in self._domain().get_tasks()
                 if t.evaluation_criteria is not None and len(t.evaluation_criteria.actions or []) >= self.min_steps]
        if not tasks:
            raise UsageError(f"τ² {self.domain} has no task with {self.min_steps} or more gold actions; "
                             "lower min_steps")
        return tasks

    def episodes(self, n: int, seed: int) -> Iterator[Episode]:
        tasks = self._tasks()
        for k in range(min(n, len(tasks))):  # the seed picks where to start; it wraps around the task list
            task = tasks[(seed + k) % len(tasks)]
            driver = Tau2Episode(self._domain(), task, ())
            steps = []
            for action in task.evaluation_criteria.actions:
                args = dict(action.arguments)
                result = driver.call(action.name, args)
                steps.append(GoldStep(call_text(action.name, args), result.output,
                                      call={"name": action.name, "arguments": args}))
            yield Episode(self.name, f"{self.domain}-{task.id}", request_text(task), tuple(steps),
                          system=TOOL_SYSTEM, meta={"domain": self.domain, "task": task.id})

    def live(self, episode: Episode) -> LiveEpisode:
        raise UsageError("τ² tasks are scored teacher-forced (next-call accuracy), not played live: "
                         "there is no user simulator")


register_env("textworld", TextWorldMake)
register_env("tau2-retail", lambda: Tau2Gold("tau2-retail", "retail"))
register_env("tau2-airline", lambda: Tau2Gold("tau2-airline", "airline"))
