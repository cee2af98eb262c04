"""The embedded model emits delegation graphs under the schema's grammar (slow; one test)."""

import pytest

from relaykit.delegation import DelegationGraph, parse_graph
from relaykit.delegation.prompts import GRAPH_PLANNER_PROMPT


@pytest.mark.embedded_model
def test_embedded_model_is_constrained_to_the_graph_schema() -> None:
    from relaykit.models import open_model

    model = open_model("local")
    messages = [{"role": "system", "content": GRAPH_PLANNER_PROMPT},
                {"role": "user", "content": "Tools:\n- get_order(order_id)\nTask:\nLook up order #W1."}]
    response = model.complete(messages, schema=DelegationGraph, max_tokens=160, temperature=0.0)
    if response.finish_reason == "length":  # cut short: the grammar still forced the schema's opening
        assert "".join(response.text.split()).startswith('{"nodes":[')
        return
    graph = parse_graph(response.text)  # raises if the grammar let a non-conforming answer through
    assert isinstance(graph, DelegationGraph)
