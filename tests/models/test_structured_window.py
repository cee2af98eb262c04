"""A repair never overruns the context window: its completion is sized to what is left, or it is not tried."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from relaykit.errors import InvalidOutput
from relaykit.models import ChatRequest, complete_structured
from relaykit.testing import ScriptedModel


class Pick(BaseModel):
    hotel_id: str


def test_a_repair_is_sized_to_the_window() -> None:
    seen: list[int] = []

    def answer(request: ChatRequest) -> str:
        seen.append(request.max_tokens)
        return "not json " * 40 if len(seen) == 1 else '{"hotel_id": "H07"}'

    model = ScriptedModel(answer, context_window=700)
    prompt = [{"role": "user", "content": "pick one " * 100}]
    assert complete_structured(model, prompt, Pick, max_tokens=400).hotel_id == "H07"
    assert seen[0] == 400 and seen[1] < 400  # the repair answered in what the window still held


def test_no_room_for_a_repair_is_invalid_output_not_a_window_error() -> None:
    model = ScriptedModel(lambda request: "not json " * 200, context_window=600)
    with pytest.raises(InvalidOutput, match="would not fit the context window"):
        complete_structured(model, [{"role": "user", "content": "pick one " * 80}], Pick, max_tokens=300)
