"""Tool specifications: the list a planner plans against and an executor calls from."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from relaykit.errors import UsageError


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its name, what it does, and a JSON schema of its parameters."""

    name: str
    description: str = ""
    parameters: Mapping[str, Any] = field(default_factory=dict)

    @property
    def properties(self) -> dict[str, Any]:
        props = self.parameters.get("properties") or {}
        return dict(props) if isinstance(props, Mapping) else {}

    @property
    def required(self) -> list[str]:
        req = self.parameters.get("required") or []
        return [str(r) for r in req] if isinstance(req, list) else []

    def signature(self) -> str:
        """A one-line summary: ``name(a, b?) - description`` (``?`` marks optional parameters)."""
        params = ", ".join(p if p in self.required else f"{p}?" for p in self.properties)
        text = self.description.strip().splitlines()[0] if self.description.strip() else ""
        return f"{self.name}({params})" + (f" - {text}" if text else "")


def tool_from_dict(item: Mapping[str, Any], where: str = "tool") -> ToolSpec:
    """A ``ToolSpec`` from the OpenAI function format (``{"type": "function", "function": {...}}``) or a bare one."""
    spec = item.get("function", item) if isinstance(item, Mapping) else None
    if not isinstance(spec, Mapping) or not isinstance(spec.get("name"), str) or not spec["name"]:
        raise UsageError(f"{where} has no 'name'; give tools as {{'name', 'description', 'parameters'}} objects "
                         "or in the OpenAI function format")
    params = spec.get("parameters") or {}
    if not isinstance(params, Mapping):
        raise UsageError(f"{where} ({spec['name']}): 'parameters' must be a JSON-schema object")
    return ToolSpec(str(spec["name"]), str(spec.get("description") or ""), dict(params))


def load_tools(data: Any) -> list[ToolSpec]:
    """Tool specs from a list of tool dicts, a ``{"tools": [...]}`` object, JSON text, or ToolSpecs."""
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise UsageError(f"the tool list is not JSON: {exc.msg} at line {exc.lineno}") from None
    if isinstance(data, Mapping) and "tools" in data:
        data = data["tools"]
    if not isinstance(data, Iterable) or isinstance(data, Mapping):
        raise UsageError("the tool list must be a JSON list of tools (or an object with a 'tools' list)")
    tools = [t if isinstance(t, ToolSpec) else tool_from_dict(t, f"tool {i}") for i, t in enumerate(data)]
    names = [t.name for t in tools]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise UsageError(f"the tool list names these tools more than once: {', '.join(duplicates)}")
    return tools


def describe_tools(tools: Iterable[ToolSpec]) -> str:
    """One line per tool, for prompts."""
    return "\n".join(f"- {tool.signature()}" for tool in tools)
