"""Development probes for verdicts the reader missed (issue 12, wave 6, helper v12), written for these tests in
other domains, ids and wordings than the red team's held-out probes: a verdict far from its option, values and
verdicts given "respectively", idioms of acceptance and rejection, audits partly in German, French or Spanish.
Each probe is (trace, {id: expected verdict}); None means the reader must leave the option unjudged."""

from __future__ import annotations

Probe = tuple[str, dict[str, str | None]]
P, F = "pass", "eliminated"

FAR: list[Probe] = [
    ("Van VN-3 carries 900 kg and rents for 120 EUR a day. Van VN-5 carries 1,200 kg for 150 EUR a day. "
     "Both depots open at 07:00. The first one works for us. The second one, though, we had to drop.",
     {"VN-3": P, "VN-5": F}),
    ("Supplier SP4 quotes 8 USD per unit with a 14-day lead time. The sample arrived on Tuesday. The lab "
     "checked the finish. In the end we rejected it.", {"SP4": F}),
    ("Tutor TU-21 charges 35 GBP an hour and teaches on weekends. Tutor TU-24 charges 28 GBP an hour, weekdays "
     "only. We spoke to both of them on the phone and asked for references. TU-24, after all that, is the one "
     "we keep.", {"TU-21": None, "TU-24": P}),
    ("Bike BK7 weighs 9.8 kg and costs 1,400 EUR. Bike BK9 weighs 11.2 kg and costs 990 EUR. The shop also "
     "offers a fitting. The lighter bike is over our budget. The second one, however, gets the nod.",
     {"BK7": F, "BK9": P}),
    ("Room RM12 seats 14 and has a projector.\nRoom RM15 seats 8 and has a whiteboard.\nThe booking system "
     "was slow today.\nRM15, sadly, is too small for the team.", {"RM12": None, "RM15": F}),
    ("Plan IN-2 covers 80% of costs for 45 USD a month. Plan IN-3 covers 60% for 30 USD a month. "
     "Claims are paid within 10 days for both. As for the first plan, we're keeping it.",
     {"IN-2": P, "IN-3": None}),
    ("Flat FL-8: 2 rooms, 1,150 EUR, 3rd floor. Flat FL-9: 3 rooms, 1,390 EUR, ground floor. "
     "The landlord answered quickly. The former we had to rule out; the latter is fine.",
     {"FL-8": F, "FL-9": P}),
    ("Host HS-31 offers 64 GB at 0.90 USD per hour. Host HS-35 offers 32 GB at 0.55 USD per hour. "
     "Support replied within a day. Unfortunately, the second option we cannot use.",
     {"HS-31": None, "HS-35": F}),
    # written after the first fixes, read once before tuning (see the report)
    ('Kitchen KI-1 fits 10 cooks and rents at 60 EUR an hour. Kitchen KI-2 fits 6 cooks for 45 EUR an hour. Both '
     'have a walk-in fridge. We toured them on Friday. In the end the first kitchen got the nod.',
     {"KI-1": P, "KI-2": None}),
    ('Agency AY3 charges 15% and places within 30 days.\nAgency AY5 charges 11% and places within 45 '
     'days.\nReferences came back mixed for one of them.\nThe last one we rejected.',
     {"AY3": None, "AY5": F}),
    ('Boat BT-2 takes 12 guests for 800 EUR. Boat BT-4 takes 20 guests for 1,300 EUR. The harbour master was '
     'helpful. The second boat is out of the question.',
     {"BT-2": None, "BT-4": F}),
    ('Printer PX8 does 40 ppm at 420 USD. We checked the toner prices and warranty terms twice. After some debate, '
     'it stays on the shortlist.',
     {"PX8": P}),
    # a third batch, scored once before any fix for it (see the report)
    ('Quote Q7 from the roofer: 4,200 EUR, 3 weeks.\nQuote Q9: 3,900 EUR, 6 weeks.\n\nWe need the roof before '
     'winter.\nSo Q9, despite the price, is a no-go.',
     {"Q7": None, "Q9": F}),
    ('A1 is a 3-bed semi at 1,600 GBP. A2 is a 2-bed flat at 1,250 GBP. The agent was slow to reply and the '
     'viewing moved twice. Ultimately, the flat wins out.',
     {"A1": None, "A2": P}),
    ('Courier ABC12 delivers in 2 days for 18 USD. Courier ABC15 delivers in 5 days for 9 USD. The client insisted '
     'on speed. So the first courier it is... actually, the second one we rule out entirely.',
     {"ABC12": None, "ABC15": F}),
    ('HT-001: 3 stars, 95 EUR. HT-002: 4 stars, 130 EUR. HT-003: 5 stars, 240 EUR. Lots of back and forth with '
     'finance. The last one is way over the limit.',
     {"HT-001": None, "HT-002": None, "HT-003": F}),
]

