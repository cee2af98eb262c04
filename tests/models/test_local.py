"""The embedded SmolLM2 model, for real: a short generation and a constrained one (few such tests)."""

from __future__ import annotations

import math
import time

import pytest
from pydantic import BaseModel

from relaykit.errors import ModelTimeout
from relaykit.models import complete_structured, open_model
from relaykit.models.local import LocalModel


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
    # the embedded model keeps a call's deadline too (--timeout / RELAYKIT_TIMEOUT), and stays usable after
    started = time.monotonic()
    with pytest.raises(ModelTimeout, match="deadline"):
        LocalModel(timeout=0.3).complete("Count from 1 to 1000, one number per line.", max_tokens=1500)
    assert time.monotonic() - started < 10
    assert model.complete("Say hello.", max_tokens=10).completion_tokens > 0


@pytest.mark.embedded_model
def test_embedded_scores_a_continuation_and_reuses_the_prompt_prefix() -> None:
    model = open_model("local")
    france = [{"role": "user", "content": "What is the capital of France? One word."}]
    likely = model.score_continuation(france, "Paris")
    unlikely = model.score_continuation(france, "Zebra")
    assert likely and all(math.isfinite(t.logprob) and t.logprob <= 0 for t in likely + unlikely)
    uniform = -math.log(49152)  # what a broken read of the logits gives for every token
    assert likely[0].logprob > uniform + 5
    assert sum(t.logprob for t in likely) > sum(t.logprob for t in unlikely)
    # a different prompt between two identical calls must not leak through the reused KV cache
    a = model.score_continuation([{"role": "user", "content": "Say: open the door"}], "open the door")
    b = model.score_continuation([{"role": "user", "content": "Say: take the coin"}], "open the door")
    again = model.score_continuation([{"role": "user", "content": "Say: open the door"}], "open the door")
    assert sum(t.logprob for t in a) > sum(t.logprob for t in b)
    assert [round(t.logprob, 4) for t in again] == [round(t.logprob, 4) for t in a]
