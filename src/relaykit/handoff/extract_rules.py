"""``extract-rules``: the structured payload of ``extract``, built by parsing instead of a model call.

Settings: ``id_pattern`` (regex of option identifiers) and ``evidence`` (False blanks each check's evidence
sentence, for a smaller payload: on terse audit traces the JSON structure is larger than the trace).
"""

from __future__ import annotations

from relaykit.handoff.base import Compressed, FunctionCompressor, Job, register_compressor
from relaykit.handoff.rules import extract_rules as parse
from relaykit.handoff.units import identifier_warnings


def extract_rules_method(job: Job) -> Compressed:
    extraction = parse(job.trace, job.goal, id_pattern=job.settings["id_pattern"])
    warnings = identifier_warnings(job.trace, job.settings["id_pattern"]) if not extraction.options else ()
    payload = extraction.model_dump(mode="json")
    if not job.settings["evidence"]:
        for option in payload["options"]:
            option["checks"] = [{**check, "evidence": ""} for check in option["checks"]]
    return Compressed(payload, warnings=warnings)


register_compressor("extract-rules", FunctionCompressor(extract_rules_method, {"id_pattern": None, "evidence": True}))
