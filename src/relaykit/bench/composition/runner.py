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
from relaykit.bench.lab import LabModels, ProgressSink, RunContext, Runner, Unit, open_run
from relaykit.bench.store import RunInfo, RunStore
from relaykit.errors import InvalidOutput, UsageError
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


class CompositionLab:
    """The relevance-contrast lab on the one runner: a unit per (model, trial), grouped by model."""

    kind = KIND

    def __init__(self, config: CompositionConfig, corpus: Corpus) -> None:
        self.config, self.corpus = config, corpus
        self.trials = plan(corpus, config)  # checks the corpus against the design before anything is stored

    def stored_config(self) -> dict[str, Any]:
        return {**asdict(self.config), "corpus_digest": self.corpus.digest(), "synthetic": self.corpus.synthetic}

    def model_specs(self) -> list[str]:
        return list(self.config.models)

    def units(self) -> list[Unit]:
        return [Unit(trial_key(label, t), group=label, uses_model=True, tags={"model": label}, data=(label, t))
                for label in self.config.models for t in self.trials]

    def run_unit(self, unit: Unit, ctx: RunContext) -> dict[str, Any]:
        label, trial = unit.data
        result = run_trial(ctx.models.get(label), trial, self.corpus.fact_types, self.config)
        if result["error"]:
            ctx.log("parse_failure", {"model": label, "key": unit.key, "error": result["error"]})
        return {**result, "model": label}

    def summarize(self, store: RunStore, run: RunInfo) -> dict[str, Any]:
        from relaykit.bench.composition.report import summarize

        return summarize(store, run)


class _Counter:
    """Adapts the runner's progress to the ``(done, total)`` callback."""

    def __init__(self, progress: Progress) -> None:
        self.callback, self.done, self.total = progress, 0, 0

    def start(self, total: int, done: int) -> None:
        self.total, self.done = total, done

    def advance(self, n: int = 1) -> None:
        self.done += n
        self.callback(self.done, self.total)

    def close(self) -> None:
        pass


def start_run(store: RunStore, corpus: Corpus, config: CompositionConfig) -> str:
    """Register a run (after the corpus was checked against the design) and take its lock."""
    _, run_id = open_run(store, KIND, lambda stored: CompositionLab(config, corpus))
    return run_id


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
    models: Mapping[str, Model] | LabModels,
    progress: Progress | ProgressSink | None = None,
) -> int:
    """Run every trial of ``run_id`` not yet recorded; returns how many were run now. A model error is logged
    (event ``failure``) and leaves its trial for a resume; when every trial failed, ``LabFailed``."""
    lab_models = models if isinstance(models, LabModels) else LabModels(namespace=KIND, given=models)
    sink = _Counter(progress) if callable(progress) else progress
    store.acquire(run_id)
    return Runner(store, lab_models, progress=sink).run(CompositionLab(config, corpus), run_id).ran
