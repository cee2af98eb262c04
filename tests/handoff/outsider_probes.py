"""Probes of audits in wordings nobody on the reader had written (issue 12, wave 9, helper h12r): short audits in
many domains with the exact rows a reader must make of them. Written in one go before any fix, then split by
position, before tuning, into a development part (fix against it) and a held-out part (scored only at the start
and at the end; ``test_outsider_probes.py`` asserts its end figure as a floor, not each case).

Each probe is (trace, {id: (verdict, values)}): the verdict ``pass`` / ``eliminated``, None where the option must
stay unjudged, or ``*`` where either reading is fair (not scored); values are numbers or words that must appear in
that option's evidence (a number also in no other option's). An id the reader makes a row of that is not listed
is a fake option."""

from __future__ import annotations

from dataclasses import dataclass

from relaykit.handoff.evidence import read_evidence
from relaykit.handoff.text import find_quantities

Expect = dict[str, tuple[str | None, tuple[str, ...]]]
Probe = tuple[str, Expect]
P, F, N, ANY = "pass", "eliminated", None, "*"

PROBES: list[Probe] = [
    # lead-ins that say the verdict before the id
    ("HT01: $210 a night, 9.4 km from the venue.\nHT02: $150 a night, 2.0 km.\nHT04: $320 a night, 1.1 km.\n"
     "In: HT02.\nOut: HT01 (distance), HT04 (price).",
     {"HT01": (F, ("210", "9.4")), "HT02": (P, ("150", "2")), "HT04": (F, ("320", "1.1"))}),
    ("Keep: GV7. Drop: GV3, GV5.\nGV3 has 24 GB, GV5 has 40 GB, GV7 has 80 GB.",
     {"GV3": (F, ("24",)), "GV5": (F, ("40",)), "GV7": (P, ("80",))}),
    ("Accepted - SU2 (3.10 EUR/unit). Rejected - SU4 (4.85 EUR/unit, late).",
     {"SU2": (P, ("3.1",)), "SU4": (F, ("4.85",))}),
    # a verdict and its reason, then a concession
    ("AP5 fails: pets forbidden, though the rent of 1,100 EUR is fine.", {"AP5": (F, ("1100", "forbidden"))}),
    ("GX2 fails - region eu-west, even if the rate of 0.90 USD/h is attractive.",
     {"GX2": (F, ("0.9", "eu-west"))}),
    ("Room MR6 is rejected: no projector, although it seats 14.", {"MR6": (F, ("14", "projector"))}),
    # the verdict far from its id
    ("Proposal to lease warehouse WH3 at 4,200 EUR a month was approved by the board.",
     {"WH3": (P, ("4200",))}),
    ("The motion to renew licence LC4 (12 USD per seat) was defeated.", {"LC4": (F, ("12",))}),
    ("A vote on hiring candidate KR8 passed unanimously.", {"KR8": (P, ())}),
    # lists with a place
    ("Of PX1, PX2 and PX3, only the first qualifies.", {"PX1": (P, ()), "PX2": (F, ()), "PX3": (F, ())}),
    ("Among DV1, DV2 and DV3 only the middle one is within budget.",
     {"DV1": (F, ()), "DV2": (P, ()), "DV3": (F, ())}),
    ("Between FL2 and FL5, only the latter has a balcony, and a balcony is required.",
     {"FL2": (F, ()), "FL5": (P, ())}),
    # a pass with a negated fail after it
    ("CX4 is acceptable, not rejected.", {"CX4": (P, ())}),
    ("Supplier SP8 is fine and not excluded.", {"SP8": (P, ())}),
    ("TR3 stays, it is not cut.", {"TR3": (P, ())}),
    # two verdicts in one sentence
    ("Q201 is dropped, Q202 over budget, Q203 kept.", {"Q201": (F, ()), "Q202": (F, ()), "Q203": (P, ())}),
    ("RM2 is out, RM3 too small.", {"RM2": (F, ()), "RM3": (F, ())}),
    ("BK4 passes, BK5 is eliminated for weight (14.2 kg).", {"BK4": (P, ()), "BK5": (F, ("14.2",))}),
    # pronouns across sentences
    ("Candidate NA3 has 7 years of Go. He's in.", {"NA3": (P, ("7",))}),
    ("Van VN6 carries 800 kg for 110 EUR a day. It is too small for the move.", {"VN6": (F, ("800", "110"))}),
    ("We compared BX1 (2.2 kg) and BX2 (3.9 kg). The latter is too heavy; the former is fine.",
     {"BX1": (P, ("2.2",)), "BX2": (F, ("3.9",))}),
    ("Next, CT5: 28 EUR a head, vegan options. They get the job.", {"CT5": (ANY, ("28",))}),
    # reported speech and third parties
    ("Venue VE2 holds 120 guests; the owner said it is perfect.", {"VE2": (N, ("120",))}),
    ("Flat FL7 costs 1,450 EUR; the agent insists it passes every check.", {"FL7": (N, ("1450",))}),
    ("At venue VE7 the fire inspector approved the layout; capacity is 180.", {"VE7": (N, ("180",))}),
    ("Hotel HT11 costs 140 EUR; the shuttle qualifies for a discount.", {"HT11": (N, ("140",))}),
    ("Supplier SU6 ships in 9 days and the courier rejected two parcels last year.", {"SU6": (N, ("9",))}),
    ("Server SV2 runs 64 GB; our auditor said it fails the uptime rule.", {"SV2": (ANY, ("64",))}),
    # comparisons
    ("FL3 is cheaper than FL2: 1,250 EUR versus 1,480 EUR.", {"FL3": (N, ("1250",)), "FL2": (N, ("1480",))}),
    ("Plan IN5 costs less than IN6 (42 USD vs 57 USD a month).", {"IN5": (N, ("42",)), "IN6": (N, ("57",))}),
    ("MR9 seats 20, against 12 in MR8.", {"MR9": (N, ("20",)), "MR8": (N, ("12",))}),
    ("Unlike HT12 at 4.1 km, HT13 is only 0.8 km from the venue.", {"HT12": (N, ("4.1",)), "HT13": (N, ("0.8",))}),
    ("GP4 offers 80 GB, compared with 40 GB on GP3.", {"GP4": (N, ("80",)), "GP3": (N, ("40",))}),
    ("AP7 (1,100 EUR) undercuts AP8 (1,350 EUR).", {"AP7": (N, ("1100",)), "AP8": (N, ("1350",))}),
    # corrections of a value
    ("HT07 was listed at $199, corrected to $179 after the promo.", {"HT07": (N, ("179",))}),
    ("Car CR2: 14,900 EUR (update: now 13,990 EUR).", {"CR2": (N, ("13990",))}),
    # number shapes and words
    ("Laptop LT4 costs USD 1.850 with tax.", {"LT4": (N, ("1850",))}),
    ("Venue VE5 is an open air stage for 300 people.", {"VE5": (N, ("300", "open"))}),
    ("Bike BK2 comes in 50/54/58 cm frames for 1,200 EUR.", {"BK2": (N, ("50", "54", "58", "1200"))}),
    ("Flat FL6 has just 1 bedroom for 900 EUR.", {"FL6": (N, ("1", "900"))}),
    ("Desk DK9 is 160 x 80 cm and costs 420 EUR.", {"DK9": (N, ("160", "80", "420"))}),
    # other verdict wordings
    ("Insurer IS2: premium 58 GBP/month, excess 250 GBP. Verdict: meets everything.", {"IS2": (P, ("58", "250"))}),
    ("IS3 - premium 44 GBP, excess 1,000 GBP - excess too high, so no.", {"IS3": (F, ("44", "1000"))}),
    ("We're passing on CR9 because of the mileage (142,000 km).", {"CR9": (F, ("142000",))}),
    ("Caterer CT2 can't do vegan menus; scratch it.", {"CT2": (F, ())}),
    ("Caterer CT4 does vegan at 32 EUR a head - approved.", {"CT4": (P, ("32",))}),
    ("Licence LC1 is 12 USD per seat per month and includes SSO; that's a yes.", {"LC1": (P, ("12",))}),
    ("LC2 lacks SSO. Not going forward with it.", {"LC2": (F, ())}),
    ("Gym GY3 is 25 EUR monthly, opens at 06:00, no pool. A pool is a must, so GY3 is eliminated.",
     {"GY3": (F, ("25",))}),
    ("The panel turned down ZD4 over its 6-week delivery.", {"ZD4": (F, ("6",))}),
    ("Flight FX22 departs 07:15 and costs 289 EUR; it is within policy.", {"FX22": (P, ("289",))}),
    ("FX23 departs 21:40 for 199 EUR: outside policy (too late).", {"FX23": (F, ("199",))}),
    ("Both PY1 and PY2 satisfy the memory rule, but only PY2 fits the budget.", {"PY1": (F, ()), "PY2": (P, ())}),
    ("Neither DK1 (48 GB) nor DK2 (40 GB) reaches 64 GB.", {"DK1": (F, ("48",)), "DK2": (F, ("40",))}),
    ("RE3 - rent 1,340 EUR, 58 m2, pets allowed. RE3 stays in.", {"RE3": (P, ("1340", "58"))}),
    ("Option TT7 costs 75 USD; we will not be pursuing it.", {"TT7": (F, ("75",))}),
    ("School SC5 is 4.2 km away with fees of 8,400 GBP; SC5 gets a thumbs-up.", {"SC5": (P, ("4.2", "8400"))}),
    ("HT09 was marked unavailable for our dates.", {"HT09": (F, ())}),
    ("ZN1 meets the spec. ZN2 does too. ZN3 does not.", {"ZN1": (P, ()), "ZN2": (P, ()), "ZN3": (F, ())}),
    ("Tender TD6 came in at 88,000 EUR, well above the ceiling; TD7 at 71,500 EUR is inside it.",
     {"TD6": (F, ("88000",)), "TD7": (P, ("71500",))}),
]

