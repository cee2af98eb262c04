"""One lab protocol and one runner for every lab (relay, trajectory, delegation, composition).

A lab says *what* to compute: its stored config, its ``units()`` (each with the result key that marks it
done), ``run_unit()`` (one unit's result) and ``summarize()``. The runner says *how*, the same way for
every lab: create a run (after every option was validated, so a usage error never leaves an empty
"running" run behind) or resume one (checking its kind), take the run's lock (two processes never work on
one run), skip the units already recorded, record each result the moment it is done, report progress on
stderr, work on groups of units concurrently, leave out model-dependent units past a model time budget,
log model failures as events, and end with an error when every model-dependent unit failed (an
unreachable endpoint) instead of printing empty tables. Models come from ``LabModels``: a spec, or a
comma-separated fallback chain, with the cache and telemetry wrappers, opened once per run.
"""

from __future__ import annotations

import contextvars
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol, TextIO, TypeVar

from relaykit.bench.labmodel import open_lab_model, wrap_lab_model
from relaykit.bench.store import RunInfo, RunStore, strip_credentials
from relaykit.errors import AllModelsFailed, InvalidOutput, ModelError, RelaykitError, UsageError
from relaykit.models import Model
from relaykit.telemetry import Telemetry


@dataclass(frozen=True)
class Unit:
    """One piece of a lab's work. ``key`` is the result key that marks it done; units of one ``group`` run
    in order in one worker (so a lab may reuse a group's intermediate results); ``tags`` travel into the
    failure and skip events (e.g. ``{"method": "prune"}``) so a summary can say why a row is missing."""

    key: str
    group: str = ""
    uses_model: bool = False
    tags: Mapping[str, str] = field(default_factory=dict)
    data: Any = None


class Lab(Protocol):
    """What a lab implements; ``Runner`` does the rest."""

    kind: str

    def stored_config(self) -> dict[str, Any]:
        """Everything that decides the run's results; a resume rebuilds the lab from it."""
        ...

    def units(self) -> Sequence[Unit]: ...

    def run_unit(self, unit: Unit, ctx: RunContext) -> Mapping[str, Any] | None:
        """The unit's result, recorded under ``unit.key`` (None: nothing to record). Raise ``ModelError`` when a
        model failed: the runner logs it and leaves the unit for a resume."""
        ...

    # Optional: ``prepare(ctx, pending_units)``, shared work the runner calls once before the units run.

    def model_specs(self) -> Sequence[str]:
        """The model specs the run will use (opened, i.e. checked, before the run is registered)."""
        ...

    def summarize(self, store: RunStore, run: RunInfo) -> Any: ...


L = TypeVar("L", bound=Lab)


class LabModels:
    """The models of one run, opened lazily and once per spec: fallback chain, telemetry, then cache."""

    def __init__(self, *, cache: str | None = None, namespace: str = "lab", telemetry: Telemetry | None = None,
                 given: Mapping[str, Model] | None = None) -> None:
        from relaykit.models import open_store

        self.cache = open_store(cache) if cache else None  # a bad cache spec fails here, before a run exists
        self.namespace, self.telemetry = namespace, telemetry
        self._given = dict(given or {})
        self._models: dict[str, Model] = {}
        self._lock = threading.Lock()

    def get(self, spec: str) -> Model:
        with self._lock:
            if spec not in self._models:
                base = self._given.get(spec) or self._given.get("*") or open_lab_model(spec)
                traced = self.telemetry if self.telemetry is not None and self.telemetry.sinks else None
                self._models[spec] = wrap_lab_model(base, cache=self.cache, namespace=self.namespace,
                                                    telemetry=traced)
            return self._models[spec]


class RunContext:
    """What ``run_unit`` may use: the run's store entries, its models, its event log."""

    def __init__(self, store: RunStore, run_id: str, models: LabModels, done: set[str],
                 telemetry: Telemetry | None = None) -> None:
        self.store, self.run_id, self.models, self._done = store, run_id, models, done
        self.telemetry = telemetry or Telemetry()

    def stage(self, name: str, **attrs: Any) -> AbstractContextManager[Any]:
        """A telemetry stage around part of a unit (a no-op without sinks)."""
        return self.telemetry.stage(name, **attrs)

    def done(self, key: str) -> bool:
        return key in self._done

    def result(self, key: str) -> dict[str, Any]:
        return self.store.result(self.run_id, key)

    def record(self, key: str, value: Mapping[str, Any]) -> None:
        """Record an intermediate result (e.g. a trace several units share)."""
        self.store.record(self.run_id, key, value)
        self._done.add(key)

    def log(self, kind: str, payload: Mapping[str, Any]) -> None:
        self.store.log_event(self.run_id, kind, payload)


class ProgressSink(Protocol):
    def start(self, total: int, done: int) -> None: ...

    def advance(self, n: int = 1) -> None: ...

    def close(self) -> None: ...


