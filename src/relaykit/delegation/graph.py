"""The typed delegation graph: 8 node types, 7 relations, one JSON shape.

The JSON shape is ``{"nodes": [{"id", "type", "value", ...}], "edges": [{"src", "dst", "relation"}]}``.
A ``tool_call`` node's ``value`` is the tool name. Its arguments may come in either of two forms, and
both are accepted on input:

- an ``args`` object on the tool_call node (``{"id": "t1", "type": "tool_call", "value": "get_order",
  "args": {"order_id": "#W1"}}``), the canonical form relaykit emits because it is shorter, or
- ``tool_arg`` nodes joined to their tool_call by an edge in either direction (any relation), carrying
  the parameter name in ``key`` and the argument in ``value``, or (paper 004's shape) no ``key`` and a
  ``value`` written ``"key=value"`` (``{"id": "a1", "type": "tool_arg", "value": "email=mia@example.com"}``).

Graphs are emitted in the form they were given: :meth:`DelegationGraph.to_json` never rewrites a
``key=value`` node into a ``key`` field or ``args`` (only :meth:`DelegationGraph.canonical` folds).

:meth:`DelegationGraph.call_args` reads both forms; :meth:`DelegationGraph.canonical` folds
tool_arg nodes into ``args``.

Ordering edges (``depends_on`` and ``follows``) read ``src`` before ``dst``: the edge
``{"src": "t1", "dst": "t2", "relation": "depends_on"}`` means t1 completes before t2 starts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError

from relaykit.errors import UsageError

NodeType = Literal[
    "goal", "constraint", "entity", "action", "precondition", "postcondition", "tool_call", "tool_arg"
]
Relation = Literal["requires", "targets", "blocks", "enables", "depends_on", "contradicts", "follows"]

NODE_TYPES: tuple[str, ...] = get_args(NodeType)
RELATIONS: tuple[str, ...] = get_args(Relation)
ORDERING_RELATIONS = frozenset({"depends_on", "follows"})


class Node(BaseModel):
    """One node: a typed value. ``key`` names a tool_arg's parameter; ``args`` holds a tool_call's arguments."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1)
    type: NodeType
    value: JsonValue
    key: str | None = None
    args: dict[str, JsonValue] | None = None

    def argument(self) -> tuple[str, JsonValue] | None:
        """A tool_arg's (parameter, argument): from ``key`` and ``value``, or from a ``"key=value"`` value."""
        if self.type != "tool_arg":
            return None
        if self.key:
            return self.key, self.value
        if isinstance(self.value, str) and "=" in self.value:
            name, _, argument = self.value.partition("=")
            if name.strip():
                return name.strip(), argument
        return None


class Edge(BaseModel):
    """A typed relation from ``src`` to ``dst``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    src: str
    dst: str
    relation: Relation


class DelegationGraph(BaseModel):
    """A delegation as a typed graph; check it with :func:`relaykit.delegation.validate_graph`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    nodes: list[Node]
    edges: list[Edge] = Field(default_factory=list)

    def node(self, node_id: str) -> Node:
        for node in self.nodes:
            if node.id == node_id:
                return node
        raise UsageError(f"the graph has no node {node_id!r}; its nodes are: {', '.join(self.ids())}")

    def ids(self) -> list[str]:
        return [node.id for node in self.nodes]

    def tool_calls(self) -> list[Node]:
        return [node for node in self.nodes if node.type == "tool_call"]

    def arg_owners(self) -> dict[str, list[str]]:
        """For every tool_arg node, the ids of the tool_call nodes an edge joins it to."""
        types = {node.id: node.type for node in self.nodes}
        owners: dict[str, list[str]] = {n.id: [] for n in self.nodes if n.type == "tool_arg"}
        for edge in self.edges:
            for arg, other in ((edge.src, edge.dst), (edge.dst, edge.src)):
                if types.get(arg) == "tool_arg" and types.get(other) == "tool_call" and other not in owners[arg]:
                    owners[arg].append(other)
        return owners

    def call_args(self, call_id: str) -> dict[str, JsonValue]:
        """The arguments of one tool_call node, from its ``args`` field and its tool_arg nodes."""
        call = self.node(call_id)
        args: dict[str, JsonValue] = dict(call.args or {})
        by_id = {node.id: node for node in self.nodes}
        for arg_id, owners in self.arg_owners().items():
            argument = by_id[arg_id].argument()
            if call_id in owners and argument is not None:
                args[argument[0]] = argument[1]
        return args

    def text_args(self, call_id: str) -> set[str]:
        """The parameters of ``call_id`` given as ``"key=value"`` text (their argument is a string as written)."""
        by_id = {node.id: node for node in self.nodes}
        names = set()
        for arg_id, owners in self.arg_owners().items():
            node = by_id[arg_id]
            argument = node.argument()
            if call_id in owners and argument is not None and not node.key:
                names.add(argument[0])
        return names

    def canonical(self) -> DelegationGraph:
        """The same graph with tool_arg nodes folded into their tool_call's ``args`` (single owner only)."""
        owners = self.arg_owners()
        folded = {arg for arg, calls in owners.items() if len(calls) == 1 and self.node(arg).argument()}
        nodes = [
            node.model_copy(update={"args": self.call_args(node.id) or None}) if node.type == "tool_call" else node
            for node in self.nodes
            if node.id not in folded
        ]
        edges = [edge for edge in self.edges if edge.src not in folded and edge.dst not in folded]
        return DelegationGraph(nodes=nodes, edges=edges)

    def to_json(self, *, indent: int | None = None) -> str:
        """The graph's JSON text (compact by default: that is what travels in a hand-off)."""
        data = self.model_dump(mode="json", exclude_none=True)
        if indent is None:
            return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        return json.dumps(data, indent=indent, ensure_ascii=False)


def graph_json_schema() -> dict[str, Any]:
    """The JSON schema of a delegation graph, as given to constrained decoding."""
    return DelegationGraph.model_json_schema()


def schema_errors(data: Any) -> list[str]:
    """Every schema error of ``data`` as ``$.json.path: message`` (empty when it parses)."""
    try:
        DelegationGraph.model_validate(data)
    except ValidationError as exc:
        return [f"{json_path(err['loc'])}: {err['msg']}{_given(err)}" for err in exc.errors()]
    return []


def _given(err: Any) -> str:
    """`` (got 'widget')`` for a wrong scalar value, so the message shows what to fix."""
    value = err.get("input")
    if err.get("type") == "missing" or not isinstance(value, (str, int, float, bool)):
        return ""
    text = repr(value)
    return f" (got {text[:60] + '...' if len(text) > 60 else text})"


def json_path(loc: tuple[int | str, ...]) -> str:
    path = "$"
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def parse_graph(data: str | bytes | Mapping[str, Any] | DelegationGraph) -> DelegationGraph:
    """A graph from JSON text, a dict or a graph; ``UsageError`` lists every error with its JSON path."""
    if isinstance(data, DelegationGraph):
        return data
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise UsageError(f"the graph is not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    errors = schema_errors(data)
    if errors:
        raise UsageError("the graph does not match the delegation schema: " + "; ".join(errors))
    return DelegationGraph.model_validate(data)
