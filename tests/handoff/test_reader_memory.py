"""The reader remembers a clause that names its option with the id's digits masked: what it reads must not
change, whichever option of the family the clause names."""

from __future__ import annotations

import pytest

from relaykit.handoff import evidence
from relaykit.handoff.corpus import STYLES, corpus
from relaykit.handoff.evidence import read_evidence
from relaykit.handoff.reading import id_mask, masked

ODD = """\
HT01 is accepted. HT02 is accepted. HT03 is rejected on price.
SET01 rate 5 USD, sorted. SET02 out. SET03 is out. SET04 is out, nightly rate 9 USD.
Check at 5 PM1; PM2 is 4 km away. PM1 is 3 km away. PM3: 5 pm, fine.
USD1 costs 4. USD2 costs 4. HT04's rate is 180 USD. HT05's rate is 180 USD.
HT06=ok and HT07=ok. (HT08) is out. (HT09) is out. HT10.5 km. HT11.5 km.
"""


def test_id_mask_masks_the_digits_of_plain_ids_that_read_as_one_word() -> None:
    assert id_mask("HT07") == "HT\0\0"
    assert id_mask("GV141") == "GV\0\0\0"
    assert id_mask("USD1") == ""  # a price, not a word
    assert id_mask("SU-1") == ""  # not a plain id
    assert id_mask("ht7") == ""


@pytest.mark.parametrize("text", ["HT07 is out.", "(HT07) is out", "x | HT07 | 5 USD", "so HT07: fine",
                                  "HT07, HT08 and HT07!"])
def test_an_id_standing_apart_is_masked(text: str) -> None:
    said = masked(text, "HT07", "HT\0\0")
    assert said == text.replace("HT07", "HT\0\0")


@pytest.mark.parametrize("text", ["HT07's rate", "HT07=ok", "5 HT07", "xHT07 out", "HT070 out", "HT07.5 km",
                                  "HT07-b", "a/HT07", "HT07:30"])
def test_an_id_touching_other_text_is_not_masked(text: str) -> None:
    assert masked(text, "HT07", "HT\0\0") is None


@pytest.mark.pure_python
def test_masked_memory_reads_every_trace_as_the_plain_memory_does(monkeypatch: pytest.MonkeyPatch) -> None:
    traces = [(t.trace, t.goal) for t in corpus(STYLES, seeds=1)]
    traces.append((ODD, "Find a hotel under 200 USD."))
    fast = [read_evidence(trace, goal) for trace, goal in traces]
    monkeypatch.setattr(evidence, "masked", lambda text, option_id, mask: None)
    plain = [read_evidence(trace, goal) for trace, goal in traces]
    for a, b in zip(fast, plain, strict=True):
        assert a.text() == b.text()
        assert [(r.id, r.body, r.verdicts, r.reason, list(r.sentences)) for r in a.rows.values()] == \
            [(r.id, r.body, r.verdicts, r.reason, list(r.sentences)) for r in b.rows.values()]
        assert a.notes == b.notes and a.labels == b.labels


CELLS = """\
| id | price | stars | decision | status |
|----|-------|-------|----------|--------|
| HT01 | $180 | 4 | yes | keep |
| HT02 | $180 | 4 | no (price) | drop |
| HT03 | 5 km | yes | reject (lead time, cert) | yes |
| HT04 | $180 | 4 | yes | keep |
id,price usd,sla %,verdict
SP1,19,99.9,yes
SP2,19,99.9,no
SP3,19,99.5,yes
"""


@pytest.mark.pure_python
def test_the_cell_memory_reads_every_table_as_a_fresh_reading_does(monkeypatch: pytest.MonkeyPatch) -> None:
    from relaykit.handoff import cells

    traces = [(t.trace, t.goal) for t in corpus(STYLES, seeds=1)] + [(CELLS, "Find a hotel under 200 USD.")]
    remembered = [read_evidence(trace, goal) for trace, goal in traces]
    # a memory that forgets at once: every cell is read afresh (the property hides the reader's own dict)
    monkeypatch.setattr(cells.TableCells, "cell_texts", property(lambda self: {}, lambda self, value: None),
                        raising=False)
    fresh = [read_evidence(trace, goal) for trace, goal in traces]
    for a, b in zip(remembered, fresh, strict=True):
        assert a.text() == b.text()
        assert [(r.id, r.body, r.verdicts, r.reason, list(r.sentences)) for r in a.rows.values()] == \
            [(r.id, r.body, r.verdicts, r.reason, list(r.sentences)) for r in b.rows.values()]
