"""Check a delegation graph and find its execution order; every violation is reported at once."""

from __future__ import annotations

import heapq
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from relaykit.accounting import Accounting
from relaykit.delegation.graph import ORDERING_RELATIONS, DelegationGraph, Edge, Node, schema_errors
from relaykit.delegation.tools import ToolSpec


@dataclass(frozen=True)
class GraphViolation:
    """One problem: a code, a message that says how to fix it, and the node or edge it concerns."""

    code: str
    message: str
    node: str | None = None
    edge: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "node": self.node, "edge": self.edge}


@dataclass(frozen=True)
class GraphReport:
    """The result of validation: violations (empty when valid) and the execution order of the node ids."""

    violations: tuple[GraphViolation, ...] = ()
    order: tuple[str, ...] = ()
    graph: DelegationGraph | None = field(default=None, compare=False)

    @property
    def valid(self) -> bool:
        return not self.violations

    def to_dict(self) -> dict[str, Any]:
        return {"valid": self.valid, "violations": [v.to_dict() for v in self.violations], "order": list(self.order)}

    def accounting(self, tokens: int, encoding: str = "o200k_base") -> Accounting:
        """Validation changes nothing: ``tokens`` in and out (ratio 1.0), the violations as notices."""
        return Accounting(tokens_in=tokens, tokens_out=tokens, method="validate", encoding=encoding,
                          notices=tuple(f"{v.code}: {v.message}" for v in self.violations))

    def summary(self) -> str:
        return "; ".join(v.message for v in self.violations[:8])


def check_graph_data(data: Any, tools: Sequence[ToolSpec] | None = None) -> GraphReport:
    """Validate raw JSON data: schema errors (with JSON paths) and every structural violation, together.

    When the schema fails, the structural checks still run on what can be read (every node object with
    a text id, every edge object with text ends), so one unknown node type does not hide a dangling
    edge, a cycle or a duplicate id.
    """
    errors = schema_errors(data)
    if not errors:
        return validate_graph(DelegationGraph.model_validate(data), tools)
    schema = [GraphViolation("schema", e) for e in errors]
    readable = _readable_graph(data)
    if readable is None:
        return GraphReport(tuple(schema))
    structural = [v for v in validate_graph(readable, tools).violations
                  if v.code != "empty" or isinstance(data.get("nodes"), list)]
    return GraphReport(tuple(schema + structural), (), None)


def _readable_graph(data: Any) -> DelegationGraph | None:
    """The nodes and edges of schema-invalid ``data`` that structural checks can still read, unvalidated."""
    if not isinstance(data, dict):
        return None
    raw_nodes: list[Any] = data["nodes"] if isinstance(data.get("nodes"), list) else []
    raw_edges: list[Any] = data["edges"] if isinstance(data.get("edges"), list) else []
    nodes = [Node.model_construct(id=n["id"], type=_text(n.get("type")), value=n.get("value"),
                                  key=_text(n.get("key")), args=n["args"] if isinstance(n.get("args"), dict) else None)
             for n in raw_nodes if isinstance(n, dict) and isinstance(n.get("id"), str) and n["id"]]
    edges = [Edge.model_construct(src=e["src"], dst=e["dst"], relation=_text(e.get("relation")))
             for e in raw_edges if isinstance(e, dict) and isinstance(e.get("src"), str)
             and isinstance(e.get("dst"), str)]
    return DelegationGraph.model_construct(nodes=nodes, edges=edges)


def _text(value: Any) -> Any:
    return value if isinstance(value, str) else None


def validate_graph(graph: DelegationGraph, tools: Sequence[ToolSpec] | None = None) -> GraphReport:
    """Every violation of ``graph`` (against ``tools`` when given) and its topological execution order."""
    violations = [*_duplicate_ids(graph), *_dangling_edges(graph), *_arg_attachment(graph)]
    if not graph.nodes:
        violations.append(GraphViolation("empty", "the graph has no nodes; give at least its goal or one step"))
    cycles = ordering_cycles(graph)
    for cycle in cycles:
        violations.append(GraphViolation("cycle", f"depends_on/follows edges form a cycle through {', '.join(cycle)}; "
                                    "remove one of its edges", node=cycle[0]))
    if tools is not None:
        violations.extend(_tool_violations(graph, {t.name: t for t in tools}))
    order = () if cycles else tuple(execution_order(graph))
    return GraphReport(tuple(violations), order, graph)


def _duplicate_ids(graph: DelegationGraph) -> Iterable[GraphViolation]:
    seen: set[str] = set()
    for node in graph.nodes:
        if node.id in seen:
            yield GraphViolation("duplicate_id",
                                 f"node id {node.id!r} is used more than once; give each node its own id", node=node.id)
        seen.add(node.id)


def _dangling_edges(graph: DelegationGraph) -> Iterable[GraphViolation]:
    ids = set(graph.ids())
    for i, edge in enumerate(graph.edges):
        for end in ("src", "dst"):
            value = getattr(edge, end)
            if value not in ids:
                yield GraphViolation("unknown_node",
                                     f"edge {i} ({edge.relation}) has {end} {value!r}, which is no node of the graph",
                                     edge=i)
        if edge.src == edge.dst and edge.relation not in ORDERING_RELATIONS:
            yield GraphViolation("self_loop", f"edge {i} joins node {edge.src!r} to itself", edge=i, node=edge.src)


