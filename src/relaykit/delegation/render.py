"""Renderers: the forms a delegation graph can travel or be read in, found through a registry."""

from __future__ import annotations

import json
from collections.abc import Callable

from relaykit.delegation.graph import DelegationGraph
from relaykit.delegation.validate import execution_order, ordering_cycles
from relaykit.registry import Registry

Renderer = Callable[[DelegationGraph], str]
RENDERERS: Registry[Renderer] = Registry("graph form")
"""Graph forms (``json``, ``pretty``, ``outline``, ``mermaid``) mapped to ``renderer(graph) -> str``."""


def register_renderer(name: str, renderer: Renderer) -> None:
    """Make ``render_graph(graph, name)`` use ``renderer``."""
    RENDERERS.register(name, renderer)


def render_graph(graph: DelegationGraph, form: str | Renderer = "json") -> str:
    """``graph`` in the registered form ``form``, or through ``form`` itself when it is a renderer."""
    renderer = RENDERERS.get(form) if isinstance(form, str) else form
    return renderer(graph)


def to_outline(graph: DelegationGraph) -> str:
    """A readable outline: one line per node in execution order, then the non-ordering relations."""
    by_id = {node.id: node for node in graph.nodes}
    order = graph.ids() if ordering_cycles(graph) else execution_order(graph)
    lines = []
    for i, node_id in enumerate(order, 1):
        node = by_id[node_id]
        value = node.value if isinstance(node.value, str) else json.dumps(node.value)
        args = graph.call_args(node.id) if node.type == "tool_call" else {}
        arg_text = f"({', '.join(f'{k}={json.dumps(v)}' for k, v in args.items())})" if node.type == "tool_call" else ""
        after = [e.src for e in graph.edges if e.dst == node_id and e.relation in ("depends_on", "follows")]
        tail = f"  after {', '.join(after)}" if after else ""
        tail = f"  after {', '.join(after)}" if after else ""
        lines.append(f"{i}. [{node.type}] {node.id}: {value}{arg_text}{tail}")
    others = [f"{e.src} {e.relation} {e.dst}" for e in graph.edges if e.relation not in ("depends_on", "follows")]
    return "\n".join(lines + ([f"relations: {'; '.join(others)}"] if others else []))


def to_mermaid(graph: DelegationGraph) -> str:
    """A Mermaid flowchart of the graph."""
    lines = ["flowchart TD"]
    for node in graph.nodes:
        label = str(node.value).replace('"', "'")[:60]
        lines.append(f'  {node.id}["{node.type}: {label}"]')
    lines += [f"  {e.src} -->|{e.relation}| {e.dst}" for e in graph.edges]
    return "\n".join(lines)


register_renderer("json", lambda graph: graph.to_json())
register_renderer("pretty", lambda graph: graph.to_json(indent=2))
register_renderer("outline", to_outline)
register_renderer("mermaid", to_mermaid)
