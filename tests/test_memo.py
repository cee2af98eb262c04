"""Run-scoped memory: remembered only inside remembering(), only short texts, dropped when the block ends."""

from __future__ import annotations

from relaykit import memo, tokens
from relaykit.handoff.evidence import read_evidence

calls: list[str] = []


@memo.remembered
def _shout(text: str) -> str:
    calls.append(text)
    return text.upper()


@memo.remembered_whole
def _whole(text: str) -> int:
    calls.append(text)
    return len(text)


def test_nothing_is_remembered_outside_a_block() -> None:
    calls.clear()
    assert _shout("a") == _shout("a") == "A"
    assert calls == ["a", "a"] and not memo.active()


def test_inside_a_block_short_texts_are_computed_once_and_forgotten_after() -> None:
    calls.clear()
    long = "x" * (memo.MEMO_CHARS + 1)
    with memo.remembering():
        with memo.remembering():  # nested blocks share one memory
            _shout("a")
        _shout("a"), _shout(long), _shout(long), _whole(long), _whole(long)
        assert memo.active()
    assert calls == ["a", long, long, long]
    assert not memo.active() and not any(memo._tables)
    _shout("a")
    assert calls[-1] == "a" and len(calls) == 5


def test_remembered_readers_answer_as_before() -> None:
    trace = "H01 costs 120 USD; it is 2.5 km out, pass.\nF02 leaves at 9 am for 80 USD, fail.\n" * 3
    goal = "Budget at most 300 USD."
    plain = (read_evidence(trace, goal).text(), tokens.count(trace))
    with memo.remembering():
        first = (read_evidence(trace, goal).text(), tokens.count(trace))
        again = (read_evidence(trace, goal).text(), tokens.count(trace))
    assert plain == first == again


def test_long_texts_read_line_by_line_give_the_same_typed_values() -> None:
    from relaykit.handoff.audit import _CROSSES_LINES, _read_typed_keys, _typed_keys

    lines = ["H01 costs 120 USD per night, 2.5 km out", "F02 leaves at 10:30 pm on 2026-05-01 for $80 total",
             "a 3-star hotel, 45 min away, 20% off", "nothing typed here", "USD 95 or", "5 km"]
    joined = ["costs 180\nUSD 20", "at 10:30\npm", "only $\n5", "USD\n20", "3\nkm", "plain\n5 km"]
    for extra in ["", *joined]:
        text = "\n".join(lines * 40) + "\n" + extra
        assert len(text) > memo.MEMO_CHARS
        assert bool(_CROSSES_LINES.search(text)) == bool(extra and extra != "plain\n5 km")  # both paths run
        expected = list(_read_typed_keys(text))
        with memo.remembering():
            assert list(_typed_keys(text)) == expected, extra
        assert list(_typed_keys(text)) == expected, extra
