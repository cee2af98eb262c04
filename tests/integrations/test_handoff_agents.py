"""Two OpenAI Agents SDK agents (researcher → booker): the hand-off carries the task and an evidence table made
by the hand-off compressor instead of the researcher's whole history, and ``audit`` says what did not arrive."""

from __future__ import annotations

import asyncio
from typing import Any

from recording_server import recording_server, tool_call

from relaykit import Fact, audit

AUDIT = {
    "H07": "Hotel H07: price 180 USD per night; distance 1.2 km; amenities gym, wifi. H07 verdict: pass.",
    "H09": "Hotel H09: price 450 USD per night; distance 0.8 km; amenities spa. H09 verdict: eliminated (budget).",
    "H12": "Hotel H12: price 210 USD per night; distance 3.4 km; amenities gym. H12 verdict: pass.",
}
GOAL = "Book a hotel with a gym under 400 USD."


def check_hotel(hotel_id: str) -> str:
    """Audit one hotel against the goal."""
    return AUDIT[hotel_id] + " Notes: " + "lobby renovated, late checkout possible. " * 15


def script(k: int, body: dict[str, Any]) -> dict[str, Any]:
    ids = list(AUDIT)
    if k < len(ids):
        return tool_call(k, "check_hotel", {"hotel_id": ids[k]})
    if k == len(ids):
        return tool_call(k, "transfer_to_booker", {})
    return {"role": "assistant", "content": "Booked H07 at 180 USD."}


def test_researcher_hands_an_evidence_table_to_the_booker() -> None:
    from agents import Agent, RunConfig, Runner, function_tool, handoff, set_tracing_disabled
    from agents.models.openai_chatcompletions import OpenAIChatCompletionsModel
    from openai import AsyncOpenAI

    from relaykit.integrations.openai_agents import evidence_handoff_filter

    set_tracing_disabled(True)
    handoffs: list[Any] = []
    with recording_server(script=script) as (url, rec):
        model = OpenAIChatCompletionsModel(model="gpt-4o", openai_client=AsyncOpenAI(base_url=url, api_key="t",
                                                                                     max_retries=0))
        booker = Agent(name="booker", instructions="Book the best hotel from the evidence.", model=model)
        researcher = Agent(name="researcher", instructions="Check every hotel, then hand off.", model=model,
                           tools=[function_tool(check_hotel)],
                           handoffs=[handoff(booker, input_filter=evidence_handoff_filter(GOAL,
                                                                                          on_handoff=handoffs.append))])
        result = asyncio.run(Runner.run(researcher, GOAL, run_config=RunConfig(tracing_disabled=True)))
    assert result.final_output == "Booked H07 at 180 USD."
    assert len(handoffs) == 1
    booker_request = rec.requests[-1]["messages"]
    sent = "\n".join(str(m.get("content")) for m in booker_request)
    assert handoffs[0].payload_text in sent
    assert "lobby renovated" not in sent  # the researcher's raw tool outputs did not travel
    report = audit(handoffs[0], [Fact("H07", "price", "180 USD"), Fact("H09", "verdict", "eliminated"),
                                 Fact("H12", "distance", "3.4 km")])
    assert report.recall == 1.0, report.lost
