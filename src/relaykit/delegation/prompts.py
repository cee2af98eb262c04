"""The prompts of a delegation, in relaykit's own words: planner, router and executor.

The graph-aware executor prompt is part of the graph hand-off itself: a graph sent without it is
read as opaque data, so :func:`executor_system_prompt` always adds it for graph delegations.
"""

from __future__ import annotations

from collections.abc import Sequence

from relaykit.delegation.tools import ToolSpec, describe_tools

GRAPH_EXECUTOR_PROMPT = """\
You execute a delegation given as a JSON graph of typed nodes and edges.
Nodes: goal (the end state), constraint (a rule to keep), entity (a fact or id to use), action (a \
step), precondition (check before the step needing it), postcondition (true afterwards), tool_call \
(call the tool named in value with its args), tool_arg (an argument: key=parameter, value=argument).
Edges go src -> dst. depends_on, follows: src finishes before dst starts. requires: src needs dst. \
targets: src acts on dst. enables/blocks: src allows/prevents dst. contradicts: not both.
Work in topological order of depends_on/follows; fill missing arguments from earlier results."""

NL_EXECUTOR_PROMPT = """\
You carry out a task that another agent delegated to you. Follow its instructions, using the \
tools listed, and stop when the task is done."""

GRAPH_PLANNER_PROMPT = """\
You plan a task for another agent and write the plan as a JSON delegation graph.
Nodes: {"id": short id, "type": one of goal, constraint, entity, action, precondition, \
postcondition, tool_call, tool_arg, "value": text}. A tool_call's value is a tool name from the \
list; put its known arguments in "args" ({"parameter": value}); leave out arguments that only \
an earlier result can supply.
Edges: {"src", "dst", "relation"} with relation one of requires, targets, blocks, enables, \
depends_on, contradicts, follows. {"src": "t1", "dst": "t2", "relation": "depends_on"} means t1 \
must finish before t2. Keep it short: no prose, only nodes and edges."""

NL_PLANNER_PROMPT = """\
You plan a task for another agent. Write the delegation as short prose instructions: the goal, \
the facts it needs, the tools to call and in which order, and the rules to respect."""

ROUTER_PROMPT = """\
Classify the task. Answer GRAPH if it needs a fixed chain of ordered steps whose results feed \
each other (lookups, aggregations, sequential API calls) and has one deterministic outcome. \
Answer NL if it needs iteration, conditions, interpreting free text or adapting as it goes. When \
unsure, answer NL. Answer with one word: GRAPH or NL."""

EXECUTOR_STEP_INSTRUCTION = """\
Answer with one JSON object per turn: {"action": "call", "tool": NAME, "args": {...}} to call a \
tool, or {"action": "finish", "answer": TEXT} when the task is done."""


def executor_system_prompt(fmt: str, tools: Sequence[ToolSpec]) -> str:
    """The executor's system message for a ``graph`` or ``nl`` delegation (graph adds the guidance)."""
    head = GRAPH_EXECUTOR_PROMPT if fmt == "graph" else NL_EXECUTOR_PROMPT
    return f"{head}\n\nTools:\n{describe_tools(tools)}\n\n{EXECUTOR_STEP_INSTRUCTION}"


def planner_user_prompt(task: str, tools: Sequence[ToolSpec]) -> str:
    return f"Tools:\n{describe_tools(tools)}\n\nTask:\n{task.strip()}"
