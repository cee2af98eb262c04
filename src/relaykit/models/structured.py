"""Structured output: schema-constrained calls with validation and a bounded repair loop."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar, overload

from pydantic import BaseModel, ValidationError

from relaykit.accounting import Tally
from relaykit.errors import InvalidOutput, UsageError
from relaykit.models.base import (
    ChatRequest,
    ChatResponse,
    Message,
    Model,
    SchemaLike,
    json_schema_of,
    parse_json_text,
    schema_name,
)

T = TypeVar("T", bound=BaseModel)


def validate_output(text: str, schema: SchemaLike) -> Any:
    """Parse ``text`` and validate it against ``schema``; raise ``InvalidOutput`` with the errors."""
    try:
        data = parse_json_text(text)
    except json.JSONDecodeError as exc:
        raise InvalidOutput(f"the answer is not JSON: {exc}", raw_text=text, errors=[str(exc)]) from None
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        try:
            return schema.model_validate(data)
        except ValidationError as exc:
            errors = [f"{'.'.join(map(str, e['loc'])) or '$'}: {e['msg']}" for e in exc.errors()]
            raise InvalidOutput(
                f"the answer does not match {schema.__name__}: {'; '.join(errors[:5])}",
                raw_text=text,
                errors=errors,
            ) from None
    from jsonschema import Draft202012Validator

    problems = [
        f"{'.'.join(map(str, e.absolute_path)) or '$'}: {e.message}"
        for e in Draft202012Validator(dict(schema)).iter_errors(data)
    ]
    if problems:
        raise InvalidOutput(
            f"the answer does not match the schema: {'; '.join(problems[:5])}", raw_text=text, errors=problems
        )
    return data


def schema_instruction(schema: SchemaLike) -> str:
    """A compact instruction that asks for JSON matching ``schema`` (for servers without constraints)."""
    compact = json.dumps(json_schema_of(schema), separators=(",", ":"))
    return f"Answer with one JSON object only, no prose, matching this JSON schema:\n{compact}"


def repair_message(error: InvalidOutput) -> str:
    listed = "\n".join(f"- {e}" for e in error.errors[:10]) or f"- {error}"
    return (
        "Your previous answer was not valid for the required JSON schema:\n"
        f"{listed}\nAnswer again with one corrected JSON object only."
    )


REPAIR_MARGIN = 16
"""Tokens kept free below the context window when a repair's completion is sized."""
MIN_REPAIR_TOKENS = 32
"""A repair that would have fewer tokens than this to answer in is not attempted."""


@overload
def complete_structured(
    model: Model, messages: Sequence[Message] | str, schema: type[T], *,
    max_repairs: int = ..., usage: Tally | None = ..., **params: Any,
) -> T: ...


@overload
def complete_structured(
    model: Model, messages: Sequence[Message] | str, schema: Mapping[str, Any], *,
    max_repairs: int = ..., usage: Tally | None = ..., **params: Any,
) -> Any: ...


def complete_structured(
    model: Model,
    messages: Sequence[Message] | str,
    schema: SchemaLike,
    *,
    max_repairs: int = 2,
    usage: Tally | None = None,
    **params: Any,
) -> Any:
    """Ask ``model`` for output matching ``schema`` and return the validated value.

    On invalid output the validation errors go back to the model and it answers again, at most
    ``max_repairs`` times; then ``InvalidOutput`` is raised carrying the last raw text. Every
    attempt's tokens are added to ``usage`` when one is given.
    """
    if max_repairs < 0:
        raise UsageError(f"max_repairs must be 0 or more, not {max_repairs}")
    request = ChatRequest.of(messages, schema=schema, **params)
    last: InvalidOutput | None = None
    attempts, window_full = 0, False
    for attempt in range(max_repairs + 1):
        if attempt:  # a repair carries the bad answer back: size its completion to what the window still holds
            room = model.context_window - model.count_messages(request.messages) - REPAIR_MARGIN
            if room < MIN_REPAIR_TOKENS:
                window_full = True
                break
            request = replace(request, max_tokens=min(request.max_tokens, room))
        response = model.complete(request)
        attempts += 1
        if usage is not None:
            usage.add(response)
        try:
            return parsed_or_validate(response, schema)
        except InvalidOutput as exc:
            last = exc
            request = request.with_messages(
                [
                    *request.messages,
                    {"role": "assistant", "content": response.text},
                    {"role": "user", "content": repair_message(exc)},
                ]
            )
    assert last is not None
    why = " (a further repair would not fit the context window)" if window_full else ""
    raise InvalidOutput(
        f"{model.name} gave no valid {schema_name(schema)} after {attempts} attempt(s){why}: {last}",
        raw_text=last.raw_text,
        errors=last.errors,
    )


def parsed_or_validate(response: ChatResponse, schema: SchemaLike) -> Any:
    if response.parsed is not None and (
        not isinstance(schema, type) or isinstance(response.parsed, schema)
    ):
        return response.parsed
    return validate_output(response.text, schema)
