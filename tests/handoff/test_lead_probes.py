# ruff: noqa: E501  (the probe texts are copied verbatim)
"""The lead's development probes for issue 12 (a copy of /work/briefs3/probes/lead_probes_dev.py): audits in
phrasings the corpus never used. A regression check only; the mechanisms are tested in sentences of their own
in test_phrasing.py."""

from __future__ import annotations

from typing import Any

import pytest

from relaykit.handoff import audit, compress_handoff
from relaykit.handoff.evidence import read_evidence


def F(i: str, a: str, v: str) -> dict[str, str]:
    return {"id": i, "attribute": a, "value": v}


CASES: dict[str, tuple[str, str, list[Any]]] = {
"issue-travel": ("Find a hotel with a gym under 400 USD, no more than 8.0 km from the centre.",
"""HT01 is a 2-star property charging $180 a night, 5.7 km out, with gym, spa, wifi.
HT02 is a 4-star place at $420 per night, 2.1 km out, with pool, gym.
HT02 costs more than the 400 USD cap, so it is ruled out.
HT03 sits 9.1 km away, beyond the 8.0 km limit, so HT03 drops out. It charges $150 a night and has a gym.
HT04: 3 stars, $310/night, 3.3 km, spa and bar only - no gym, crossed off.
HT01 stays on the shortlist.""",
[F("HT01","price","180 USD"),F("HT01","distance","5.7 km"),F("HT01","stars","2"),F("HT02","price","420 USD"),
 F("HT02","distance","2.1 km"),F("HT03","distance","9.1 km"),F("HT03","price","150 USD"),F("HT04","price","310 USD"),
 F("HT04","distance","3.3 km"),F("HT04","stars","3")]),
"csv-suppliers": ("Pick a supplier certified ISO-9001 with unit price at most 4.50 EUR and lead time under 14 days.",
"""id,unit_price,lead_time,certification,decision
SP11,€3.90,10 days,ISO-9001,keep
SP12,€5.10,7 days,ISO-9001,reject (price)
SP13,€2.80,21 days,ISO-14001,reject (lead time, cert)
SP14,€4.20,12 days,ISO-9001,keep""",
[F("SP11","unit_price","3.90 EUR"),F("SP11","lead_time","10 days"),F("SP11","certification","ISO-9001"),
 F("SP12","unit_price","5.10 EUR"),F("SP12","lead_time","7 days"),F("SP13","unit_price","2.80 EUR"),
 F("SP13","lead_time","21 days"),F("SP13","certification","ISO-14001"),F("SP14","unit_price","4.20 EUR"),F("SP14","lead_time","12 days")]),
"dialogue-apartments": ("Rent an apartment with at least 2 bedrooms, rent under 2,000 USD, pets allowed.",
"""Me: What about AP7?
Agent: AP7 is 1,850 dollars a month with 2 bedrooms, but no pets. So that's a no-go.
Me: And AP9?
Agent: AP9 — 3 bedrooms, USD 1,990 monthly, pets welcome. Looks good, keep it.
Me: AP12?
Agent: That one is 2,400/month, 2 bedrooms; too pricey, out.""",
[F("AP7","rent","1850 USD"),F("AP7","bedrooms","2"),F("AP9","bedrooms","3"),F("AP9","rent","1990 USD"),
 F("AP12","rent","2400"),F("AP12","bedrooms","2")]),
"log-gpu": ("Pick a GPU vendor in region eu-west with at least 80 GB per card and a rate below 3.00 USD per hour.",
"""[09:12:01] check vendor=GV21 region=eu-west mem=80GB rate=$2.45/h -> OK
[09:12:02] check vendor=GV22 region=us-east mem=80GB rate=$1.95/h -> FAIL region
[09:12:02] check vendor=GV23 region=eu-west mem=40GB rate=$1.10/h -> FAIL memory
[09:12:03] check vendor=GV24 region=eu-west mem=141GB rate=$3.60/h -> FAIL rate
[09:12:03] check vendor=GV25 region=eu-west mem=96GB rate=$2.99/h -> OK""",
[F("GV21","rate","2.45 USD"),F("GV21","memory","80 GB"),F("GV21","region","eu-west"),F("GV22","rate","1.95 USD"),
 F("GV22","region","us-east"),F("GV23","memory","40 GB"),F("GV24","rate","3.60 USD"),F("GV24","memory","141 GB"),
 F("GV25","rate","2.99 USD"),F("GV25","memory","96 GB")]),
"memo-rooms": ("Book a meeting room for at least 10 people, starting at 2 pm, costing at most 120 EUR an hour.",
"""Rooms reviewed this morning. Starting with MR3: it seats twelve? No - the sign says 12 seats, 95 EUR per hour, earliest slot 14:00. A fit.
MR5 is cheaper (70 EUR/hour) but only holds 6, so we cross it off.
As for MR8, capacity 16, rate EUR 150 an hour, free from 2 pm; over budget, rejected.
MR9: 10 seats, 110 euros hourly, but it only opens at 4 pm. Not usable.""",
[F("MR3","capacity","12"),F("MR3","rate","95 EUR"),F("MR3","start","14:00"),F("MR5","rate","70 EUR"),F("MR5","capacity","6"),
 F("MR8","capacity","16"),F("MR8","rate","150 EUR"),F("MR8","start","14:00"),F("MR9","capacity","10"),F("MR9","rate","110 EUR"),F("MR9","start","16:00")]),
"markdown-hiring": ("Hire an engineer with at least 5 years of experience, remote, for no more than 140,000 USD.",
"""## Candidates
- **CA31** — 7 yrs, remote, asks USD 135,000. ✅ shortlisted
- **CA32** — 4 yrs, remote, asks USD 118,000. ❌ too junior
- **CA33** — 9 yrs, onsite only, asks USD 150,000. ❌ location; also above budget
- **CA34** — 6 yrs, remote, asks 139,500 dollars. ✅""",
[F("CA31","experience","7 years"),F("CA31","salary","135000 USD"),F("CA32","experience","4 years"),F("CA32","salary","118000 USD"),
 F("CA33","experience","9 years"),F("CA33","salary","150000 USD"),F("CA34","experience","6 years"),F("CA34","salary","139500 USD")]),
"insurance-prose": ("Find a policy with a national network, premium at most 60 GBP a month and an excess under 500 GBP.",
"""We compared four policies. IP41 and IP42 both cover the national network; the former costs £48 monthly with a £250 excess, the latter £57 with a £600 excess, which puts IP42 out. IP43 is international, £39 a month, excess £200 - wrong network, so no. IP44 (national, £61/month, £100 excess) misses the premium cap by a pound and is excluded. Only IP41 remains.""",
[F("IP41","premium","48 GBP"),F("IP41","excess","250 GBP"),F("IP42","premium","57 GBP"),F("IP42","excess","600 GBP"),
 F("IP43","premium","39 GBP"),F("IP43","excess","200 GBP"),F("IP43","network","international"),F("IP44","premium","61 GBP"),F("IP44","excess","100 GBP"),F("IP44","network","national")]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_dev_probe_keeps_every_fact_and_finds_every_verdict(name: str) -> None:
    goal, trace, facts = CASES[name]
    handoff = compress_handoff(trace, goal, "extract-rules")
    report = audit(handoff, facts, trace=trace)
    assert report.recall == 1.0 and report.invented == []
    assert handoff.ratio < 1.0
    table = read_evidence(trace, goal)
    assert all(row.verdict is not None for row in table.rows.values())
