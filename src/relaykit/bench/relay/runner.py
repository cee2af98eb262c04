"""The relay run: Researcher -> compression -> Booker per goal and method, recorded as it happens.

Three kinds of result go to the run store, each the moment it is finished: ``trace/G01`` (the
Researcher's trace), ``handoff/G01/prune`` (the payload and its accounting and diagnostics) and
``score/G01/prune/reader`` (the Booker's answer scored against the ground truth). A resumed run reads
the finished ones back and computes only what is missing. Model failures that are not the model's
answer (network, timeouts) are logged as events and left for a resume; an answer that never validates
is the Booker's failure and is scored as such.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from relaykit.bench.lab import (
    LabModels,
    ProgressSink,
    RunContext,
    Runner,
    RunOptions,
    RunOutcome,
    Unit,
    check_count,
    open_run,
)
from relaykit.bench.relay.booker import Booker, ModelBooker, Reader
from relaykit.bench.relay.generate import WorldSpec, generate_world
from relaykit.bench.relay.methods import MethodSpec, default_methods, parse_methods
from relaykit.bench.relay.reading import Kept
from relaykit.bench.relay.researcher import Auditor, ModelResearcher, Research, Researcher
from relaykit.bench.relay.scoring import audit_facts, score
from relaykit.bench.relay.similarity import CachedEmbedder, chunks, diagnostics
from relaykit.bench.relay.summary import Summary, summarize
from relaykit.bench.relay.truth import Truth, ground_truth, inventory
from relaykit.bench.relay.world import Goal, World, load_world
from relaykit.bench.store import RunInfo, RunStore
from relaykit.embeddings import open_embedder
from relaykit.errors import ModelError, UsageError
from relaykit.models import Model
from relaykit.telemetry import Telemetry
from relaykit.text import iter_sentences

KIND = "relay"
RESEARCHERS = ("auditor", "model")
BOOKERS = ("reader", "model")
# The embedded model is slow on 2 cores: by default its parts get this much time (after the first goal).
LOCAL_MODEL_BUDGET_S = 60.0


@dataclass(frozen=True)
class RelayConfig:
    """Everything that decides a run's results; stored with the run so that a resume repeats it."""

    methods: tuple[str, ...] = ()
    researcher: str = "auditor"
    bookers: tuple[str, ...] = ("reader",)
    model: str = "local"
    goals: int = 50
    hotels: int = 10
    flights: int = 10
    seed: int = 0
    world_file: str | None = None
    world_sha256: str | None = None
    model_goals: int | None = None
    model_budget_s: float | None = None
    embedder: str = "minilm"
    cache: str | None = None
    style: str = "auditor"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RelayConfig:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        for key in ("methods", "bookers"):
            known[key] = tuple(known.get(key, ()))
        return cls(**known)

    @property
    def uses_model(self) -> bool:
        return self.researcher == "model" or "model" in self.bookers

    def check(self) -> None:
        if self.researcher not in RESEARCHERS:
            raise UsageError(f"unknown researcher {self.researcher!r}; use one of: {', '.join(RESEARCHERS)}")
        for booker in self.bookers:
            if booker not in BOOKERS:
                raise UsageError(f"unknown booker {booker!r}; use one of: {', '.join(BOOKERS)} (comma-separated)")
        if not self.bookers:
            raise UsageError("give at least one booker: reader, model or reader,model")
        check_count("--model-goals", self.model_goals)
        if self.model_budget_s is not None and self.model_budget_s < 0:
            raise UsageError(f"--model-budget must be 0 (no limit) or a number of seconds, not {self.model_budget_s}")
        for flag, value in (("--goals", self.goals), ("--hotels", self.hotels), ("--flights", self.flights)):
            check_count(flag, value, minimum=1)
        from relaykit.bench.relay.styles import check_style

        check_style(self.style)


def resolve_model_budget(config: RelayConfig, methods: tuple[MethodSpec, ...]) -> float | None:
    """Seconds the model-dependent parts may take: unlimited with a served model, a budget with the embedded one.

    A budget of 0 (or less) means no limit. The first goal's model-dependent parts always run, so every
    condition appears in the tables.
    """
    if config.model_budget_s is not None:
        return config.model_budget_s if config.model_budget_s > 0 else None
    involves_model = config.uses_model or any(m.needs_model for m in methods)
    return LOCAL_MODEL_BUDGET_S if involves_model and config.model.split(":")[0] == "local" else None


