"""Schema contracts: a pydantic model rendered as a compact JSON-shape instruction with an explicit
empty-result convention, so a model spends its output tokens on data, not on prose and caveats."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ValidationError

from relaykit.errors import UsageError
from relaykit.models.structured import validate_output

_SCALARS = {"string": "str", "integer": "int", "number": "num", "boolean": "bool", "null": "null"}


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return dict(defs[ref.split("/")[-1]])
    return node


def shape(node: dict[str, Any], defs: dict[str, Any]) -> str:
    """A terse type sketch of a JSON-schema node: ``{"id":str,"tags":[str],"owner":str|null}``."""
    node = _resolve(node, defs)
    if "enum" in node:
        return "|".join(json.dumps(v) for v in node["enum"])
    if "const" in node:
        return json.dumps(node["const"])
    for combo in ("anyOf", "oneOf"):
        if combo in node:
            return "|".join(shape(option, defs) for option in node[combo])
    kind = node.get("type")
    if kind == "object" or "properties" in node:
        required = set(node.get("required", ()))
        fields = [f'"{name}"{"" if name in required else "?"}:{shape(sub, defs)}'
                  for name, sub in node.get("properties", {}).items()]
        return "{" + ",".join(fields) + "}"
    if kind == "array":
        return "[" + shape(node.get("items", {}), defs) + "]"
    if isinstance(kind, list):
        return "|".join(_SCALARS.get(str(k), str(k)) for k in kind)
    return _SCALARS.get(str(kind), "any")


def empty_result(schema: type[BaseModel]) -> BaseModel:
    """The instance that means "nothing found": lists empty, optionals null, defaults kept.

    Raises ``UsageError`` when a required field has no natural empty value (pass ``empty=`` then).
    """
    candidate: dict[str, Any] = {}
    for name, field in schema.model_fields.items():
        if not field.is_required():
            continue
        origin = getattr(field.annotation, "__origin__", None)
        candidate[name] = [] if origin in (list, tuple, set, frozenset) or field.annotation is list else None
    try:
        return schema.model_validate(candidate)
    except ValidationError:
        raise UsageError(
            f"{schema.__name__} has required fields with no empty value; pass empty=<an instance> "
            "to contract_instruction to say what 'nothing found' looks like"
        ) from None


def contract_instruction(schema: type[BaseModel], *, empty: BaseModel | None = None) -> str:
    """A compact instruction asking for JSON of ``schema``'s shape only, and for the empty result
    when there is nothing to report (``?`` marks optional keys)."""
    if not (isinstance(schema, type) and issubclass(schema, BaseModel)):
        raise UsageError(f"a schema contract needs a pydantic model class, not {schema!r}")
    js = schema.model_json_schema()
    sketch = shape(js, js.get("$defs", {}))
    nothing = (empty if empty is not None else empty_result(schema)).model_dump_json(exclude_none=False)
    return (
        "Output only JSON, no prose, no markdown, no explanations.\n"
        f"Shape: {sketch}\n"
        f"If there is nothing to report, output exactly: {nothing}"
    )


def parse_contract(text: str, schema: type[BaseModel]) -> BaseModel:
    """Validate a contract answer (``InvalidOutput`` when it is not the promised JSON)."""
    value: BaseModel = validate_output(text, schema)
    return value


def is_empty(value: BaseModel, schema: type[BaseModel], *, empty: BaseModel | None = None) -> bool:
    """Whether ``value`` is the contract's "nothing found" answer."""
    return value == (empty if empty is not None else empty_result(schema))