def _arg_attachment(graph: DelegationGraph) -> Iterable[GraphViolation]:
    by_id = {node.id: node for node in graph.nodes}
    for arg_id, owners in graph.arg_owners().items():
        if len(owners) != 1:
            where = "no tool_call" if not owners else f"{len(owners)} tool_calls ({', '.join(owners)})"
            yield GraphViolation("tool_arg_owner", f"tool_arg {arg_id!r} is joined to {where}; join it to exactly one",
                            node=arg_id)
        if by_id[arg_id].argument() is None:
            yield GraphViolation("tool_arg_key", f"tool_arg {arg_id!r} names no parameter: give it a 'key', or write "
                            "its value as key=value", node=arg_id)
    for node in graph.nodes:
        if node.type != "tool_call" and node.args:
            yield GraphViolation("args_on_non_call", f"node {node.id!r} is a {node.type} but carries 'args'; only "
                            "tool_call nodes take arguments", node=node.id)


def _tool_violations(graph: DelegationGraph, tools: Mapping[str, ToolSpec]) -> Iterable[GraphViolation]:
    for node in graph.tool_calls():
        tool = tools.get(str(node.value))
        if tool is None:
            known = ", ".join(sorted(tools)) or "(none)"
            yield GraphViolation("unknown_tool", f"tool_call {node.id!r} names tool {node.value!r}, which is not "
                                 f"in the tool list; known tools: {known}", node=node.id)
            continue
        yield from _arg_violations(node, graph.call_args(node.id), tool, graph.text_args(node.id))


def _arg_violations(node: Node, args: Mapping[str, Any], tool: ToolSpec,
                    text_args: set[str] | frozenset[str] = frozenset()) -> Iterable[GraphViolation]:
    props = tool.properties
    for name, value in args.items():
        if name not in props:
            yield GraphViolation("unknown_arg", f"tool_call {node.id!r} passes {name!r}, which {tool.name} does not "
                            f"take; its parameters: {', '.join(props) or '(none)'}", node=node.id)
        elif not _matches(value, props[name]) and not (name in text_args and _matches_as_text(value, props[name])):
            yield GraphViolation("arg_type", f"tool_call {node.id!r}: {name}={value!r} does not match the type "
                            f"{tool.name} declares ({props[name].get('type', 'see schema')})", node=node.id)


def _matches(value: Any, schema: Any) -> bool:
    if not isinstance(value, str) or not value.startswith("$"):
        from jsonschema import Draft202012Validator
        from jsonschema.exceptions import SchemaError, UnknownType

        try:
            return bool(Draft202012Validator(schema).is_valid(value))
        except (SchemaError, UnknownType, TypeError):
            return True
    return True  # "$node" references an earlier result, known only at run time


def _matches_as_text(value: Any, schema: Any) -> bool:
    """Whether a ``key=value`` argument (always text) matches once read as JSON ("5" -> 5, "true" -> true)."""
    try:
        return _matches(json.loads(value), schema)
    except (TypeError, ValueError, RecursionError):
        return False


def ordering_edges(graph: DelegationGraph) -> list[tuple[str, str]]:
    """(before, after) pairs from depends_on and follows edges between existing nodes."""
    ids = set(graph.ids())
    return [(e.src, e.dst) for e in graph.edges if e.relation in ORDERING_RELATIONS and e.src in ids and e.dst in ids]


def ordering_cycles(graph: DelegationGraph) -> list[list[str]]:
    """The node sets of each cycle among ordering edges (strongly connected components), in node order."""
    succ: dict[str, list[str]] = {i: [] for i in graph.ids()}
    for before, after in ordering_edges(graph):
        succ[before].append(after)
    rank = {node_id: i for i, node_id in enumerate(graph.ids())}
    cycles = []
    for component in _strong_components(succ):
        if len(component) > 1 or component[0] in succ[component[0]]:
            cycles.append(sorted(component, key=rank.__getitem__))
    return sorted(cycles, key=lambda c: rank[c[0]])


def _strong_components(succ: Mapping[str, list[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for root in succ:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if i < len(succ[node]):
                work.append((node, i + 1))
                nxt = succ[node][i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                out.append(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return out


def execution_order(graph: DelegationGraph) -> list[str]:
    """A topological order of every node id; ties keep the order the nodes were listed in."""
    ids = list(dict.fromkeys(graph.ids()))
    rank = {node_id: i for i, node_id in enumerate(ids)}
    indegree = dict.fromkeys(ids, 0)
    succ: dict[str, list[str]] = {i: [] for i in ids}
    for before, after in set(ordering_edges(graph)):
        succ[before].append(after)
        indegree[after] += 1
    ready = [(rank[i], i) for i in ids if indegree[i] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        _, node = heapq.heappop(ready)
        order.append(node)
        for nxt in succ[node]:
            indegree[nxt] -= 1
            if indegree[nxt] == 0:
                heapq.heappush(ready, (rank[nxt], nxt))
    return order


def call_order(graph: DelegationGraph) -> list[Node]:
    """The tool_call nodes in execution order."""
    by_id = {node.id: node for node in graph.nodes}
    return [by_id[i] for i in execution_order(graph) if by_id[i].type == "tool_call"]


def missing_args(graph: DelegationGraph, tools: Mapping[str, ToolSpec]) -> dict[str, list[str]]:
    """For each tool_call, the required parameters its arguments leave out (empty lists omitted)."""
    out = {}
    for node in graph.tool_calls():
        tool = tools.get(str(node.value))
        given = graph.call_args(node.id)
        gaps = [p for p in tool.required if p not in given] if tool else []
        if gaps:
            out[node.id] = gaps
    return out
