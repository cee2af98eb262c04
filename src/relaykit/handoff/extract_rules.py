"""``extract-rules``: the structured payload of ``extract``, built by parsing instead of a model call."""

from __future__ import annotations

from relaykit.handoff.base import Compressed, FunctionCompressor, Job, register_compressor
from relaykit.handoff.rules import extract_rules as parse


def extract_rules_method(job: Job) -> Compressed:
    extraction = parse(job.trace, job.goal, id_pattern=job.settings["id_pattern"])
    warnings = []
    if not extraction.options:
        warnings.append("no option identifiers were found, so the payload carries only the constraints; "
                        "pass id_pattern=REGEX matching the trace's identifiers")
    return Compressed(extraction.model_dump(mode="json"), warnings=tuple(warnings))


register_compressor("extract-rules", FunctionCompressor(extract_rules_method, {"id_pattern": None}))
