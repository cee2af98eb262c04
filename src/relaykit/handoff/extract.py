"""``extract``: schema-constrained JSON extraction by a model (the ``Extraction`` schema), paper 000.

The model answers through ``complete_structured`` (constrained decoding where the backend supports it,
validation and bounded repair everywhere). A trace too long for the window is extracted piece by piece
and the pieces are merged by option identifier.
"""

from __future__ import annotations

from dataclasses import dataclass

from relaykit.handoff.base import Compressed, FunctionCompressor, Job, register_compressor
from relaykit.handoff.chunking import fit_chunks, room_for_trace
from relaykit.handoff.schema import Constraint, Extraction, OptionEvaluation
from relaykit.models.base import Usage
from relaykit.models.structured import complete_structured

SYSTEM = ("You turn an agent's audit notes into a JSON record for the agent that decides next. List the "
          "goal's hard constraints with their thresholds; for every option identifier in the notes, the "
          "attribute values the notes state, each constraint check with its verdict (pass, fail or unknown) "
          "and the sentence it comes from, and whether the option was eliminated and by which sentence. "
          "feasible_ids lists the options that passed every check; if none did, explain why in "
          "empty_result, otherwise set it to null. Copy numbers and identifiers exactly; add nothing.")


def _messages(goal: str, trace: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": SYSTEM},
            {"role": "user", "content": f"Goal:\n{goal}\n\nNotes:\n{trace}"}]


def merge(goal: str, parts: list[Extraction]) -> Extraction:
    """One extraction from several: constraints by name, options by id (first values win, checks add up)."""
    constraints: dict[str, Constraint] = {}
    options: dict[str, OptionEvaluation] = {}
    for part in parts:
        for c in part.constraints:
            constraints.setdefault(c.name, c)
        for o in part.options:
            if o.id not in options:
                options[o.id] = o
                continue
            old = options[o.id]
            options[o.id] = old.model_copy(update={
                "attributes": {**o.attributes, **old.attributes},
                "checks": old.checks + o.checks,
                "eliminated": old.eliminated or o.eliminated,
                "elimination_evidence": old.elimination_evidence or o.elimination_evidence,
            })
    said_feasible = {i for p in parts for i in p.feasible_ids}
    feasible = [i for i, o in options.items() if i in said_feasible and not o.eliminated
                and all(c.verdict != "fail" for c in o.checks)]
    empty = next((p.empty_result for p in parts if p.empty_result), None) if not feasible else None
    return Extraction(goal=goal, constraints=list(constraints.values()), options=list(options.values()),
                      feasible_ids=feasible, empty_result=empty)


def extract(job: Job) -> Compressed:
    model, max_tokens = job.model, int(job.settings["max_tokens"])
    chunks = fit_chunks(model, job.trace, room_for_trace(model, _messages(job.goal, ""), max_tokens))
    usage = Usage()
    try:
        parts = [complete_structured(model, _messages(job.goal, chunk), Extraction, usage=usage,
                                     max_repairs=int(job.settings["max_repairs"]), max_tokens=max_tokens,
                                     temperature=0.0, seed=int(job.settings["seed"]))
                 for chunk in chunks]
    finally:
        job.meter.model_calls += usage.requests
        job.meter.prompt_tokens += usage.prompt_tokens
        job.meter.completion_tokens += usage.completion_tokens
    result = merge(job.goal, parts) if len(parts) > 1 else parts[0]
    warnings = [f"the trace did not fit {model.name}'s window; it was extracted in {len(chunks)} pieces"] \
        if len(chunks) > 1 else []
    if not result.options:
        warnings.append("the extraction lists no options; the next agent cannot choose from it")
    return Compressed(result.model_dump(mode="json"), warnings=tuple(warnings))


@dataclass(frozen=True)
class ExtractSettings:
    """The settings of ``extract`` (defaults as shown)."""

    max_tokens: int = 2048
    max_repairs: int = 2
    seed: int = 0


register_compressor("extract", FunctionCompressor.of(extract, ExtractSettings, needs_model=True))
