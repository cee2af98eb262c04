"""The trajectory lab: every compression method on real environments, model-free and with a policy.

Model-free (gold trajectories): at several prefixes of each gold path, compress the history and
measure validity, the ratio (tokens out / tokens in, below 1 = smaller) and next-action grounding recall
(of the words the next gold action names that the history mentioned, the share still in the
compressed context).

With a policy: play each episode with the history compressed by the method before every decision
and record the final score (playable text environments), or, for tool suites that are not played
live, the teacher-forced share of steps where the policy names the gold tool. Retention is a
method's mean reward over NO-COMP's, per environment and policy cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from relaykit.bench.lab import LabModels, ProgressSink, RunContext, Runner, Unit, open_run
from relaykit.bench.store import RunInfo, RunStore
from relaykit.bench.trajectory.envs import Adapter, Episode, episode_messages, open_env, pinned_episodes
from relaykit.bench.trajectory.labelset import prefix_points
from relaykit.models.base import Model
from relaykit.trajectory import compress_trajectory
from relaykit.trajectory.features import words
from relaykit.trajectory.labels import ModelPolicy, Policy, context_words
from relaykit.trajectory.parse import Msg
from relaykit.trajectory.selective import TokenInfo

KIND = "trajectory"
DEFAULT_METHODS = ("none", "agora", "floor", "truncate", "obs-mask", "selective-context")


@dataclass(frozen=True)
class LabConfig:
    env: str
    methods: tuple[str, ...] = DEFAULT_METHODS
    episodes: int = 5
    seed: int = 100  # gold episodes used for training start at seed 0; the lab uses others by default
    keep: float = 0.3
    dropped: str = "remove"
    truncate_tokens: int = 512
    policy: str | None = None
    max_steps: int = 30
    prefixes: int = 6
    min_past: int = 3


def compress(messages: Sequence[Msg], method: str, cfg: LabConfig, token_info: TokenInfo | None) -> Any:
    return compress_trajectory(list(messages), method=method, keep=cfg.keep, dropped=cfg.dropped,
                               truncate_tokens=cfg.truncate_tokens, token_info=token_info)


def model_free(episode: Episode, method: str, cfg: LabConfig, token_info: TokenInfo | None) -> dict[str, Any]:
    """Validity, compression and grounding recall over the episode's prefixes."""
    valid = hits = needed = prefixes = 0
    tokens_in = tokens_out = 0
    for t in prefix_points(len(episode.steps), cfg.min_past, cfg.prefixes):
        messages = episode_messages(episode, t)
        out = compress(messages, method, cfg, token_info)
        acc = out.accounting
        prefixes += 1
        valid += int(out.valid)
        tokens_in, tokens_out = tokens_in + acc.tokens_in, tokens_out + acc.tokens_out
        target = words(episode.steps[t].action) & context_words(messages)
        needed += len(target)
        hits += len(target & context_words(out.messages))
    return {"prefixes": prefixes, "valid": valid, "grounding_hits": hits, "grounding_needed": needed,
            "tokens_in": tokens_in, "tokens_out": tokens_out}


def play(adapter: Adapter, episode: Episode, method: str, cfg: LabConfig, policy: Policy,
         token_info: TokenInfo | None) -> dict[str, Any]:
    """One live episode with the history compressed before every decision; reward = best score reached."""
    live = adapter.live(episode)
    messages: list[Msg] = [{"role": "system", "content": episode.system}, {"role": "user", "content": live.task}]
    best, steps, tokens_in, tokens_out = 0.0, 0, 0, 0
    limit = min(cfg.max_steps, 2 * len(episode.steps) + 5)
    while steps < limit:
        out = compress(messages, method, cfg, token_info)
        tokens_in, tokens_out = tokens_in + out.accounting.tokens_in, tokens_out + out.accounting.tokens_out
        action = policy.next_action(out.messages, live.valid_actions()) or "look around"
        observation, score, done = live.step(action)
        best, steps = max(best, score), steps + 1
        messages += [{"role": "assistant", "content": action}, {"role": "user", "content": observation}]
        if done:
            break
    return {"reward": best, "steps": steps, "tokens_in": tokens_in, "tokens_out": tokens_out}


