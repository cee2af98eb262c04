"""Environment adapters for the trajectory lab: gold trajectories and live episodes from real, offline envs.

Each adapter yields :class:`Episode` objects (a gold path with its observations, turned into a chat
message list by :func:`episode_messages`) and, where the environment can be played, a live
:class:`LiveEpisode` for a model policy. Environments are optional installs (``relaykit[envs]``);
a missing one is a ``UsageError`` that names the install command.
"""

from __future__ import annotations

import importlib
import inspect
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from relaykit.bench.envs import bfcl
from relaykit.errors import UsageError
from relaykit.registry import Registry

if TYPE_CHECKING:
    from relaykit.bench.store import RunStore

TEXT_SYSTEM = ("You are an agent in a text environment. Reply with exactly one action, using the words "
               "the environment understands (for example: look around, open door to kitchen, take coin).")
TOOL_SYSTEM = ("You are an agent that works by calling tools. Call one tool at a time; when the user's "
               "request is done, wait for the next one.")


@dataclass(frozen=True)
class GoldStep:
    """One step of a gold path: the action (text, or a tool call) and what the environment answered."""

    action: str
    observation: str
    call: dict[str, Any] | None = None  # {"name": ..., "arguments": {...}} for tool environments
    user_before: str | None = None  # a new user request that arrives before this step (multi-turn suites)
    valid_actions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Episode:
    env: str
    episode_id: str
    task: str
    steps: tuple[GoldStep, ...]
    system: str = TEXT_SYSTEM
    meta: dict[str, Any] = field(default_factory=dict)


EPISODES_EVENT = "episode"
"""The run-store event kind under which a lab run keeps its episodes, one event each, in order."""


def episode_record(env: str, episode: Episode) -> dict[str, Any]:
    """An episode as a JSON-ready record (a run-store event), with the lab environment it came from."""
    return {"lab_env": env, **asdict(episode)}


def episode_from_record(record: Mapping[str, Any]) -> tuple[str, Episode]:
    """The lab environment and the episode of an :func:`episode_record` record."""
    steps = tuple(GoldStep(step["action"], step["observation"], call=step.get("call"),
                           user_before=step.get("user_before"), valid_actions=tuple(step.get("valid_actions") or ()))
                  for step in record["steps"])
    episode = Episode(record["env"], record["episode_id"], record["task"], steps, system=record["system"],
                      meta=dict(record.get("meta") or {}))
    return str(record["lab_env"]), episode


def pinned_episodes(run: tuple[RunStore, str] | None,
                    generate: Callable[[], list[tuple[str, Episode]]]) -> list[tuple[str, Episode]]:
    """The episodes of ``run`` (a store and a run id) as the run store keeps them: generated (``generate``) and stored
    the first time, read back every time after, so that a resumed run, and both of the runner's reads of a lab's units,
    score the same gold paths (TextWorld-Express and ScienceWorld do not regenerate the same gold path for a seed from
    one process to the next). What is stored is what is scored, from the first run on (the store strips URL
    credentials). Without a run (a lab not pinned to one), just ``generate()``."""
    if run is None:
        return generate()
    store, run_id = run
    stored = store.events(run_id, EPISODES_EVENT)
    if not stored:  # the first time (or a run from before episodes were stored)
        store.log_events(run_id, EPISODES_EVENT, [episode_record(env, episode) for env, episode in generate()])
        stored = store.events(run_id, EPISODES_EVENT)
    return [episode_from_record(event["payload"]) for event in stored]