def file_sha256(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def build_world(config: RelayConfig) -> World:
    if config.world_file is None:
        return generate_world(WorldSpec(config.hotels, config.flights, config.goals, config.seed))
    world = load_world(config.world_file)
    if config.world_sha256 and file_sha256(config.world_file) != config.world_sha256:
        raise UsageError(f"{config.world_file} changed since the run started; restore it or start a new run")
    return world


class RelayLab:
    """The relay lab (see ``relaykit.bench.lab``): one unit per (goal, method, booker), grouped by goal."""

    kind = KIND

    def __init__(self, config: RelayConfig, *, known_methods: list[str] | None = None,
                 embedder: CachedEmbedder | None = None, reading: Kept | None = None) -> None:
        from relaykit.handoff import compressors

        config.check()
        self.world = build_world(config)
        known = known_methods or compressors()
        if not config.methods:
            config = RelayConfig(**{**config.to_json(), "methods": tuple(default_methods(known))})
        self.methods = parse_methods(",".join(config.methods), known)
        self.config = config
        self.model_budget = resolve_model_budget(config, self.methods)
        self.inv = inventory(self.world)
        self.embedder = embedder or CachedEmbedder(open_embedder(config.embedder))
        self.reading = reading  # the reference reader's answers kept between runs (open_reading_cache)
        self.truths: dict[str, Truth] = {g.id: ground_truth(self.world, g, self.inv) for g in self.world.goals}
        self._memo: dict[str, dict[str, Any]] = {}
        self.models = LabModels(cache=config.cache, namespace=KIND)

    @classmethod
    def from_stored(cls, data: Mapping[str, Any], **kwargs: Any) -> RelayLab:
        return cls(RelayConfig.from_json(dict(data)), **kwargs)

    # -- the lab protocol ----------------------------------------------------------------------------
    def stored_config(self) -> dict[str, Any]:
        config = self.config.to_json()
        if self.config.world_file:
            config["world_sha256"] = file_sha256(self.config.world_file)
        config["resolved_model_budget_s"] = self.model_budget
        return config

    def open_models(self) -> None:
        """Open (check) the models this run will use."""
        for spec in self.model_specs():
            self.models.get(spec)

    def model_specs(self) -> list[str]:
        involves = self.config.uses_model or any(m.needs_model for m in self.methods)
        return [self.config.model] if involves else []

    def limited(self, spec: MethodSpec, booker: str) -> bool:
        return self.config.researcher == "model" or spec.needs_model or booker == "model"

    def units(self) -> list[Unit]:
        units = []
        for index, goal in enumerate(self.world.goals):
            for spec in self.methods:
                for booker in self.config.bookers:
                    limited = self.limited(spec, booker)
                    if limited and self.config.model_goals is not None and index >= self.config.model_goals:
                        continue
                    units.append(Unit(score_key(goal, spec, booker), group=goal.id, uses_model=limited,
                                      tags={"method": spec.label, "booker": booker}, data=(goal, spec, booker)))
        return units

    def run_unit(self, unit: Unit, ctx: RunContext) -> dict[str, Any]:
        goal, spec, booker = unit.data
        trace = self._trace(ctx, goal)
        handoff = self._handoff(ctx, goal, spec, trace)
        return self._score(ctx, goal, spec, booker, trace, handoff)

    def summarize(self, store: RunStore, run: RunInfo) -> Summary:
        return summarize(store, run)

    # -- parts ---------------------------------------------------------------------------------------
    def model(self, ctx: RunContext) -> Model:
        return ctx.models.get(self.config.model)

    def researcher(self, ctx: RunContext) -> Researcher:
        if self.config.researcher == "model":
            return ModelResearcher(self.model(ctx), seed=self.config.seed)
        return Auditor(self.config.style)

    def booker(self, ctx: RunContext, name: str) -> Booker:
        return ModelBooker(self.model(ctx), seed=self.config.seed) if name == "model" else Reader(self.reading)

    def _trace(self, ctx: RunContext, goal: Goal) -> dict[str, Any]:
        memo = self._memo.setdefault(goal.id, {})
        if "trace" in memo:
            return _reraise(memo["trace"])
        key = f"trace/{goal.id}"
        if ctx.done(key):
            memo["trace"] = ctx.result(key)
            return _reraise(memo["trace"])
        try:
            with ctx.stage("researcher", goal=goal.id):
                research = self.researcher(ctx).research(self.world, goal)
        except ModelError as exc:
            memo["trace"] = exc
            raise
        value = {"trace": research.trace, **research_accounting(research)}
        ctx.log("researcher", {"goal": goal.id, **research_accounting(research)})
        ctx.record(key, value)
        memo["trace"] = value
        return value

    def _handoff(self, ctx: RunContext, goal: Goal, spec: MethodSpec, trace: dict[str, Any]) -> dict[str, Any]:
        memo = self._memo.setdefault(goal.id, {})
        if spec.label not in memo:
            # the model-free methods of a goal are compressed together, their diagnostics embedded in one batch
            batch = [spec] if spec.needs_model else [m for m in self.methods if not m.needs_model]
            self._compress(ctx, goal, [m for m in batch if m.label not in memo], trace)
        return _reraise(memo[spec.label])

    def _compress(self, ctx: RunContext, goal: Goal, specs: list[MethodSpec], trace: dict[str, Any]) -> None:
        self._record_handoffs(ctx, goal, trace, self._fresh_handoffs(ctx, goal, specs, trace))

    def _fresh_handoffs(self, ctx: RunContext, goal: Goal, specs: list[MethodSpec],
                        trace: dict[str, Any]) -> dict[str, Any]:
        """Compress with each method whose hand-off is not stored yet (stored ones and failures go to the memo)."""
        from relaykit.handoff import compress_handoff

        memo = self._memo.setdefault(goal.id, {})
        fresh: dict[str, Any] = {}
        for spec in specs:
            key = f"handoff/{goal.id}/{spec.label}"
            if ctx.done(key):
                memo[spec.label] = ctx.result(key)
                continue
            model = self.model(ctx) if spec.needs_model else None
            try:
                with ctx.stage("compression", goal=goal.id, method=spec.label):
                    fresh[spec.label] = compress_handoff(trace["trace"], goal.text, spec.compressor, model=model,
                                                         embedder=self.embedder, **spec.kwargs)
            except ModelError as exc:
                memo[spec.label] = exc
        return fresh

    def _record_handoffs(self, ctx: RunContext, goal: Goal, trace: dict[str, Any], fresh: dict[str, Any]) -> None:
        memo = self._memo.setdefault(goal.id, {})
        diag = diagnostics(self.embedder, trace["trace"], goal.text,
                           {label: h.payload_text for label, h in fresh.items()})
        for label, handoff in fresh.items():
            value = {**self._describe_handoff(goal, handoff, trace["trace"]), **diag[label]}
            ctx.log("compression", {"goal": goal.id, "method": label,
                                    **{k: value[k] for k in ("ratio", "compression_tokens")}})
            ctx.record(f"handoff/{goal.id}/{label}", value)
            memo[label] = value

    def prepare(self, ctx: RunContext, units: list[Unit]) -> None:
        """With the deterministic Researcher, compute every pending goal's model-free hand-offs up front, so that
        the embeddings they need are computed in two large batches (trace sentences for prune, then every
        diagnostic chunk) instead of a few small ones per goal."""
        free = [m for m in self.methods if not m.needs_model]
        goals = list(dict.fromkeys(u.data[0] for u in units if not u.data[1].needs_model))
        if self.config.researcher != "auditor" or not free or not goals:
            return
        traces = {g.id: self._trace(ctx, g) for g in goals}
        self.embedder.warm([g.text for g in goals] + [s for t in traces.values() for s in iter_sentences(t["trace"])])
        fresh = {g.id: self._fresh_handoffs(ctx, g, free, traces[g.id]) for g in goals}
        self.embedder.warm(c for g in goals for text in (traces[g.id]["trace"], g.text,
                           *(h.payload_text for h in fresh[g.id].values())) if text.strip() for c in chunks(text))
        for goal in goals:
            self._record_handoffs(ctx, goal, traces[goal.id], fresh[goal.id])

    def _describe_handoff(self, goal: Goal, handoff: Any, trace: str) -> dict[str, Any]:
        return {
            "payload": handoff.payload, "payload_text": handoff.payload_text, "ratio": handoff.ratio,
            "tokens_in": handoff.tokens_in, "tokens_out": handoff.tokens_out,
            "compression_calls": handoff.cost.model_calls,
            "compression_tokens": handoff.cost.prompt_tokens + handoff.cost.completion_tokens,
            "compression_seconds": handoff.cost.seconds, "warnings": list(handoff.warnings),
            **self._audit(goal, handoff, trace),
        }

    def _audit(self, goal: Goal, handoff: Any, trace: str) -> dict[str, Any]:
        """The evidence audit of a hand-off (kept between runs with ``reading``, like the reader's answers)."""
        from relaykit.bench.relay.reading import kept_audit
        from relaykit.handoff import audit
        from relaykit.handoff.audit import Fact

        facts = audit_facts(self.world, goal)

        def fresh() -> dict[str, Any]:
            report = audit(handoff, [Fact(*f) for f in facts], trace=trace)
            return {"evidence_recall": report.recall, "facts_lost": len(report.lost), "invented_facts": report.invented}

        return fresh() if self.reading is None else kept_audit(self.reading, handoff, facts, trace, fresh)

    def _score(self, ctx: RunContext, goal: Goal, spec: MethodSpec, booker_name: str, trace: dict[str, Any],
               handoff: dict[str, Any]) -> dict[str, Any]:
        with ctx.stage("booker", goal=goal.id, method=spec.label, booker=booker_name):
            booking = self.booker(ctx, booker_name).book(goal, handoff["payload"], handoff["payload_text"])
        result = score(self.inv, goal, self.truths[goal.id], booking, handoff["payload_text"])
        booker_tokens = booking.prompt_tokens + booking.completion_tokens
        researcher_tokens = trace["prompt_tokens"] + trace["completion_tokens"]
        result.update({
            "goal": goal.id, "method": spec.label, "booker": booker_name, "ratio": handoff["ratio"],
            "researcher_tokens": researcher_tokens, "compression_tokens": handoff["compression_tokens"],
            "booker_tokens": booker_tokens,
            "tokens_per_run": researcher_tokens + handoff["compression_tokens"] + booker_tokens,
            "fidelity": handoff["fidelity"], "goal_similarity": handoff["goal_similarity"],
            "evidence_recall": handoff["evidence_recall"], "error": booking.error, "notes": dict(booking.notes),
            "booker_seconds": booking.seconds,
        })
        ctx.log("booker", {"goal": goal.id, "method": spec.label, "booker": booker_name,
                           "answer": result["answer"], "tokens": booker_tokens})
        return result


def _reraise(value: Any) -> dict[str, Any]:
    """A memoised result, or the model error it failed with (raised again for every unit that needs it)."""
    if isinstance(value, ModelError):
        raise value
    result: dict[str, Any] = value
    return result


def score_key(goal: Goal, spec: MethodSpec, booker: str) -> str:
    return f"score/{goal.id}/{spec.label}/{booker}"


def research_accounting(research: Research) -> dict[str, Any]:
    return {"prompt_tokens": research.prompt_tokens, "completion_tokens": research.completion_tokens,
            "model_calls": research.model_calls, "seconds": research.seconds}


def open_lab(store: RunStore, config: RelayConfig | None = None, *, resume: str | None = None,
             model: Model | None = None, telemetry: Telemetry | None = None, models: LabModels | None = None,
             embedder: CachedEmbedder | None = None, reading: Kept | None = None) -> tuple[RelayLab, str]:
    """A lab and its run id: a new run from ``config``, or the stored run ``resume`` with its own config.

    Its models are ``models``, or opened from the config's spec (``model`` stands in for every spec in
    tests), with the config's cache and ``telemetry``; they are opened before a new run is registered. With
    ``reading`` (``open_reading_cache``), the reference reader's answers are kept between runs.
    """
    def make(stored: Mapping[str, Any] | None) -> RelayLab:
        lab = (RelayLab.from_stored(stored, embedder=embedder, reading=reading) if stored is not None
               else RelayLab(config or RelayConfig(), embedder=embedder, reading=reading))
        lab.models = models or LabModels(cache=lab.config.cache, namespace=KIND, telemetry=telemetry,
                                         given={"*": model} if model is not None else None)
        lab.open_models()
        return lab

    return open_run(store, KIND, make, resume, None)


def run_relay(store: RunStore, lab: RelayLab, run_id: str, *, concurrency: int = 1,
              progress: ProgressSink | None = None, telemetry: Telemetry | None = None) -> RunOutcome:
    """Compute every unit of ``run_id`` not yet stored (the one runner, with the relay's model time budget).

    Pure readers of short texts remember their answers for the run (``relaykit.memo``): every method's payload,
    audit and Booker rereads the same lines."""
    from relaykit.memo import remembering

    runner = Runner(store, lab.models, progress=progress, telemetry=telemetry or lab.models.telemetry)
    try:
        with remembering():
            return runner.run(lab, run_id, RunOptions(concurrency=concurrency, model_budget_s=lab.model_budget))
    finally:
        if lab.reading is not None:
            lab.reading.flush()
