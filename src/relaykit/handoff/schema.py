"""The one schema of a structured hand-off payload, shared by every writer and reader of it.

``extract`` asks a model for it (schema-constrained), ``extract-rules`` builds it without a model,
and the audit and the relay lab read it. Field names are part of the relay contract.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Operator = Literal["<=", ">=", "==", "contains", "in", "other"]
Verdict = Literal["pass", "fail", "unknown"]


class Constraint(BaseModel):
    """One hard constraint of the goal, with its threshold as stated."""

    model_config = ConfigDict(frozen=True)

    name: str = Field(description="short constraint name, e.g. 'budget', 'amenity', 'distance'")
    operator: Operator = Field(description="how an option's value is compared with the threshold")
    threshold: str = Field(description="the threshold as stated, e.g. '420 USD', '3.0 km', 'gym'")


class Check(BaseModel):
    """One option checked against one constraint, with the sentence that says so."""

    model_config = ConfigDict(frozen=True)

    constraint: str = Field(description="the name of the constraint checked (a Constraint.name)")
    value: str | None = Field(default=None, description="the option's value that was checked")
    verdict: Verdict = Field(description="pass, fail, or unknown when the trace does not say")
    evidence: str = Field(description="the trace sentence the verdict comes from")


class OptionEvaluation(BaseModel):
    """Everything the trace says about one option identifier."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(description="the option identifier, e.g. 'H03'")
    attributes: dict[str, str] = Field(
        default_factory=dict, description="attribute name -> value as read, e.g. {'price': '182 USD'}"
    )
    checks: list[Check] = Field(default_factory=list)
    eliminated: bool = Field(default=False, description="true when the trace rules the option out")
    elimination_evidence: str | None = Field(default=None, description="the sentence(s) that rule it out")


class Extraction(BaseModel):
    """The structured hand-off: constraint register, per-option evaluations, and the feasible set."""

    model_config = ConfigDict(frozen=True)

    goal: str
    constraints: list[Constraint] = Field(default_factory=list, description="the constraint register")
    options: list[OptionEvaluation] = Field(default_factory=list, description="one entry per option identifier")
    feasible_ids: list[str] = Field(
        default_factory=list, description="ids that pass every check they were checked on; [] when none"
    )
    empty_result: str | None = Field(
        default=None, description="when nothing qualifies, the reason; null otherwise"
    )

    def option(self, option_id: str) -> OptionEvaluation | None:
        """The evaluation of ``option_id``, or None when the payload does not mention it."""
        return next((o for o in self.options if o.id == option_id), None)


__all__ = ["Check", "Constraint", "Extraction", "Operator", "OptionEvaluation", "Verdict"]