def episode_messages(episode: Episode, upto: int | None = None) -> list[dict[str, Any]]:
    """The chat messages of the episode's first ``upto`` steps (all of them by default)."""
    msgs: list[dict[str, Any]] = [{"role": "system", "content": episode.system},
                                  {"role": "user", "content": episode.task}]
    for k, step in enumerate(episode.steps[:upto]):
        if step.user_before is not None and k > 0:
            msgs.append({"role": "user", "content": step.user_before})
        if step.call is None:
            msgs += [{"role": "assistant", "content": step.action}, {"role": "user", "content": step.observation}]
            continue
        cid = f"call_{k}"
        msgs.append({"role": "assistant", "content": None, "tool_calls": [{
            "id": cid, "type": "function",
            "function": {"name": step.call["name"], "arguments": json.dumps(step.call["arguments"])}}]})
        msgs.append({"role": "tool", "tool_call_id": cid, "content": step.observation})
    return msgs


def history_before(episode: Episode, t: int) -> list[dict[str, Any]]:
    """What the agent has seen before gold action ``t``: the chat messages of the first ``t`` steps and, when action
    ``t`` opens a user's turn (a multi-turn BFCL or tau2 episode), that turn's request as the last message. (The
    decision-point lab left the request out before the twenty-second wave, so at a turn's first call the history
    lacked what the call answers; ``episode_messages(episode, t)`` still does, as the plain trajectory lab reads it.)"""
    messages = episode_messages(episode, t)
    request = episode.steps[t].user_before if 0 < t < len(episode.steps) else None
    return [*messages, {"role": "user", "content": request}] if request is not None else messages


class LiveEpisode(Protocol):
    """A playable episode: a task, observations, valid actions and a score in [0, 1]."""

    task: str

    def step(self, action: str) -> tuple[str, float, bool]: ...

    def valid_actions(self) -> list[str]: ...


class Adapter(Protocol):
    name: str
    playable: bool

    def episodes(self, n: int, seed: int) -> Iterator[Episode]: ...

    def live(self, episode: Episode) -> LiveEpisode: ...


