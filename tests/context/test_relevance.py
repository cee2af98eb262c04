from relaykit.context import keyword_relevance


def test_keyword_fallback_orders_the_rubric() -> None:
    assert keyword_relevance("We decided to move the launch; Sam will update the plan by Friday.") == 3
    assert keyword_relevance("Weekly status: the migration is on track, 70% progress.") == 2
    assert keyword_relevance("Someone mentioned the project at lunch.") in (0, 1)
    assert keyword_relevance("Newsletter: 20% off webinars this weekend. Unsubscribe here.") == 0