# a second development batch, written after the first fixes (all of it development: never held out)
DEV2: list[Probe] = [
    ("Storage ST1 gives 2 TB for 9 EUR a month. Good value, but no EU region, so it cannot be used.",
     {"ST1": (F, ("2", "9"))}),
    ("Hall HL3 takes 250 people. It's a go from facilities.", {"HL3": (P, ("250",))}),
    ("Candidate JP4: 5 years, asks 68k EUR. Hiring manager: strong hire.", {"JP4": (P, ("68000",))}),
    ("Candidate JP6: 1 year of experience. Not senior enough; pass.", {"JP6": (F, ("1",))}),
    ("QT2 costs 18 EUR per unit and QT3 costs 22 EUR per unit; QT3 breaks the budget.",
     {"QT2": (N, ("18",)), "QT3": (F, ("22",))}),
    ("CL5 offers 99.95% uptime. Meets the SLA. CL6 offers 99.0% and misses it.",
     {"CL5": (P, ("99.95",)), "CL6": (F, ("99",))}),
    ("Unit AP12 (2 beds, 1,380 EUR): no pets allowed, which rules it out.", {"AP12": (F, ("2", "1380"))}),
    ("RT4 lands at 23:50, too late for the shuttle. RT5 lands at 18:10 and works.",
     {"RT4": (F, ()), "RT5": (P, ())}),
    ("We shortlisted VQ1 and VQ2, then dropped VQ2 over its 6-week lead time.",
     {"VQ1": (P, ()), "VQ2": (F, ("6",))}),
    ("BR7 - 3 stars, EUR 95, 0.4 km. Verdict: good.", {"BR7": (P, ("95", "0.4"))}),
    ("BR8 - 2 stars, EUR 60, 6 km. Verdict: too far.", {"BR8": (F, ("60", "6"))}),
    ("Offer OF3 from Lisbon is 1,900 EUR; we decline it.", {"OF3": (F, ("1900",))}),
    ("CN7 and CN8 were both considered; CN7 was chosen.", {"CN7": (P, ()), "CN8": (ANY, ())}),
    ("Quote QX5 came back at 14,500 USD, which is acceptable.", {"QX5": (P, ("14500",))}),
    ("LS2 is priced at 2,100 EUR a month. That exceeds our cap, so LS2 is off.", {"LS2": (F, ("2100",))}),
    ("TX3 and TX4 charge 1.9% and 2.4% per transaction respectively. TX4 is out.",
     {"TX3": (N, ("1.9",)), "TX4": (F, ("2.4",))}),
    ("PT1: fees 120 EUR, rating 4.7. Approved. PT2: fees 80 EUR, rating 3.1. Turned down.",
     {"PT1": (P, ("120", "4.7")), "PT2": (F, ("80", "3.1"))}),
    ("Van VN8 was fine on paper, but the depot is closed on Sundays, so VN8 won't work for us.",
     {"VN8": (F, ())}),
    ("Plan PL7 covers dental; plan PL8 does not, so PL8 is disqualified.", {"PL7": (N, ()), "PL8": (F, ())}),
    ("GB2 delivers in 3 days. Approve.", {"GB2": (P, ("3",))}),
    ("Printer PR5 prints 30 ppm for 410 EUR. Budget is 350 EUR, so no.", {"PR5": (F, ("30", "410"))}),
    ("HW3 was rejected at first, but after the discount to 95 EUR it's back on the list.",
     {"HW3": (P, ("95",))}),
    ("Room RB2 (cap. 16) is booked solid that week.", {"RB2": (F, ("16",))}),
    ("Supplier SN4 says its lead time is 2 weeks and that it meets ISO 9001.", {"SN4": (N, ("2",))}),
    ("Tutor TU3 charges 40 GBP/h and the school approved her timetable.", {"TU3": (N, ("40",))}),
    ("MB1 has 16 GB for 1,299 USD; MB2 has 8 GB for 999 USD. MB2 lacks memory; MB1 is our pick.",
     {"MB1": (P, ("16", "1299")), "MB2": (F, ("8", "999"))}),
    ("HT21 is at 3.2 km. HT22 sits 11 km out. The latter is eliminated.",
     {"HT21": (N, ("3.2",)), "HT22": (F, ("11",))}),
    ("Jacket JK8 weighs 420 g; we're going with it.", {"JK8": (P, ("420",))}),
]