def _require(module: str, package: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise UsageError(f"the {package} environment is not installed; run: pip install 'relaykit[envs]' "
                         f"(or pip install {package})") from None


# --- TextWorld-Express -------------------------------------------------------------------------

TWX_GAMES = (("coin", "numLocations=9,includeDoors=1,numDistractorItems=3"),
             ("cookingworld", "numLocations=3,numIngredients=2,numDistractorItems=2,includeDoors=0"))
TWX_ROOM_GAMES = (("twc", "numLocations=3,numItemsToPutAway=4,includeDoors=0,limitInventorySize=0"),
                  ("sorting", ""),
                  ("twc", "numLocations=2,numItemsToPutAway=4,includeDoors=1,limitInventorySize=0"),
                  ("mapreader", "numLocations=8,maxDistanceApart=4,maxDistractorItemsPerLocation=3,includeDoors=0,"
                                "limitInventorySize=0"),
                  ("peckingorder", ""))
"""``twx-rooms``: rooms full of objects where the next action names one of a listing ("put teapot in kitchen
cupboard", "take 6cm of cedar"), and a map read once then walked (a dev environment of that shape)."""


class _TWXLive:
    def __init__(self, env: Any, task: str, infos: dict[str, Any]) -> None:
        self.env, self.task, self._infos = env, task, infos

    def step(self, action: str) -> tuple[str, float, bool]:
        obs, _, done, self._infos = self.env.step(action)
        return str(obs), float(self._infos.get("score", 0.0)), bool(done)

    def valid_actions(self) -> list[str]:
        return list(self._infos.get("validActions") or [])


@dataclass
class TextWorldExpress:
    name: str = "twx"
    playable: bool = True
    step_limit: int = 60
    games: tuple[tuple[str, str], ...] = TWX_GAMES
    _env: Any = None

    def _environment(self) -> Any:
        if self._env is None:
            twx = _require("textworld_express", "textworld-express")
            self._env = twx.TextWorldExpressEnv(envStepLimit=self.step_limit)
        return self._env

    def _reset(self, game: str, params: str, seed: int) -> tuple[str, str, dict[str, Any]]:
        env = self._environment()
        env.load(gameName=game, gameParams=params)
        obs, infos = env.reset(seed=seed, gameFold="train", generateGoldPath=True)
        return str(infos.get("taskDescription", "")), str(obs), infos

    def episodes(self, n: int, seed: int) -> Iterator[Episode]:
        for k in range(n):
            game, params = self.games[k % len(self.games)]
            task, obs0, infos = self._reset(game, params, seed + k)
            gold = list(self._environment().getGoldActionSequence())
            steps = []
            for action in gold:
                valid = tuple(infos.get("validActions") or ())
                obs, _, done, infos = self._environment().step(action)
                steps.append(GoldStep(action, str(obs), valid_actions=valid))
                if done:
                    break
            yield Episode(self.name, f"{game}-{seed + k}", f"{task}\n{obs0}",
                          tuple(steps), meta={"game": game, "params": params, "seed": seed + k})

    def live(self, episode: Episode) -> LiveEpisode:
        task, obs, infos = self._reset(episode.meta["game"], episode.meta["params"], episode.meta["seed"])
        return _TWXLive(self._environment(), f"{task}\n{obs}", infos)


# --- ScienceWorld ------------------------------------------------------------------------------

SCIWORLD_TASKS = ("find-living-thing", "boil", "find-plant", "melt")
"""``scienceworld``: the held-out tasks (seed 105 reads variations 5-9; the shipped scorer trained on seed 0)."""
SCIWORLD_DEV_TASKS = ("use-thermometer", "power-component", "test-conductivity", "chemistry-mix", "freeze")
"""``scienceworld-dev``: other ScienceWorld tasks, none of :data:`SCIWORLD_TASKS`, with gold paths of 10-60 steps: dev
data of the held-out shape (rooms, containers, substances) to tune on without reading a held-out case."""


class _SWLive:
    def __init__(self, env: Any, task: str) -> None:
        self.env, self.task = env, task
        self._valid: list[str] = []

    def step(self, action: str) -> tuple[str, float, bool]:
        obs, _, done, info = self.env.step(action)
        self._valid = list(info.get("valid") or [])
        return str(obs), max(0.0, float(info.get("score", 0))) / 100.0, bool(done)

    def valid_actions(self) -> list[str]:
        return self._valid or list(self.env.get_valid_action_object_combinations()[:200])


@dataclass
class ScienceWorld:
    name: str = "scienceworld"
    playable: bool = True
    step_limit: int = 60
    tasks: tuple[str, ...] = SCIWORLD_TASKS
    _env: Any = None

    def _environment(self) -> Any:
        if self._env is None:
            sw = _require("scienceworld", "scienceworld")
            self._env = sw.ScienceWorldEnv("", envStepLimit=self.step_limit)
        return self._env

    def _load(self, task: str, variation: int) -> tuple[str, str]:
        env = self._environment()
        env.load(task, variation, generateGoldPath=True)
        obs, _ = env.reset()
        return str(env.get_task_description()), str(obs)

    def episodes(self, n: int, seed: int) -> Iterator[Episode]:
        env = self._environment()
        for k in range(n):
            task_name = self.tasks[k % len(self.tasks)]
            variation = (seed + k) % 10
            task, obs0 = self._load(task_name, variation)
            steps = []
            for action in env.get_gold_action_sequence():
                obs, _, done, _info = env.step(action)
                steps.append(GoldStep(action, str(obs)))
                if done:
                    break
            yield Episode(self.name, f"{task_name}-{variation}", f"{task}\n{obs0}", tuple(steps),
                          meta={"task": task_name, "variation": variation})

    def live(self, episode: Episode) -> LiveEpisode:
        task, obs = self._load(episode.meta["task"], episode.meta["variation"])
        return _SWLive(self._environment(), f"{task}\n{obs}")


# --- BFCL multi-turn (tool calls) --------------------------------------------------------------

_bfcl_file = bfcl.data_file  # BFCL data and backends come from the shared adapter in relaykit.bench.envs
parse_call = bfcl.parse_call


BFCL_DEV_FIRST = 120
"""``bfcl-dev`` reads BFCL multi-turn base entries from this index on only (120-199): ``bfcl`` at the lab's seed 105
reads entries 105-109 (held out; 100-119 are never read by dev) and the shipped scorer trained on entries 0-11. The
file comes in blocks of 50 entries by main tool class, so 120-149 share the held-out block's class (TradingBot) and
150-199 add another (TravelAPI): dev data of the held-out shape, split by entry."""


@dataclass
class BFCLMultiTurn:
    name: str = "bfcl"
    playable: bool = False
    dataset: str = "BFCL_v4_multi_turn_base.json"
    first: int = 0
    """The first entry this environment may read; with ``first`` set, the seed picks where to start among the
    entries from there on and wraps around them (``first=0``: entries ``seed`` to ``seed + n``, as before)."""

    def _instances(self, entry: dict[str, Any]) -> dict[str, Callable[..., Any]]:
        return bfcl.backend_methods(entry)

    def _run(self, methods: dict[str, Callable[..., Any]], text: str) -> tuple[dict[str, Any], str]:
        name, args, kwargs = parse_call(text)
        fn = methods.get(name)
        if fn is None:
            return {"name": name, "arguments": kwargs}, f"Error: unknown function {name}"
        params = list(inspect.signature(fn).parameters)
        kwargs = {**dict(zip(params, args)), **kwargs}
        try:
            result = fn(**kwargs)
        except Exception as exc:  # the backends signal misuse with plain exceptions
            result = f"Error during execution: {exc}"
        out = result if isinstance(result, str) else json.dumps(result, default=str)
        return {"name": name, "arguments": kwargs}, out

    def episodes(self, n: int, seed: int) -> Iterator[Episode]:
        questions = _bfcl_file(self.dataset)
        answers = {a["id"]: a["ground_truth"] for a in _bfcl_file(f"possible_answer/{self.dataset}")}
        for entry in self._entries(questions, n, seed):
            methods = self._instances(entry)
            steps: list[GoldStep] = []
            for turn, calls in zip(entry["question"], answers[entry["id"]]):
                request = bfcl.turn_text(turn)
                for j, text in enumerate(calls):
                    call, result = self._run(methods, text)
                    steps.append(GoldStep(text, result, call=call, user_before=request if j == 0 else None))
            if steps:
                task = str(steps[0].user_before)
                yield Episode(self.name, entry["id"], task, tuple(steps), system=TOOL_SYSTEM,
                              meta={"classes": entry["involved_classes"]})

    def _entries(self, questions: list[dict[str, Any]], n: int, seed: int) -> list[dict[str, Any]]:
        if not self.first:
            return questions[seed:seed + n]
        pool = questions[self.first:]
        return [pool[(seed + k) % len(pool)] for k in range(min(n, len(pool)))] if pool else []

    def live(self, episode: Episode) -> LiveEpisode:
        raise UsageError("BFCL multi-turn is scored teacher-forced (next-call accuracy), not played live")


ADAPTERS: Registry[Callable[[], Adapter]] = Registry("environment")
"""The trajectory lab's environments by name."""


def register_env(name: str, factory: Callable[[], Adapter]) -> None:
    ADAPTERS.register(name, factory)


def open_env(name: str) -> Adapter:
    return ADAPTERS.get(name)()


register_env("twx", TextWorldExpress)
register_env("twx-rooms", lambda: TextWorldExpress("twx-rooms", games=TWX_ROOM_GAMES))
register_env("scienceworld", ScienceWorld)
register_env("bfcl", BFCLMultiTurn)
register_env("scienceworld-dev", lambda: ScienceWorld("scienceworld-dev", tasks=SCIWORLD_DEV_TASKS))
register_env("bfcl-dev", lambda: BFCLMultiTurn("bfcl-dev", first=BFCL_DEV_FIRST))
