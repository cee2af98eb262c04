from relaykit.selective import most_informative, spread_over_words


def test_spread_splits_a_piece_over_the_words_it_touches() -> None:
    spans = spread_over_words("ab cd", [("ab c", 4.0), ("d", 1.0)])
    assert [(s, e) for s, e, _ in spans] == [(0, 2), (3, 5)]
    assert [round(i, 3) for _, _, i in spans] == [2.0, 3.0]


def test_most_informative_keeps_order_and_breaks_ties_by_position() -> None:
    assert most_informative([1.0, 5.0, 5.0, 0.5], 2) == [1, 2]
    assert most_informative([3.0, 1.0, 2.0], 2) == [0, 2]
    assert most_informative([1.0], 0) == []