RESPECTIVELY: list[Probe] = [
    ("OB1 and OB2 come in at 220 USD and 310 USD respectively, so neither qualifies.", {"OB1": F, "OB2": F}),
    ("KT1, KT2 and KT3 cost 40 EUR, 55 EUR and 70 EUR respectively; the first two pass, the third is over "
     "budget.", {"KT1": P, "KT2": P, "KT3": F}),
    ("Candidates CN-4 and CN-6 were accepted and rejected, respectively.", {"CN-4": P, "CN-6": F}),
    ("ZB1 and ZB2 have 8 GB and 16 GB of memory respectively, so ZB1 fails and ZB2 passes.",
     {"ZB1": F, "ZB2": P}),
    ("Quotes for CX1 and CX2 were 90 USD and 140 USD respectively, and both qualify.", {"CX1": P, "CX2": P}),
    ("Rooms MR-7 and MR-9 hold 12 and 20 people respectively: the former is rejected, the latter is kept.",
     {"MR-7": F, "MR-9": P}),
    ("Lenders LN3 and LN4 (3.1% and 4.2% respectively) are kept and dropped respectively.",
     {"LN3": P, "LN4": F}),
    ("Vendors VD1, VD2 and VD3 quoted 15 days, 9 days and 30 days respectively; VD1 and VD2 are in, VD3 is out.",
     {"VD1": P, "VD2": P, "VD3": F}),
    # written after the first fixes, read once before tuning (see the report)
    ('WX1 and WX2 offer 99.9% and 99.5% uptime respectively, so WX2 is rejected.',
     {"WX1": None, "WX2": F}),
    ('Suppliers SU-3, SU-4 and SU-5 were shortlisted, rejected and shortlisted, respectively.',
     {"SU-3": P, "SU-4": F, "SU-5": P}),
    ('EV1 and EV2 charge 35 EUR and 48 EUR respectively; both are within budget.',
     {"EV1": P, "EV2": P}),
    ('Coaches CO1 and CO2 (45 and 60 seats respectively) both fail the 70-seat minimum.',
     {"CO1": F, "CO2": F}),
    # a third batch, scored once before any fix for it (see the report)
    ('MB1 and MB2 weigh 1.1 kg and 1.9 kg respectively; MB1 is kept, MB2 is dropped.',
     {"MB1": P, "MB2": F}),
    ('TR3, TR4 and TR6 are approved, approved and declined respectively.',
     {"TR3": P, "TR4": P, "TR6": F}),
    ('PL1 and PL2 come to 12 and 19 USD per seat, respectively, and neither fits the 10 USD cap.',
     {"PL1": F, "PL2": F}),
]

