"""Small real runs of the four labs (scripted models, a fake environment, a toy suite): fast inputs for reports."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from relaykit.bench.store import RunInfo, RunStore
from relaykit.models import ChatRequest
from relaykit.testing import ScriptedModel


def relay_run(store: RunStore, *, short_method: str | None = "truncate") -> RunInfo:
    """Five methods on six goals; ``short_method`` keeps only its first goal, so one row has N=1."""
    from relaykit.bench.relay.runner import RelayConfig, open_lab, run_relay

    config = RelayConfig(methods=("passthrough", "extract-rules", "truncate", "tfidf", "prune"), embedder="hashing",
                         goals=6, seed=1)
    lab, run_id = open_lab(store, config)
    run_relay(store, lab, run_id)
    if short_method is None:
        return store.get_run(run_id)
    copy = store.create_run("relay", store.get_run(run_id).config)
    for key, value in store.results(run_id).items():
        if not (key.startswith("score/") and f"/{short_method}/" in key and not key.startswith("score/G01/")):
            store.record(copy, key, value)
    store.finish(copy)
    return store.get_run(copy)


@dataclass
class _Live:
    task: str = "Find the coin. It is in the hall-box."

    def step(self, action: str) -> tuple[str, float, bool]:
        done = action == "open hall-box"
        return ("You find the coin." if done else "Nothing here."), (1.0 if done else 0.0), done

    def valid_actions(self) -> list[str]:
        return ["open hall-box", "go to hall", "look around"]


@dataclass
class CoinEnv:
    name: str = "coin"
    playable: bool = True

    def episodes(self, n: int, seed: int) -> Iterator[Any]:
        from relaykit.bench.trajectory.envs import Episode, GoldStep

        rooms = ["hall", "kitchen", "garden", "attic", "cellar", "study"]
        for k in range(n):
            steps = [GoldStep(f"go to {r}", f"You are in the {r}. There is a {r}-box here.") for r in rooms]
            steps.append(GoldStep("open hall-box", "You find the coin."))
            yield Episode("coin", f"ep{seed + k}", "Find the coin. It is in the hall-box.", tuple(steps))

    def live(self, episode: Any) -> _Live:
        return _Live()


def trajectory_run(store: RunStore, *, policy: bool) -> RunInfo:
    from relaykit.bench.trajectory import LabConfig, register_env, run_lab
    from relaykit.trajectory.selective import word_info

    register_env("coin", CoinEnv)

    def answer(request: ChatRequest) -> str:
        text = " ".join(str(m.get("content")) for m in request.messages[1:])
        return "open hall-box" if "hall-box" in text else "look around"

    cfg = LabConfig(env="coin", methods=("none", "agora", "truncate", "selective-context"), episodes=3,
                    policy="scripted" if policy else None)
    model = ScriptedModel(answer) if policy else None
    return store.get_run(run_lab(cfg, store, model=model, token_info=word_info))


def delegation_run(store: RunStore, arms: Sequence[str] = ("nl", "graph", "routed")) -> RunInfo:
    """Stored units of a delegation run as the lab writes them (a toy outcome pattern)."""
    run_id = store.create_run("delegation", {"suite": "toy", "planner": "scripted", "executor": "scripted",
                                             "arms": list(arms), "limit": 6})
    for k in range(6):
        for arm in arms:
            success = (arm != "nl" or k % 2 == 0) and not (arm == "routed" and k == 5)
            store.record(run_id, f"toy/k{k}|{arm}", {
                "task": f"toy/k{k}", "arm": arm, "success": success,
                "formats": ["graph" if k < 4 else "nl"] if arm == "routed" else [arm],
                "router_tokens": 40 if arm == "routed" else 0, "handoff_tokens": 120 if arm == "nl" else 60,
                "prefill_tokens": 0, "total_tokens": 900 if arm == "nl" else 700, "steps": 2, "planner_failed": False,
                "taxonomy": {"category": "misalignment" if not success else "", "missing_prerequisite": not success,
                             "retry_loop": False, "order_violation": False}})
    store.finish(run_id)
    return store.get_run(run_id)


ITEM_HEADER = re.compile(r"^\[([^\]]+)\] \(", re.MULTILINE)


def composition_run(store: RunStore, tmp: Path, conditions: Sequence[str] = ()) -> RunInfo:
    from relaykit.bench.composition import (
        CompositionConfig,
        SyntheticSpec,
        execute,
        generate_corpus,
        start_run,
        write_corpus,
    )

    corpus = generate_corpus(SyntheticSpec(counts={"meeting": 20, "email": 60, "chat": 20}, seed=1))
    labels = corpus.by_id()

    def respond(request: ChatRequest) -> str:
        ids = ITEM_HEADER.findall(request.messages[-1]["content"])
        n_signal = sum(labels[i].is_signal for i in ids)
        items = [{"id": i, "score": 3 if labels[i].label == 2 and n_signal > 7 else labels[i].label,
                  "fact_types": list(labels[i].fact_types)} for i in ids]
        return json.dumps({"items": items})

    path = tmp / "corpus.jsonl"
    write_corpus(corpus.items, path)
    config = CompositionConfig(corpus=str(path), models=("calibrated",), blocks=2, conditions=tuple(conditions))
    run_id = start_run(store, corpus, config)
    execute(store, run_id, corpus, config, {"calibrated": ScriptedModel(respond, name="calibrated")})
    return store.get_run(run_id)
