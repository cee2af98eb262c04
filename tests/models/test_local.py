"""The embedded SmolLM2 model, for real: a short generation and a constrained one (few such tests)."""

from __future__ import annotations

import math

import pytest
from pydantic import BaseModel

from relaykit.models import complete_structured, open_model


class Trip(BaseModel):
    city: str
    nights: int


@pytest.mark.embedded_model
def test_embedded_generation_and_schema_constrained_output() -> None:
    model = open_model("local")
    response = model.complete("Say hello.", max_tokens=10)
    assert 0 < response.completion_tokens <= 10 and response.prompt_tokens > 0
    trip = complete_structured(model, "A trip to London for 3 nights, as JSON.", Trip, max_tokens=40,
                               max_repairs=0)
    assert isinstance(trip, Trip)


@pytest.mark.embedded_model
def test_embedded_scores_a_continuation() -> None:
    model = open_model("local")
    messages = [{"role": "user", "content": "What is the capital of France? One word."}]
    likely = model.score_continuation(messages, "Paris")
    unlikely = model.score_continuation(messages, "Zebra")
    assert likely and all(lp.logprob <= 0 for lp in likely)
    assert sum(lp.logprob for lp in likely) > sum(lp.logprob for lp in unlikely)
    assert all(math.isfinite(lp.logprob) for lp in likely + unlikely)