IDIOMS: list[Probe] = [
    ("AN6 is 12 km out, which sinks AN6.", {"AN6": F}),
    ("Hotel HQ2 costs 180 USD a night. We move HQ2 forward to the next round.", {"HQ2": P}),
    ("Printer PR-4 prints 30 ppm for 250 USD. PR-4 is off the table.", {"PR-4": F}),
    ("Laptop LP3: 16 GB, 1,100 EUR. LP3 falls short on battery life.", {"LP3": F}),
    ("Courier CR2 quotes 12 USD. We'll go ahead with CR2.", {"CR2": P}),
    ("Studio ST4 is 700 EUR a month. The landlord wants 3 months' deposit, which kills ST4.", {"ST4": F}),
    ("Caterer CT-7 serves 90 guests at 35 EUR a head. Let's green-light CT-7.", {"CT-7": P}),
    ("Van VA1 holds 1,000 kg for 95 EUR. We toss VA1 out.", {"VA1": F}),
    ("Gym GY3 costs 45 USD a month and opens at 06:00. GY3 does not make the cut.", {"GY3": F}),
    ("Desk DK-5 is 160 cm wide for 320 EUR. Let's keep DK-5.", {"DK-5": P}),
    ("Drone DR2 flies 40 minutes for 900 USD; we signed off on DR2.", {"DR2": P}),
    ("Agency AG9 takes a 12% fee. AG9 gets the axe.", {"AG9": F}),
    ("Router RT-3 covers 150 m2 for 180 EUR. RT-3 passes muster.", {"RT-3": P}),
    ("We reject SK1 and keep SK2: SK1 holds 20 l, SK2 holds 30 l.", {"SK1": F, "SK2": P}),
    ("Tent TN4 sleeps 4 for 230 EUR and has 2 sinks nearby; no verdict yet.", {"TN4": None}),
    ("Venue VE-2 fits 120 for 4,000 EUR. VE-2 is a no-brainer.", {"VE-2": P}),
    ("Cable CB5 is 2 m for 9 USD; we weeded CB5 out.", {"CB5": F}),
    ("Phone PH8: 128 GB, 599 USD. PH8 did not get the nod.", {"PH8": F}),
    # written after the first fixes, read once before tuning (see the report)
    ('Loft LF4 is 1,200 EUR a month. Noise from the bar downstairs kills it for us.',
     {"LF4": F}),
    ("Carrier CA7 quotes 3 days. We're going ahead with CA7.",
     {"CA7": P}),
    ("Candidate CD-2 has 6 years of Go. CD-2 didn't pass muster in the panel.",
     {"CD-2": F}),
    ('Venue VN8 seats 200 for 9,000 EUR; VN8 comes out on top.',
     {"VN8": P}),
    ('Caterer KT5: 28 EUR a head. Allergen policy is a red flag, so we said no to KT5.',
     {"KT5": F}),
    ("Server SV3 has 64 GB for 210 USD a month. Let's take SV3.",
     {"SV3": P}),
    ('Van VV2 costs 70 EUR a day; we ditch VV2 and book VV3, which costs 80 EUR.',
     {"VV2": F, "VV3": P}),
    ('Desk DS4 is 140 cm for 250 EUR. DS4 is off the list and DS5 fits the bill.',
     {"DS4": F, "DS5": P}),
    # a third batch, scored once before any fix for it (see the report)
    ("Flat FT2 is 1,050 EUR with a balcony. We'll run with FT2.",
     {"FT2": P}),
    ('Vendor VR8 wants 90 days to deliver, which rules VR8 out.',
     {"VR8": F}),
    ('SaaS tool ST-3 costs 14 USD per seat. ST-3 is a non-starter given the SSO gap.',
     {"ST-3": F}),
    ('Laptop NB5 is 1.2 kg for 1,300 EUR; NB5 gets a thumbs-up from IT.',
     {"NB5": P}),
    ('Hotel HX9 is 300 USD a night. That prices HX9 out.',
     {"HX9": F}),
    ('Bus BU4 seats 50 for 700 EUR. BU4 clears the bar.',
     {"BU4": P}),
    ('Speaker SK7 asks 5,000 USD. Budget-wise SK7 is a hard no.',
     {"SK7": F}),
    ('Tool TL2 at 40 USD: we are not moving TL2 forward.',
     {"TL2": F}),
]

