"""The relevance-contrast runner: every (model, block, condition) trial, recorded as soon as it finishes.

Runs are stored in the ``RunStore`` under kind ``composition``; ``resume`` skips the trials already
recorded. An answer that never validates against the schema (after the repairs allowed) is a parse
failure and scores 0, as in the paper; any other model error stops the run, which can then be resumed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from relaykit.bench.composition.corpus import Corpus, load_corpus
from relaykit.bench.composition.design import Trial, block_trials, check_corpus, conditions_named
from relaykit.bench.composition.scoring import answer_schema, judgements_from, messages_for, score_trial
from relaykit.bench.store import RunStore
from relaykit.errors import InvalidOutput, ModelError, UsageError
from relaykit.models.base import Model, Usage
from relaykit.models.structured import complete_structured

KIND = "composition"
Progress = Callable[[int, int], None]  # (done, total)


@dataclass(frozen=True)
class CompositionConfig:
    """What a composition run measures; stored with the run so ``--resume`` repeats it exactly."""

    corpus: str
    models: tuple[str, ...]
    blocks: int = 20
    seed: int = 0
    conditions: tuple[str, ...] = ()  # empty: all eleven
    max_tokens: int = 700
    max_repairs: int = 1
    corpus_digest: str = ""
    synthetic: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.blocks < 1:
            raise UsageError(f"blocks must be at least 1, not {self.blocks}")
        if not self.models:
            raise UsageError("give at least one model (--model SPEC)")
        if len(set(self.models)) != len(self.models):
            raise UsageError(f"a model is listed twice: {', '.join(self.models)}")
        conditions_named(self.conditions)  # raises UsageError for unknown names

    @classmethod
    def from_stored(cls, data: Mapping[str, Any]) -> CompositionConfig:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        for key in ("models", "conditions"):
            known[key] = tuple(known.get(key, ()))
        return cls(**known)


def trial_key(model: str, trial: Trial) -> str:
    return f"model={model}/block={trial.block:02d}/cond={trial.condition.name}"


def plan(corpus: Corpus, config: CompositionConfig) -> list[Trial]:
    conditions = conditions_named(config.conditions)
    check_corpus(corpus, conditions)
    return [t for block in range(config.blocks) for t in block_trials(corpus, block, config.seed, conditions)]


def run_trial(model: Model, trial: Trial, fact_types: Sequence[str], config: CompositionConfig) -> dict[str, Any]:
    """Ask ``model`` to score one prompt and score its answer."""
    usage = Usage()
    schema = answer_schema([item.id for item in trial.items], fact_types)
    started = time.perf_counter()
    error = ""
    try:
        answer = complete_structured(
            model, messages_for(trial, fact_types), schema,
            max_repairs=config.max_repairs, usage=usage, max_tokens=config.max_tokens, temperature=0.0,
        )
    except InvalidOutput as exc:
        answer, error = None, str(exc)[:300]
    result = score_trial(trial, judgements_from(answer))
    result.update(
        block=trial.block, condition=trial.condition.name, error=error, calls=usage.requests,
        prompt_tokens=usage.prompt_tokens, completion_tokens=usage.completion_tokens,
        latency_s=round(time.perf_counter() - started, 3),
    )
    return result


def start_run(store: RunStore, corpus: Corpus, config: CompositionConfig) -> str:
    plan(corpus, config)  # check the corpus against the design before anything is stored
    stored = {**asdict(config), "corpus_digest": corpus.digest(), "synthetic": corpus.synthetic}
    return store.create_run(KIND, stored)


def resume_config(store: RunStore, run_id: str) -> tuple[CompositionConfig, Corpus]:
    """The stored config of ``run_id`` and its corpus, checked to be unchanged since the run started."""
    run = store.get_run(run_id)
    if run.kind != KIND:
        raise UsageError(f"run {run_id} is a {run.kind!r} run, not a {KIND!r} run")
    config = CompositionConfig.from_stored(run.config)
    corpus = load_corpus(config.corpus)
    if config.corpus_digest and corpus.digest() != config.corpus_digest:
        raise UsageError(f"{config.corpus} changed since run {run_id} started; start a new run instead of resuming")
    return config, corpus


def execute(
    store: RunStore,
    run_id: str,
    corpus: Corpus,
    config: CompositionConfig,
    models: Mapping[str, Model],
    progress: Progress | None = None,
) -> int:
    """Run every trial of ``run_id`` not yet recorded; returns how many were run now."""
    trials = plan(corpus, config)
    done = store.done_keys(run_id)
    todo = [(label, t) for label in config.models for t in trials if trial_key(label, t) not in done]
    total, finished, ran = len(trials) * len(config.models), len(done), 0
    fact_types = corpus.fact_types
    for label, trial in todo:
        try:
            result = run_trial(models[label], trial, fact_types, config)
        except ModelError as exc:
            store.log_event(run_id, "model_error", {"model": label, "key": trial_key(label, trial), "error": str(exc)})
            raise
        if result["error"]:
            store.log_event(run_id, "parse_failure", {"model": label, "key": trial_key(label, trial),
                                                      "error": result["error"]})
        store.record(run_id, trial_key(label, trial), {**result, "model": label})
        ran, finished = ran + 1, finished + 1
        if progress is not None:
            progress(finished, total)
    store.finish(run_id)
    return ran