# a third development batch, written after the second batch's fixes (development too)
DEV3: list[Probe] = [
    ("Bid BD4 was the lowest at 41,000 EUR and wins the tender.", {"BD4": (P, ("41000",))}),
    ("Bid BD5 came in at 47,500 EUR and loses on price.", {"BD5": (F, ("47500",))}),
    ("Server SR9 has 256 GB and a 99.99% SLA - approved for production.", {"SR9": (P, ("256", "99.99"))}),
    ("Candidate CV2 did not pass the coding test.", {"CV2": (F, ())}),
    ("Candidate CV3 sailed through the interviews.", {"CV3": (ANY, ())}),
    ("Hotel HH5 is overbooked on our dates.", {"HH5": (ANY, ())}),
    ("Flat FA3 (3 rooms, 1,650 EUR) - too pricey for us, next.", {"FA3": (F, ("3", "1650"))}),
    ("FA4: 2 rooms, 1,200 EUR. This is the one.", {"FA4": (P, ("2", "1200"))}),
    ("Van VA7 costs 85 EUR a day. I'd go for VA7.", {"VA7": (P, ("85",))}),
    ("Room KM2 holds 30. Management signed off on KM2.", {"KM2": (P, ("30",))}),
    ("Provider PV6 charges 0.12 USD per GB; it ticks all our boxes.", {"PV6": (P, ("0.12",))}),
    ("Provider PV7 charges 0.09 USD per GB but has no EU presence - a non-starter.", {"PV7": (F, ("0.09",))}),
    ("Caterer CA8 can seat 120 and is a solid choice.", {"CA8": (P, ("120",))}),
    ("Plan PN4 has a 500 EUR excess; we can't accept that.", {"PN4": (F, ("500",))}),
    ("Laptop LP6 weighs 2.9 kg, heavier than allowed. Rejected.", {"LP6": (F, ("2.9",))}),
    ("The audit of WR2 found no issues; WR2 is cleared.", {"WR2": (P, ())}),
    ("Supplier SY3 missed the deadline twice and is struck from the list.", {"SY3": (F, ())}),
    ("Office OF8 is 240 m2 for 5,200 EUR. We'll sign for OF8.", {"OF8": (P, ("240", "5200"))}),
    ("Tool TL1 lacks SSO, TL2 has it; TL2 wins.", {"TL1": (F, ()), "TL2": (P, ())}),
    ("Courier CR4 delivers in 2 days and we're happy to proceed with them.", {"CR4": (P, ("2",))}),
    ("Venue VX3: capacity 90, 2,800 EUR. Doesn't meet the 120-guest minimum.", {"VX3": (F, ("90", "2800"))}),
    ("Boat BT2 sleeps 6 for 3,100 EUR a week, good to book.", {"BT2": (P, ("6", "3100"))}),
]