class StderrProgress:
    """Progress on stderr: a bar on a terminal; otherwise a plain line every ``every_s`` seconds or 10%."""

    def __init__(self, label: str, *, stream: TextIO | None = None, every_s: float = 10.0,
                 force_plain: bool | None = None) -> None:
        self.label, self.stream, self.every_s = label, stream or sys.stderr, every_s
        self.plain = force_plain if force_plain is not None else not self.stream.isatty()
        self._lock = threading.Lock()
        self.total = self.done = 0
        self._bar: Any = None
        self._started = self._last_time = time.monotonic()
        self._last_done = 0

    def start(self, total: int, done: int) -> None:
        self.total, self.done = total, done
        self._started = self._last_time = time.monotonic()
        self._last_done = done
        if self.plain:
            self._line()
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self._bar = Progress(TextColumn(self.label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                             console=Console(file=self.stream), transient=True)
        self._bar.start()
        self._task = self._bar.add_task(self.label, total=total, completed=done)

    def advance(self, n: int = 1) -> None:
        with self._lock:
            self.done += n
            if self._bar is not None:
                self._bar.advance(self._task, n)
                return
            now = time.monotonic()
            step = max(1, self.total // 10)
            if now - self._last_time >= self.every_s or self.done - self._last_done >= step:
                self._line()

    def _line(self) -> None:
        share = f" ({self.done / self.total:.0%})" if self.total else ""
        elapsed = time.monotonic() - self._started
        self.stream.write(f"{self.label}: {self.done}/{self.total} units{share}, {elapsed:.0f} s\n")
        self.stream.flush()
        self._last_time, self._last_done = time.monotonic(), self.done

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
        elif self.done != self._last_done:
            self._line()


class LabFailed(RelaykitError):
    """Every model-dependent unit this run attempted failed on endpoint errors (an unreachable model)."""


@dataclass(frozen=True)
class RunOptions:
    """How to run (not what): checked when built, before anything is stored."""

    concurrency: int = 1
    model_budget_s: float | None = None  # seconds of model-dependent work; None: no limit

    def __post_init__(self) -> None:
        if self.concurrency < 1:
            raise UsageError(f"--concurrency must be at least 1, not {self.concurrency}")
        if self.model_budget_s is not None and self.model_budget_s < 0:
            raise UsageError(f"--model-budget must be 0 (no limit) or a number of seconds, not {self.model_budget_s}")


@dataclass
class RunOutcome:
    """What one invocation did: units run now, skipped by the budget, failed (their events), final status."""

    run_id: str
    ran: int = 0
    skipped: int = 0
    failures: list[dict[str, Any]] = field(default_factory=list)
    status: str = "running"


def check_count(flag: str, value: int | None, *, minimum: int = 0) -> None:
    """A usage error unless ``value`` is None or at least ``minimum`` (for counts such as --model-goals)."""
    if value is not None and value < minimum:
        raise UsageError(f"{flag} must be at least {minimum}, not {value}")


def open_run(store: RunStore, kind: str, make: Callable[[Mapping[str, Any] | None], L],
             resume: str | None = None, models: LabModels | None = None) -> tuple[L, str]:
    """A lab and its run id: ``make(None)`` for a new run (registered only after it built, i.e. validated, and
    its models opened), or ``make(stored_config)`` for ``resume`` (a run of the same ``kind``). Either way the
    run's lock is taken."""
    if resume is not None:
        info = store.get_run(resume)
        if info.kind != kind:
            raise UsageError(f"run {resume} is a {info.kind!r} run, not a {kind!r} run; see `relaykit runs`")
        lab = make(info.config)
        _open_models(lab, models)
        store.acquire(resume)
        return lab, resume
    lab = make(None)
    _open_models(lab, models)
    return lab, store.create_run(kind, lab.stored_config())


def _open_models(lab: Lab, models: LabModels | None) -> None:
    if models is not None:
        for spec in lab.model_specs():
            models.get(spec)


class Runner:
    """Runs a lab's missing units against the run store (see the module docstring)."""

    def __init__(self, store: RunStore, models: LabModels | None = None, *,
                 progress: ProgressSink | None = None, telemetry: Telemetry | None = None) -> None:
        self.store, self.models = store, models or LabModels()
        self.progress, self.telemetry = progress, telemetry or Telemetry()
        self._lock = threading.Lock()

    def run(self, lab: Lab, run_id: str, options: RunOptions | None = None) -> RunOutcome:
        options = options or RunOptions()
        units = list(lab.units())
        done = self.store.done_keys(run_id)
        todo = [u for u in units if u.key not in done]
        groups: dict[str, list[Unit]] = {}
        for unit in todo:
            groups.setdefault(unit.group, []).append(unit)
        first_group = units[0].group if units else ""
        state = _State(RunOutcome(run_id), options.model_budget_s or None)
        ctx = RunContext(self.store, run_id, self.models, done, self.telemetry)
        if self.progress is not None:
            self.progress.start(len(units), len(units) - len(todo))
        try:
            with self.telemetry.run(lab.stored_config(), run_id=run_id):
                prepare = getattr(lab, "prepare", None)  # optional: shared work done once, before the units
                if prepare is not None and todo:
                    prepare(ctx, todo)
                self._work(lab, ctx, list(groups.items()), first_group, state, options.concurrency)
        finally:
            if self.progress is not None:
                self.progress.close()
        return self._finish(lab, run_id, state)

    def _work(self, lab: Lab, ctx: RunContext, groups: list[tuple[str, list[Unit]]], first: str,
              state: _State, concurrency: int) -> None:
        if concurrency == 1:
            for name, group in groups:
                self._group(lab, ctx, group, name == first, state)
            return
        with ThreadPoolExecutor(max_workers=concurrency) as pool:
            # each worker runs in a copy of this context, so its telemetry events carry the run id
            futures = [pool.submit(contextvars.copy_context().run, self._group, lab, ctx, group, name == first, state)
                       for name, group in groups]
            for future in futures:
                future.result()

    def _group(self, lab: Lab, ctx: RunContext, group: list[Unit], first: bool, state: _State) -> None:
        for unit in group:
            if unit.uses_model and not first and not state.may_use_model():
                state.skip(unit)
            else:
                self._unit(lab, ctx, unit, state)
            if self.progress is not None:
                self.progress.advance(1)

    def _unit(self, lab: Lab, ctx: RunContext, unit: Unit, state: _State) -> None:
        started = time.perf_counter()
        try:
            result = lab.run_unit(unit, ctx)
        except ModelError as exc:
            failure = {"unit": unit.key, **unit.tags, "error": strip_credentials(f"{type(exc).__name__}: {exc}")}
            self.store.log_event(ctx.run_id, "failure", failure)
            state.fail(unit, failure, endpoint=_endpoint_failure(exc))
        else:
            if result is not None:
                ctx.record(unit.key, result)
            state.succeed(unit)
        if unit.uses_model:
            state.charge(time.perf_counter() - started)

    def _finish(self, lab: Lab, run_id: str, state: _State) -> RunOutcome:
        outcome = state.outcome
        if state.skipped_units:
            self.store.log_event(run_id, "skipped", {"units": outcome.skipped, "model_budget_s": state.budget,
                                                     "model_seconds": round(state.seconds, 1),
                                                     "by": _tag_counts(state.skipped_units)})
        done = self.store.done_keys(run_id)
        missing = any(u.key not in done for u in lab.units())
        outcome.status = "incomplete" if missing else "finished"
        self.store.finish(run_id, outcome.status)
        if outcome.failures and state.model_failed_all():
            raise LabFailed(failure_summary(run_id, outcome.failures))
        return outcome


def _endpoint_failure(exc: ModelError) -> bool:
    """Errors of the endpoint (unreachable, timing out, rate-limiting, every model of a chain), not of one input."""
    return isinstance(exc, AllModelsFailed) or (exc.retryable and not isinstance(exc, InvalidOutput))


def _tag_counts(units: Sequence[Unit]) -> dict[str, int]:
    return dict(Counter("/".join(f"{k}={v}" for k, v in sorted(u.tags.items())) or u.key for u in units))


def failure_summary(run_id: str, failures: Sequence[Mapping[str, Any]]) -> str:
    """One paragraph: how many units failed, grouped by error type, the first message, and what to do."""
    kinds = Counter(str(f["error"]).split(":", 1)[0] for f in failures)
    grouped = ", ".join(f"{n} x {kind}" for kind, n in kinds.most_common())
    first = str(failures[0]["error"])[:300]
    return (f"every model-dependent unit failed ({len(failures)} failure(s): {grouped}); first: {first}. "
            f"Check that the model endpoint is reachable (`relaykit doctor`), then continue with --resume {run_id}")


class _State:
    """The runner's counters for one invocation (thread-safe)."""

    def __init__(self, outcome: RunOutcome, budget: float | None) -> None:
        self.outcome, self.budget = outcome, budget
        self.seconds = 0.0
        self.skipped_units: list[Unit] = []
        self.model_ok = self.model_failed = 0
        self._lock = threading.Lock()

    def may_use_model(self) -> bool:
        with self._lock:
            return self.budget is None or self.seconds < self.budget

    def charge(self, seconds: float) -> None:
        with self._lock:
            self.seconds += seconds

    def skip(self, unit: Unit) -> None:
        with self._lock:
            self.outcome.skipped += 1
            self.skipped_units.append(unit)

    def fail(self, unit: Unit, failure: dict[str, Any], *, endpoint: bool) -> None:
        with self._lock:
            self.outcome.failures.append(failure)
            self.model_failed += int(endpoint)

    def succeed(self, unit: Unit) -> None:
        with self._lock:
            self.outcome.ran += 1
            self.model_ok += int(unit.uses_model)

    def model_failed_all(self) -> bool:
        """True when units failed because the model could not be reached and no model-dependent unit succeeded
        (a prompt too long for one method's window is that method's N = 0 row, not a failed run)."""
        return self.model_failed > 0 and self.model_ok == 0


__all__ = ["Lab", "LabFailed", "LabModels", "ProgressSink", "RunContext", "RunOptions", "RunOutcome", "Runner",
           "StderrProgress", "Unit", "check_count", "failure_summary", "open_run"]