def teacher_forced(episode: Episode, method: str, cfg: LabConfig, policy: Policy,
                   token_info: TokenInfo | None) -> dict[str, Any]:
    """Tool suites: the share of prefixes where the policy names the gold tool next."""
    hits = total = 0
    tokens_in = tokens_out = 0
    for t in prefix_points(len(episode.steps), cfg.min_past, cfg.prefixes):
        out = compress(episode_messages(episode, t), method, cfg, token_info)
        tokens_in, tokens_out = tokens_in + out.accounting.tokens_in, tokens_out + out.accounting.tokens_out
        gold = episode.steps[t].call or {}
        said = policy.next_action(out.messages)
        hits += int(said.split("(")[0].strip() == gold.get("name"))
        total += 1
    return {"reward": hits / total if total else 0.0, "steps": total, "tokens_in": tokens_in,
            "tokens_out": tokens_out}


class TrajectoryLab:
    """The trajectory lab on the one runner: a unit per (episode, method, part), grouped by episode."""

    kind = KIND

    def __init__(self, cfg: LabConfig, *, model: Model | None = None, token_info: TokenInfo | None = None) -> None:
        self.cfg, self.model, self.token_info = cfg, model, token_info
        self.adapter = open_env(cfg.env)
        self._run: tuple[RunStore, str] | None = None
        self._episodes: list[Episode] | None = None

    def pin(self, store: RunStore, run_id: str) -> None:
        """Read the run's episodes from ``store`` (:func:`relaykit.bench.trajectory.envs.pinned_episodes`)."""
        self._run = (store, run_id)

    def episodes(self) -> list[Episode]:
        """The run's episodes, generated once per lab (the runner asks for the units twice) and, once pinned to a run,
        kept in its store so that a resume scores the same gold paths."""
        if self._episodes is None:
            def generate() -> list[tuple[str, Episode]]:
                return [(self.cfg.env, e) for e in self.adapter.episodes(self.cfg.episodes, self.cfg.seed)]

            self._episodes = [episode for _, episode in pinned_episodes(self._run, generate)]
        return self._episodes

    def stored_config(self) -> dict[str, Any]:
        return asdict(self.cfg)

    def model_specs(self) -> list[str]:
        return [self.cfg.policy] if self.cfg.policy and self.model is None else []

    def units(self) -> list[Unit]:
        parts = ("free", "policy") if self.cfg.policy or self.model is not None else ("free",)
        return [Unit(f"{episode.episode_id}/{method}/{part}", group=episode.episode_id, uses_model=part == "policy",
                     tags={"method": method, "part": part}, data=(episode, method, part))
                for episode in self.episodes()
                for method in self.cfg.methods for part in parts]

    def run_unit(self, unit: Unit, ctx: RunContext) -> dict[str, Any]:
        episode, method, part = unit.data
        cfg, info = self.cfg, self._token_info()
        head = {"env": cfg.env, "episode": episode.episode_id, "method": method, "part": part}
        if part == "free":
            return {**head, **model_free(episode, method, cfg, info)}
        policy = ModelPolicy(self.model or ctx.models.get(str(cfg.policy)))
        result = (play(self.adapter, episode, method, cfg, policy, info) if self.adapter.playable
                  else teacher_forced(episode, method, cfg, policy, info))
        return {**head, "policy": cfg.policy, **result}

    def _token_info(self) -> TokenInfo | None:
        if self.token_info is None and "selective-context" in self.cfg.methods:
            from relaykit.trajectory.selective import model_token_info

            self.token_info = model_token_info()  # one cache for the whole run
        return self.token_info

    def summarize(self, store: RunStore, run: RunInfo) -> Any:
        from relaykit.bench.trajectory.report import summarize

        return summarize(store.results(run.run_id))


def run_lab(cfg: LabConfig, store: RunStore, *, run_id: str | None = None, model: Model | None = None,
            token_info: TokenInfo | None = None, progress: ProgressSink | None = None) -> str:
    """Run (or resume ``run_id``: a trajectory run) on the one runner; each result is recorded when done."""
    def make(stored: Mapping[str, Any] | None) -> TrajectoryLab:
        config = cfg if stored is None else LabConfig(**{**stored, "methods": tuple(stored["methods"])})
        return TrajectoryLab(config, model=model, token_info=token_info)

    models = LabModels(namespace=KIND)
    lab, run_id = open_run(store, KIND, make, run_id, models)
    lab.pin(store, run_id)
    Runner(store, models, progress=progress).run(lab, run_id)
    return run_id


def units(cfg: LabConfig) -> int:
    return cfg.episodes * len(cfg.methods) * (2 if cfg.policy else 1)


__all__ = ["DEFAULT_METHODS", "KIND", "LabConfig", "TrajectoryLab", "model_free", "play", "run_lab", "teacher_forced",
           "units"]
