"""relaykit.redact: every kind of credential is masked wherever it sits; ordinary text is left alone."""

from __future__ import annotations

import pytest

from relaykit.redact import MASK, fingerprint_secrets, is_secret_key, scrub, scrub_value, strip_url_credentials

JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFsaWNlIn0"
       ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")

# (text, the secret that must not survive)
SECRETS = [
    ("use sk-abcdefghijklmnop for now", "sk-abcdefghijklmnop"),
    ("OPENAI_API_KEY=sk-proj-Ab3dEf6hIj9kLmNoPqRsTuVwXyZ_01-23", "sk-proj-Ab3dEf6hIj9kLmNoPqRsTuVwXyZ_01-23"),
    ("anthropic key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz"),
    ("aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
    ("temporary creds ASIAY34FZKBOKMUTVV7A in the log", "ASIAY34FZKBOKMUTVV7A"),
    ("git clone with ghp_16C7e42F292c6912E7710c838347Ae178B4a please", "ghp_16C7e42F292c6912E7710c838347Ae178B4a"),
    ("token github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEF",
     "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEF"),
    (f"session cookie {JWT} expires soon", JWT),
    (f"Authorization: Bearer {JWT}", JWT),
    ("Authorization: Basic YWxpY2U6aHVudGVyMnBhc3M=", "YWxpY2U6aHVudGVyMnBhc3M="),
    ("curl -H 'Authorization: token 9f8e7d6c5b4a39281706'", "9f8e7d6c5b4a39281706"),
    ("connect to http://alice:hunter2pass@db.internal:5432/v1", "hunter2pass"),
    ("proxy https://bob:p%40ss%3Aword@proxy.example.com", "p%40ss%3Aword"),
    ("redis://:s3cr3tR3dis@127.0.0.1:6379/0", "s3cr3tR3dis"),
    ('{"user": "alice", "password": "correct horse"}', "horse"),
    ("password=hunter2&user=alice", "hunter2"),
    ("api_key: 'abcd1234efgh5678'", "abcd1234efgh5678"),
    ("client_secret=Zx9_yW8-vU7tS6", "Zx9_yW8-vU7tS6"),
    ("my password is Tr0ub4dor&3 don't tell", "Tr0ub4dor&3"),
    ("xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "xoxb-123456789012"),
    ("key AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7", "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7"),
    ("hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567"),
    ("stripe sk_live_51HcXyZAbCdEfGh123456", "sk_live_51HcXyZAbCdEfGh123456"),
    ("glpat-AbCdEfGhIjKlMnOpQrSt12", "glpat-AbCdEfGhIjKlMnOpQrSt12"),
    ("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA75\n-----END RSA PRIVATE KEY-----", "MIIEpAIBAAKCAQEA75"),
]

HARMLESS = [
    "max_tokens=512 and prompt_tokens: 40, completion_tokens=12",
    "the task-force will ask-questions about the desk-lamp",
    "write to alice@example.com or see https://example.com/users/@alice",
    "commit 3f2a9c1e8b7d6f5a4c3b2a1908f7e6d5c4b3a291 fixed it",
    "Basic information about the token economy; Bearer of bad news",
    "the hotel H07 costs $180 per night, id 550e8400-e29b-41d4-a716-446655440000",
    "https://api.openai.com/v1/chat/completions?model=gpt-4o",
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_secrets_are_masked_in_text(text: str, secret: str) -> None:
    out = scrub(text)
    assert secret not in out and MASK in out, out


@pytest.mark.parametrize("text", HARMLESS)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert scrub(text) == text


def test_secrets_are_masked_at_any_depth() -> None:
    value = {
        "notes": ["plain", "key sk-abcdefghijklmnop", ("AKIAIOSFODNN7EXAMPLE", {"deep": [f"jwt {JWT}"]})],
        "headers": {"Authorization": "whatever-it-is", "X-Api-Key": "abc", "count": 3},
        "tags": {"ghp_16C7e42F292c6912E7710c838347Ae178B4a"},
    }
    out = scrub_value(value)
    text = repr(out)
    for secret in ("sk-abcdefghijklmnop", "AKIAIOSFODNN7EXAMPLE", JWT, "whatever-it-is", "ghp_16C7e42F"):
        assert secret not in text
    assert out["notes"][0] == "plain" and out["headers"]["count"] == 3
    assert isinstance(out["notes"][2], tuple) and value["notes"][1] == "key sk-abcdefghijklmnop"  # a copy


def test_url_credentials_are_stripped_from_names() -> None:
    assert strip_url_credentials("m@http://alice:hunter2pass@host:8080/v1") == "m@http://host:8080/v1"
    assert strip_url_credentials("https://token@github.com/x") == "https://github.com/x"
    assert strip_url_credentials("http://host/v1") == "http://host/v1"


def test_secret_key_names() -> None:
    for name in ("api_key", "OPENAI_API_KEY", "password", "Authorization", "access_token", "client_secret",
                 "private_key", "token"):
        assert is_secret_key(name), name
    for name in ("prompt_tokens", "max_tokens", "model", "cache_key_hash", "tokens_in", "input_tokens_est"):
        assert not is_secret_key(name), name


@pytest.mark.parametrize("unit", ["a.", "a-", "eyJa-", "eyJabcd.", "a://", "@", "password: ", "authorization: ",
                                  "sk-", "glpat-", "Bearer ", 'password="'])
def test_hostile_text_is_scrubbed_in_linear_time(unit: str) -> None:
    import time

    text = unit * (100_000 // len(unit))
    started = time.perf_counter()
    scrub(text)
    assert time.perf_counter() - started < 3.0, "a pattern rescans the text: bound its repeats"


# -- the needle pre-check: a pattern is skipped only for a text it cannot match --------------------------

# every pattern's secrets in other cases and spellings (the patterns that ignore case must be skipped by case)
VARIANTS = [
    "PASSWORD=hunter2", "Passphrase: 'open sesame'", "SECRET=abc123", "Api-Key: abcdef12", "APIKEY=abcdef12",
    "ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE", "Secret_Key: x9y8z7", "CLIENT-SECRET=Zx9_yW8", "Refresh_Token=r1r2r3r4",
    "SESSION_TOKEN: s1s2s3s4", "id-token=i1i2i3i4", "Private_Key=k1k2k3k4", "TOKEN: t1t2t3t4", "AUTH_TOKEN=a1a2a3a4",
    "AUTHORIZATION: Digest abcdefgh", "authorization='xyz123'", "bearer abcdefghijkl", "my PASSWD was s3cr3t",
    "rk_test_AbCdEfGhIjKl", "gho_AbCdEfGhIjKlMnOpQrStUv", "ghu_AbCdEfGhIjKlMnOpQrStUv", "ghs_AbCdEfGhIjKlMnOpQrStUv",
    "ghr_AbCdEfGhIjKlMnOpQrStUv", "xoxp-1234567890-abc", "AGPAIOSFODNN7EXAMPLE AIDAIOSFODNN7EXAMPLE",
    "AROAIOSFODNN7EXAMPLE AIPAIOSFODNN7EXAMPLE ANPAIOSFODNN7EXAMPLE ANVAIOSFODNN7EXAMPLE",
    "ABIAIOSFODNN7EXAMPLE ACCAIOSFODNN7EXAMPLE", "FTP://user:pw@files.example.com/x", "Sk-abcdefghijkl",
    "-----BEGIN PRIVATE KEY-----\nabc",
]
CORPUS = [text for text, _ in SECRETS] + HARMLESS + VARIANTS


def every_pattern(text: str) -> str:
    """``scrub`` without the pre-check: every pattern, in order."""
    from relaykit.redact import _PATTERNS

    for pattern, replacement, _ in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def test_every_match_holds_one_of_its_patterns_needles() -> None:
    from relaykit.redact import _PATTERNS

    matched = set()
    for index, (pattern, _, needles) in enumerate(_PATTERNS):
        for text in CORPUS + [text.upper() for text in CORPUS] + [text.lower() for text in CORPUS]:
            for match in pattern.finditer(text):
                matched.add(index)
                assert any(needle in match.group(0).lower() for needle in needles), (pattern.pattern, match)
        assert all(needle == needle.lower() for needle in needles)
    assert matched == set(range(len(_PATTERNS))), "a pattern no corpus text exercises"


@pytest.mark.parametrize("text", CORPUS + [f"before {text} after {text.upper()}" for text in CORPUS])
def test_the_pre_check_changes_no_result(text: str) -> None:
    assert scrub(text) == every_pattern(text)


def test_plain_text_skips_every_pattern_and_other_text_runs_all() -> None:
    from relaykit.redact import _PATTERNS, _applicable

    assert _applicable("what is the status of the invoice for the refund team") == ()
    assert [p for p, _ in _applicable("the API docs")] == [_PATTERNS[-2][0]]
    assert len(_applicable("café")) == len(_PATTERNS), "non-ASCII text: no skipping"


@pytest.mark.parametrize("text", ["pa\u017fsword=hunter2pass", "api_\u212aey=hunter2pass", "PA\u017fSWORD is hunter2pass"])
def test_letters_that_fold_to_ascii_under_ignorecase_are_still_masked(text: str) -> None:
    # U+017F (long s) and U+212A (Kelvin sign) match "s" and "k" when case is ignored, but lower() keeps them
    assert "hunter2pass" not in scrub(text)
    assert "hunter2pass" not in fingerprint_secrets(text)


def test_fingerprints_are_unchanged_by_the_pre_check() -> None:
    import functools
    import hashlib

    from relaykit.redact import _PATTERNS, _masked

    def reference(text: str) -> str:
        found: list[str] = []
        text = strip_url_credentials(text)
        for pattern, replacement, _ in _PATTERNS:
            text = pattern.sub(functools.partial(_masked, replacement=replacement, found=found), text)
        if not found:
            return text
        return text.replace(MASK, f"[secret:{hashlib.blake2b(chr(0).join(found).encode(), digest_size=4).hexdigest()}]")

    for text in CORPUS + ["ok http://a:b@h/x and sk-abcdefghijklmnop", "ünï sk-abcdefghijklmnop"]:
        assert fingerprint_secrets(text) == reference(text), text
