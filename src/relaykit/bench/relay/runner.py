"""The relay run: Researcher -> compression -> Booker per goal and method, recorded as it happens.

Three kinds of result go to the run store, each the moment it is finished: ``trace/G01`` (the
Researcher's trace), ``handoff/G01/prune`` (the payload and its accounting and diagnostics) and
``score/G01/prune/reader`` (the Booker's answer scored against the ground truth). A resumed run reads
the finished ones back and computes only what is missing. Model failures that are not the model's
answer (network, timeouts) are logged as events and left for a resume; an answer that never validates
is the Booker's failure and is scored as such.
"""

from __future__ import annotations

import contextvars
import hashlib
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from relaykit.bench.labmodel import open_lab_model, wrap_lab_model
from relaykit.bench.relay.booker import Booker, ModelBooker, Reader
from relaykit.bench.relay.generate import WorldSpec, generate_world
from relaykit.bench.relay.methods import MethodSpec, default_methods, parse_methods
from relaykit.bench.relay.researcher import Auditor, ModelResearcher, Research, Researcher
from relaykit.bench.relay.scoring import audit_facts, score
from relaykit.bench.relay.similarity import CachedEmbedder, similarity
from relaykit.bench.relay.truth import Truth, ground_truth, inventory
from relaykit.bench.relay.world import Goal, World, load_world
from relaykit.bench.store import RunStore
from relaykit.embeddings import open_embedder
from relaykit.errors import ModelError, UsageError
from relaykit.models import Model
from relaykit.telemetry import Telemetry

KIND = "relay"
RESEARCHERS = ("auditor", "model")
BOOKERS = ("reader", "model")
# The embedded model is slow on 2 cores: by default its parts get this much time (after the first goal).
LOCAL_MODEL_BUDGET_S = 60.0

Progress = Callable[[int], None]


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


@dataclass
class Unit:
    """One goal's planned work: which methods and bookers run on it."""

    index: int
    goal: Goal
    cells: list[tuple[MethodSpec, str]] = field(default_factory=list)


