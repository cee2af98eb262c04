import pytest

from relaykit import tokens
from relaykit.errors import UsageError


def test_count_is_offline_and_sensible() -> None:
    assert tokens.count("") == 0
    assert tokens.count("hello world") == 2
    assert tokens.count("hello world", "cl100k_base") == 2
    long = "The hotel H07 costs $180 per night. " * 50
    assert 400 < tokens.count(long) < 600


def test_unknown_encoding_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="o200k_base"):
        tokens.count("x", "p50k_nope")


def test_model_name_map() -> None:
    assert tokens.encoding_for_model("gpt-4o-mini") == "o200k_base"
    assert tokens.encoding_for_model("gpt-4-0613") == "cl100k_base"
    assert tokens.encoding_for_model("gpt-4.1-nano") == "o200k_base"
    assert tokens.encoding_for_model("openai/gpt-3.5-turbo") == "cl100k_base"
    assert tokens.encoding_for_model("some-local-model") == "o200k_base"


def test_count_messages_adds_chat_overhead() -> None:
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hello world"}]
    content = tokens.count("Be brief.") + tokens.count("hello world")
    roles = tokens.count("system") + tokens.count("user")
    assert tokens.count_messages(messages) == content + roles + 2 * 3 + 3


def test_count_messages_counts_tool_calls() -> None:
    call = {"role": "assistant", "content": None,
            "tool_calls": [{"id": "c1", "type": "function",
                            "function": {"name": "book_hotel", "arguments": '{"id": "H07"}'}}]}
    assert tokens.count_messages([call]) > tokens.count_messages([{"role": "assistant", "content": ""}])


SENTENCE = "The hotel H07 costs $180 per night, breakfast included. "
LONG = SENTENCE * 20_000  # 1.12 million characters


def test_any_length_is_counted_without_error() -> None:
    assert len(LONG) > 1_000_000
    for encoding in tokens.ENCODINGS:  # chunk seams change a count by a token or two at most
        first = tokens.count(SENTENCE, encoding)
        each = tokens.count(SENTENCE * 2, encoding) - first
        assert abs(tokens.count(LONG, encoding) - (first + 19_999 * each)) < 30, encoding
    assert tokens.count("x" * 2_500_000) > 0  # no whitespace to cut at
    assert tokens.count_messages([{"role": "user", "content": LONG}]) > tokens.count(LONG)


def test_cli_counts_a_file_over_a_megabyte(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from relaykit.cli.app import main

    big = tmp_path / "big.txt"
    big.write_text(LONG)
    with pytest.raises(SystemExit) as info:
        main(["tokens", str(big)])
    assert info.value.code in (0, None)
    assert int(capsys.readouterr().out.strip()) == tokens.count(LONG)


def test_a_trajectory_with_a_huge_observation_compresses() -> None:
    from relaykit.trajectory import compress_trajectory

    messages = [{"role": "user", "content": "Find the cheapest hotel."}]
    for i in range(6):
        call = {"id": f"c{i}", "type": "function", "function": {"name": "search", "arguments": "{}"}}
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        messages.append({"role": "tool", "tool_call_id": f"c{i}", "content": LONG if i == 2 else f"result {i}"})
    result = compress_trajectory(messages, method="truncate", keep=0.3)
    assert result.accounting.tokens_in > 200_000
    assert result.accounting.tokens_out < result.accounting.tokens_in


COUNT_SAMPLES = [
    "Hotel H03 (Thames View): price 182 USD per night; distance 1.4 km.",
    "Ünïcödé façade — naïve café in Zürich, 東京 and Москва; emoji 🚀.",
    "def f(x):\n    return {'a': [1, 2, 3]}\n\n\n",
    "   ", "x", "1234567890" * 50, "word " * 3000,
]


@pytest.mark.parametrize("encoding", tokens.ENCODINGS)
def test_count_agrees_with_the_encodings_own_tokens(encoding: str) -> None:
    enc = tokens.get_encoding(encoding)
    for text in COUNT_SAMPLES:
        assert tokens.count(text, encoding) == len(enc.encode(text)), text[:40]


def test_text_that_spells_a_special_token_is_counted_as_text() -> None:
    # bpe-openai's Encoding.encode refuses such text by default; a counter of user text must not
    assert tokens.count("before <|endoftext|> after") > tokens.count("before  after")


def test_counting_does_not_import_the_bpe_openai_python_package() -> None:
    import subprocess
    import sys

    code = "import sys; from relaykit import tokens; tokens.count('hello'); print('bpe_openai' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"  # it reads every vocabulary it ships at import (about a second)
