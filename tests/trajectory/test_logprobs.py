import pytest


@pytest.mark.embedded_model
def test_prefix_cached_log_probs_depend_on_the_prompt_and_survive_cache_reuse() -> None:
    from relaykit.trajectory.logprobs import PrefixCachedLocal

    model = PrefixCachedLocal()
    a = model.score_continuation([{"role": "user", "content": "Say: open the door"}], "open the door")
    b = model.score_continuation([{"role": "user", "content": "Say: take the coin"}], "open the door")
    again = model.score_continuation([{"role": "user", "content": "Say: open the door"}], "open the door")
    assert len(a) == len(b) >= 2 and all(t.logprob <= 0 for t in a)
    assert sum(t.logprob for t in a) > sum(t.logprob for t in b)  # the prompt that names the action helps
    assert [round(t.logprob, 4) for t in again] == [round(t.logprob, 4) for t in a]