class RelayLab:
    """Runs (or resumes) one relay run against a ``RunStore``."""

    def __init__(self, config: RelayConfig, store: RunStore, *, model: Model | None = None,
                 known_methods: list[str] | None = None, telemetry: Telemetry | None = None) -> None:
        from relaykit.handoff import compressors

        config.check()
        self.store = store
        self.world = build_world(config)
        known = known_methods or compressors()
        if not config.methods:
            config = RelayConfig(**{**config.to_json(), "methods": tuple(default_methods(known))})
        self.methods = parse_methods(",".join(config.methods), known)
        self.config = config
        self.model_goals = config.model_goals
        self.model_budget = resolve_model_budget(config, self.methods)
        self._model_seconds = 0.0
        self._skipped = 0
        self._budget_lock = threading.Lock()
        self.telemetry = telemetry or Telemetry()  # no sinks: a no-op
        self._given_model = model
        self._model: Model | None = None
        self._model_lock = threading.Lock()
        self.inv = inventory(self.world)
        self.embedder = CachedEmbedder(open_embedder(config.embedder))
        self.truths: dict[str, Truth] = {g.id: ground_truth(self.world, g, self.inv) for g in self.world.goals}

    # -- parts ---------------------------------------------------------------------------------------
    @property
    def model(self) -> Model:
        with self._model_lock:
            if self._model is None:
                base = self._given_model or open_lab_model(self.config.model)
                self._model = wrap_lab_model(base, cache=self.config.cache, namespace=KIND,
                                             telemetry=self.telemetry if self.telemetry.sinks else None)
            return self._model

    def researcher(self) -> Researcher:
        if self.config.researcher == "model":
            return ModelResearcher(self.model, seed=self.config.seed)
        return Auditor(self.config.style)

    def booker(self, name: str) -> Booker:
        return ModelBooker(self.model, seed=self.config.seed) if name == "model" else Reader()

    def limited(self, spec: MethodSpec, booker: str) -> bool:
        return self.config.researcher == "model" or spec.needs_model or booker == "model"

    def plan(self) -> list[Unit]:
        units = []
        for index, goal in enumerate(self.world.goals):
            unit = Unit(index, goal)
            for spec in self.methods:
                for booker in self.config.bookers:
                    if not (self.limited(spec, booker) and self.model_goals is not None
                            and index >= self.model_goals):
                        unit.cells.append((spec, booker))
            units.append(unit)
        return units

    # -- running -------------------------------------------------------------------------------------
    def start(self) -> str:
        config = self.config.to_json()
        if self.config.world_file:
            config["world_sha256"] = file_sha256(self.config.world_file)
        config["resolved_model_budget_s"] = self.model_budget
        return self.store.create_run(KIND, config)

    def run(self, run_id: str, *, concurrency: int = 1, progress: Progress | None = None) -> None:
        """Compute every planned unit not yet in the store; ``progress(n)`` is called as scores finish."""
        if concurrency < 1:
            raise UsageError(f"--concurrency must be at least 1, not {concurrency}")
        done = self.store.done_keys(run_id)
        advance = progress or (lambda n: None)
        units = self.plan()
        self._model_seconds, self._skipped = 0.0, 0
        with self.telemetry.run(self.config.to_json(), run_id=run_id):
            if concurrency == 1:
                for unit in units:
                    self._run_unit(run_id, unit, done, advance)
            else:
                with ThreadPoolExecutor(max_workers=concurrency) as pool:
                    # each worker runs in a copy of this context, so its events carry the run id
                    futures = [pool.submit(contextvars.copy_context().run, self._run_unit, run_id, u, done, advance)
                               for u in units]
                    for future in futures:
                        future.result()
        if self._skipped:
            self.store.log_event(run_id, "skipped", {"units": self._skipped, "model_budget_s": self.model_budget,
                                                     "model_seconds": round(self._model_seconds, 1)})
        self.store.finish(run_id, "finished" if not self.missing(run_id) else "incomplete")

    def missing(self, run_id: str) -> int:
        done = self.store.done_keys(run_id)
        return sum(score_key(u.goal, s, b) not in done for u in self.plan() for s, b in u.cells)

    def _may_use_model(self, index: int) -> bool:
        with self._budget_lock:
            return index == 0 or self.model_budget is None or self._model_seconds < self.model_budget

    def _charge(self, seconds: float) -> None:
        with self._budget_lock:
            self._model_seconds += seconds

    def _run_unit(self, run_id: str, unit: Unit, done: set[str], advance: Progress) -> None:
        todo = [(s, b) for s, b in unit.cells if score_key(unit.goal, s, b) not in done]
        advance(len(unit.cells) - len(todo))
        memo: dict[str, dict[str, Any] | None] = {}
        for spec, booker in todo:
            limited = self.limited(spec, booker)
            if limited and not self._may_use_model(unit.index):
                with self._budget_lock:
                    self._skipped += 1
                advance(1)
                continue
            started = time.perf_counter()
            self._cell(run_id, unit.goal, spec, booker, done, memo)
            if limited:
                self._charge(time.perf_counter() - started)
            advance(1)

    def _cell(self, run_id: str, goal: Goal, spec: MethodSpec, booker: str, done: set[str],
              memo: dict[str, dict[str, Any] | None]) -> None:
        if "trace" not in memo:
            memo["trace"] = self._trace(run_id, goal, done)
        trace = memo["trace"]
        if trace is None:
            return
        if spec.label not in memo:
            memo[spec.label] = self._handoff(run_id, goal, spec, trace, done)
        handoff = memo[spec.label]
        if handoff is not None:
            self._score(run_id, goal, spec, booker, trace, handoff)

    def _failed(self, run_id: str, stage: str, goal: Goal, exc: ModelError, **where: str) -> None:
        self.store.log_event(run_id, "failure", {"stage": stage, "goal": goal.id, **where,
                                                 "error": f"{type(exc).__name__}: {exc}"})

    def _trace(self, run_id: str, goal: Goal, done: set[str]) -> dict[str, Any] | None:
        key = f"trace/{goal.id}"
        if key in done:
            return self.store.result(run_id, key)
        try:
            with self.telemetry.stage("researcher", goal=goal.id):
                research = self.researcher().research(self.world, goal)
        except ModelError as exc:
            self._failed(run_id, "researcher", goal, exc)
            return None
        value = {"trace": research.trace, **research_accounting(research)}
        self.store.log_event(run_id, "researcher", {"goal": goal.id, **research_accounting(research)})
        self.store.record(run_id, key, value)
        return value

    def _handoff(self, run_id: str, goal: Goal, spec: MethodSpec, trace: dict[str, Any],
                 done: set[str]) -> dict[str, Any] | None:
        from relaykit.handoff import compress_handoff

        key = f"handoff/{goal.id}/{spec.label}"
        if key in done:
            return self.store.result(run_id, key)
        model = self.model if spec.needs_model else None
        try:
            with self.telemetry.stage("compression", goal=goal.id, method=spec.label):
                handoff = compress_handoff(trace["trace"], goal.text, spec.compressor, model=model,
                                           embedder=self.embedder, **spec.kwargs)
        except ModelError as exc:
            self._failed(run_id, "compression", goal, exc, method=spec.label)
            return None
        value = self._describe_handoff(goal, trace["trace"], handoff)
        self.store.log_event(run_id, "compression", {"goal": goal.id, "method": spec.label,
                                                     **{k: value[k] for k in ("ratio", "compression_tokens")}})
        self.store.record(run_id, key, value)
        return value

    def _describe_handoff(self, goal: Goal, trace: str, handoff: Any) -> dict[str, Any]:
        from relaykit.handoff import audit
        from relaykit.handoff.audit import Fact

        text = handoff.payload_text
        report = audit(handoff, [Fact(*f) for f in audit_facts(self.world, goal)], trace=trace)
        return {
            "payload": handoff.payload, "payload_text": text, "ratio": handoff.ratio,
            "tokens_in": handoff.tokens_in, "tokens_out": handoff.tokens_out,
            "compression_calls": handoff.cost.model_calls,
            "compression_tokens": handoff.cost.prompt_tokens + handoff.cost.completion_tokens,
            "compression_seconds": handoff.cost.seconds, "warnings": list(handoff.warnings),
            "fidelity": similarity(self.embedder, trace, text),
            "goal_similarity": similarity(self.embedder, text, goal.text),
            "evidence_recall": report.recall, "facts_lost": len(report.lost), "invented_facts": report.invented,
        }

    def _score(self, run_id: str, goal: Goal, spec: MethodSpec, booker_name: str, trace: dict[str, Any],
               handoff: dict[str, Any]) -> None:
        try:
            with self.telemetry.stage("booker", goal=goal.id, method=spec.label, booker=booker_name):
                booking = self.booker(booker_name).book(goal, handoff["payload"], handoff["payload_text"])
        except ModelError as exc:
            self._failed(run_id, "booker", goal, exc, method=spec.label, booker=booker_name)
            return
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
        self.store.log_event(run_id, "booker", {"goal": goal.id, "method": spec.label, "booker": booker_name,
                                                "answer": result["answer"], "tokens": booker_tokens})
        self.store.record(run_id, score_key(goal, spec, booker_name), result)


def score_key(goal: Goal, spec: MethodSpec, booker: str) -> str:
    return f"score/{goal.id}/{spec.label}/{booker}"


def research_accounting(research: Research) -> dict[str, Any]:
    return {"prompt_tokens": research.prompt_tokens, "completion_tokens": research.completion_tokens,
            "model_calls": research.model_calls, "seconds": research.seconds}


def open_lab(store: RunStore, config: RelayConfig | None = None, *, resume: str | None = None,
             model: Model | None = None, telemetry: Telemetry | None = None) -> tuple[RelayLab, str]:
    """A lab and its run id: a new run from ``config``, or the stored run ``resume`` with its own config."""
    if resume is not None:
        info = store.get_run(resume)
        if info.kind != KIND:
            raise UsageError(f"run {resume} is a {info.kind!r} run, not a relay run; see `relaykit runs`")
        return RelayLab(RelayConfig.from_json(info.config), store, model=model, telemetry=telemetry), resume
    lab = RelayLab(config or RelayConfig(), store, model=model, telemetry=telemetry)
    return lab, lab.start()
