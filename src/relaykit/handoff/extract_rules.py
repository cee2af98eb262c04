"""``extract-rules``: the evidence table of a trace, read without any model call.

The payload is ``relaykit.handoff.evidence.read_evidence``'s table: the goal's constraint register, one
line per option (its typed values and content words as the trace wrote them, then ``| pass`` or
``| eliminated``), and ``note:`` lines that carry unattributable clauses verbatim. Settings (a frozen
``ExtractRulesSettings``): ``id_pattern`` (regex of option identifiers) and ``format`` (``"text"``, the
default, or ``"json"``: no nulls, evidence named by sentence index). A trace without any option id is
passed on verbatim with a warning.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from relaykit.errors import UsageError
from relaykit.handoff.base import Compressed, Job, register_compressor
from relaykit.handoff.evidence import read_evidence
from relaykit.handoff.units import identifier_warnings

FORMATS = ("text", "json")


@dataclass(frozen=True)
class ExtractRulesSettings:
    id_pattern: str | None = None
    format: str = "text"

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise UsageError(f"extract-rules format must be one of {', '.join(FORMATS)}, not {self.format!r}")


def extract_rules_method(job: Job) -> Compressed:
    settings = ExtractRulesSettings(**job.settings)
    table = read_evidence(job.trace, job.goal, id_pattern=settings.id_pattern)
    if not table.rows:
        warnings = identifier_warnings(job.trace, settings.id_pattern) or (
            "no option was attributed any evidence; the trace is passed on verbatim",)
        return Compressed(job.trace, warnings=(*warnings, "extract-rules fell back to the verbatim trace"))
    sentences = sorted({i for row in table.rows.values() for i in row.sentences})
    payload = table.to_json() if settings.format == "json" else table.text()
    return Compressed(payload, kept_units=tuple(sentences))


class ExtractRules:
    """The ``extract-rules`` compressor (inference-free)."""

    name = "extract-rules"
    needs_model = False
    settings_type = ExtractRulesSettings
    defaults: ClassVar[dict[str, Any]] = {"id_pattern": None, "format": "text"}

    def __call__(self, job: Job) -> Compressed:
        return extract_rules_method(job)


register_compressor("extract-rules", ExtractRules())