DEV: list[Probe] = [p for k, p in enumerate(PROBES) if k % 3 != 2]
HELD_OUT: list[Probe] = [p for k, p in enumerate(PROBES) if k % 3 == 2]

GOALS: list[tuple[str, list[tuple[str, str]]]] = [
    ("A log store with price <= 12,000 USD per month with 30-day retention.", [("<=", "12,000 USD per month")]),
    ("Book the hall on friday <= 200 EUR for 3 hours.", [("<=", "200 EUR")]),
    ("A van with capacity >= 900 kg for the whole week.", [(">=", "900 kg")]),
    ("A room under 300 EUR per night near the station.", [("<=", "300 EUR per night")]),
    ("A desk at most 140 cm wide including the drawers.", [("<=", "140 cm")]),
]
"""Goals whose bound is followed by other wishes: (operator, threshold) of every constraint parsed."""


@dataclass
class Score:
    """What a probe set scored: verdicts right / unknown / flipped (and verdicts given where none is right),
    values found on their option / found only on another / lost, and fake options."""

    right: int = 0
    unknown: int = 0
    flipped: int = 0
    spurious: int = 0
    found: int = 0
    wrong_id: int = 0
    lost: int = 0
    fake: int = 0

    def line(self) -> str:
        judged = self.right + self.unknown + self.flipped + self.spurious
        return (f"verdicts {self.right}/{judged} right, {self.unknown} unknown, {self.flipped} flipped, "
                f"{self.spurious} spurious; values {self.found} found, {self.wrong_id} wrong id, {self.lost} lost; "
                f"{self.fake} fake options")