MIXED: list[Probe] = [
    ("Wohnung WG-4: 3 Zimmer, 1.250 EUR warm. Passt.\nWohnung WG-7: 2 Zimmer, 980 EUR. Zu klein, raus.",
     {"WG-4": P, "WG-7": F}),
    ("Angebot AB1 kostet 420 EUR, Lieferung in 5 Tagen - abgelehnt.\nAngebot AB2 kostet 390 EUR - angenommen.",
     {"AB1": F, "AB2": P}),
    ("Hôtel HT3 : 140 EUR la nuit, 2 km du centre. Retenu.\nHôtel HT5 : 95 EUR la nuit, 11 km. Écarté.",
     {"HT3": P, "HT5": F}),
    ("Offre OF-2 à 300 EUR : non retenue.\nOffre OF-3 à 250 EUR : retenue.", {"OF-2": F, "OF-3": P}),
    ("Proveedor PV1: 12 USD por unidad, descartado.\nProveedor PV2: 10 USD por unidad, aprobado.",
     {"PV1": F, "PV2": P}),
    ("Team notes: KA-1 costs 2,100 EUR and passt nicht ins Budget. KA-2 costs 1,800 EUR, passt.",
     {"KA-1": F, "KA-2": P}),
    ("Sala SA-5 para 20 personas, 150 EUR: no cumple. Sala SA-6 para 40 personas, 210 EUR: cumple.",
     {"SA-5": F, "SA-6": P}),
    ("Voiture VO1 : 45 EUR/jour, ne convient pas.\nVoiture VO2 : 52 EUR/jour, validée.", {"VO1": F, "VO2": P}),
    ("Kandidat KD3 hat 5 Jahre Erfahrung - geeignet. Kandidat KD4 hat 1 Jahr - ungeeignet.",
     {"KD3": P, "KD4": F}),
    ("Oferta OT7 a 80 EUR: rechazada. Oferta OT8 a 70 EUR: seleccionada.", {"OT7": F, "OT8": P}),
    # written after the first fixes, read once before tuning (see the report)
    ('Hotel HO1: 120 EUR, 3 km - nehmen wir.\nHotel HO2: 210 EUR, 1 km - zu teuer.',
     {"HO1": P, "HO2": F}),
    ('Appartement AP4 : 900 EUR, 2 pièces - rejeté.\nAppartement AP5 : 850 EUR, 3 pièces - accepté.',
     {"AP4": F, "AP5": P}),
    ('Coche CC1: 30 EUR/día, aceptado. Coche CC2: 55 EUR/día, demasiado caro.',
     {"CC1": P, "CC2": F}),
    ('Offerta OE3 a 400 EUR: scartata. Offerta OE4 a 350 EUR: approvata.',
     {"OE3": F, "OE4": P}),
    ('Notes: LK-1 is 14 kg, kommt nicht in Frage. LK-2 is 9 kg, in Ordnung.',
     {"LK-1": F, "LK-2": P}),
    # a third batch, scored once before any fix for it (see the report)
    ('Flug FL1: 320 EUR, Abflug 07:00 - genommen.\nFlug FL2: 410 EUR, Abflug 09:30 - gestrichen.',
     {"FL1": P, "FL2": F}),
    ('Salle SL3 : 30 places, 400 EUR, écartée. Salle SL4 : 50 places, 650 EUR, on garde.',
     {"SL3": F, "SL4": P}),
    ('Piso PS2: 850 EUR, 2 hab. No nos sirve.\nPiso PS3: 900 EUR, 3 hab. Seleccionado.',
     {"PS2": F, "PS3": P}),
    ('Fornitore FO1: 10 EUR al pezzo, respinto. Fornitore FO2: 12 EUR al pezzo, approvato.',
     {"FO1": F, "FO2": P}),
]

GROUPS = {"far": FAR, "respectively": RESPECTIVELY, "idioms": IDIOMS, "mixed": MIXED}
