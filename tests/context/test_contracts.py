from typing import Literal

import pytest
from pydantic import BaseModel

from relaykit.context import contract_instruction, empty_result, is_empty, parse_contract
from relaykit.errors import InvalidOutput, UsageError
from relaykit.models import complete_structured
from relaykit.testing import ScriptedModel


class Item(BaseModel):
    id: str
    kind: Literal["decision", "action"]
    owner: str | None = None
    tags: list[str]


class Items(BaseModel):
    items: list[Item]
    note: str | None


def test_instruction_is_a_compact_shape_with_an_empty_convention() -> None:
    text = contract_instruction(Items)
    item = '{"id":str,"kind":"decision"|"action","owner"?:str|null,"tags":[str]}'
    assert 'Shape: {"items":[' + item + '],"note":str|null}' in text
    assert 'output exactly: {"items":[],"note":null}' in text
    assert "no prose" in text
    # far shorter than the full JSON schema it stands for
    assert len(text) < len(str(Items.model_json_schema())) / 2


def test_empty_result_and_is_empty() -> None:
    assert empty_result(Items) == Items(items=[], note=None)
    assert is_empty(parse_contract('{"items": [], "note": null}', Items), Items)
    assert not is_empty(Items(items=[Item(id="1", kind="action", tags=[])], note=None), Items)


def test_required_scalar_needs_an_explicit_empty() -> None:
    class Verdict(BaseModel):
        label: str

    with pytest.raises(UsageError, match="empty="):
        contract_instruction(Verdict)
    assert "output exactly: {\"label\":\"none\"}" in contract_instruction(Verdict, empty=Verdict(label="none"))


def test_contract_answers_parse_and_bad_ones_raise() -> None:
    model = ScriptedModel(['{"items":[{"id":"7","kind":"decision","tags":["db"]}],"note":null}'])
    value = complete_structured(model, contract_instruction(Items) + "\n\nText: we decided to move the DB", Items)
    assert value.items[0].kind == "decision"
    with pytest.raises(InvalidOutput):
        parse_contract("Sure! Here are the items: none.", Items)
    with pytest.raises(UsageError):
        contract_instruction(dict)  # type: ignore[arg-type]