def _numbers(text: str) -> set[float]:
    return {round(q.value, 6) for q in find_quantities(text)}


def _value(score: Score, value: str, own: str, others: str) -> None:
    if not value[:1].isdigit():
        if value in own.split():
            score.found += 1
        else:
            score.lost += 1
        return
    number = float(value)
    if number in _numbers(own) and number not in _numbers(others):
        score.found += 1
    elif number in _numbers(others):
        score.wrong_id += 1
    else:
        score.lost += 1


def score(probes: list[Probe], goal: str = "Pick one that meets every rule.") -> Score:
    total = Score()
    for trace, expected in probes:
        rows = read_evidence(trace, goal).rows
        total.fake += len(set(rows) - set(expected))
        for option_id, (verdict, values) in expected.items():
            row = rows.get(option_id)
            got = row.verdict if row is not None else None
            if verdict != ANY:
                if got == verdict:
                    total.right += 1
                elif verdict is None:
                    total.spurious += 1
                elif got is None:
                    total.unknown += 1
                else:
                    total.flipped += 1
            own = row.evidence + " " + row.reason if row is not None else ""
            others = " ".join(r.evidence for k, r in rows.items() if k != option_id)
            for value in values:
                _value(total, value, own, others)
    return total


def failures(probes: list[Probe], goal: str = "Pick one that meets every rule.") -> list[str]:
    """The development probes read wrongly, one line each (never called on the held-out part)."""
    out = []
    for trace, expected in probes:
        if score([(trace, expected)], goal).line() != Score(
                right=sum(v != ANY for v, _ in expected.values()),
                found=sum(len(values) for _, values in expected.values())).line():
            rows = read_evidence(trace, goal).rows
            out.append(f"{trace!r}\n    {', '.join(r.text() for r in rows.values())}")
    return out
