"""Routed graph hand-off: typed delegation graphs, their validation, planning, routing and execution."""

from relaykit.delegation.accounting import (
    DelegationCost,
    delegation_accounting,
    delegation_cost,
    delegation_ratio,
    graph_prefill_tokens,
)
from relaykit.delegation.execute import (
    DictToolEnv,
    ExecutorSettings,
    ModelExecutor,
    ToolEnv,
    ToolResult,
    ToolStep,
    Trace,
    execute_direct,
    is_directly_executable,
)
from relaykit.delegation.graph import (
    NODE_TYPES,
    RELATIONS,
    DelegationGraph,
    Edge,
    Node,
    graph_json_schema,
    parse_graph,
)
from relaykit.delegation.planning import PlanSettings, plan_graph, plan_nl
from relaykit.delegation.prompts import GRAPH_EXECUTOR_PROMPT, executor_system_prompt
from relaykit.delegation.render import RENDERERS, register_renderer, render_graph
from relaykit.delegation.routing import (
    ROUTERS,
    FixedRouter,
    Format,
    HeuristicRouter,
    ModelRouter,
    RouteDecision,
    Router,
    open_router,
    register_router,
    route,
)
from relaykit.delegation.taxonomy import Misalignment, classify
from relaykit.delegation.tfidf import tfidf_reencode
from relaykit.delegation.tools import ToolSpec, load_tools
from relaykit.delegation.validate import GraphReport, GraphViolation, check_graph_data, execution_order, validate_graph

__all__ = [
    "GRAPH_EXECUTOR_PROMPT",
    "NODE_TYPES",
    "RELATIONS",
    "RENDERERS",
    "ROUTERS",
    "DelegationCost",
    "DelegationGraph",
    "DictToolEnv",
    "Edge",
    "ExecutorSettings",
    "FixedRouter",
    "Format",
    "GraphReport",
    "GraphViolation",
    "HeuristicRouter",
    "Misalignment",
    "ModelExecutor",
    "ModelRouter",
    "Node",
    "PlanSettings",
    "RouteDecision",
    "Router",
    "ToolEnv",
    "ToolResult",
    "ToolSpec",
    "ToolStep",
    "Trace",
    "check_graph_data",
    "classify",
    "delegation_accounting",
    "delegation_cost",
    "delegation_ratio",
    "execute_direct",
    "execution_order",
    "executor_system_prompt",
    "graph_json_schema",
    "graph_prefill_tokens",
    "is_directly_executable",
    "load_tools",
    "open_router",
    "parse_graph",
    "plan_graph",
    "plan_nl",
    "register_renderer",
    "register_router",
    "render_graph",
    "route",
    "tfidf_reencode",
    "validate_graph",
]

Step = ToolStep  # deprecated name (trajectory exports its own Step); the labs' runners still import it
