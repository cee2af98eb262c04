"""relaykit.redact: every kind of credential is masked wherever it sits; ordinary text is left alone."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from redaction_corpus import DEV, HELD_OUT, Case, ordinary, positives
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
    ("POST https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage",
     "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"),
    ("twilio key SK0123456789abcdef0123456789abcdef", "SK0123456789abcdef0123456789abcdef"),
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
                                  "sk-", "glpat-", "Bearer ", 'password="', "a_", "DB_PASSWORD=", "x.y-z_",
                                  "--db-password ", "--a", "Cookie: ", "-u a:", "npm_", "SG.a", "hooks.slack.com/",
                                  "/api/webhooks/123456/", "12345678:AA", "passpass", "_pass_", "name: token\n",
                                  '{"name": "api_key", '])
def test_hostile_text_is_scrubbed_in_linear_time(unit: str) -> None:
    import time

    text = unit * (100_000 // len(unit))
    started = time.perf_counter()
    scrub(text)
    assert time.perf_counter() - started < 3.0, "a pattern rescans the text: bound its repeats"


# texts near every trigger: each literal alone, in a word, next to a secret-like tail, in other cases
NEAR_TRIGGERS = [
    "ghost town", "the hf_ prefix", "sk-short", "task-force", "Pass the salt", "PASSWORD IS hunter2",
    "AUTHORIZATION: Token abcdef123", "bEaReR abcdefghij", "the Bearer abcdefghij", "eyJ alone", "xox only",
    "AKIA1234", "AIza short", "k_live_", "ratio: 3", "a=b", "mailto:bob@host", "ftp://u@h", "-----BEGIN CERT",
    "my Passphrase was opensesame", "token=abc123", "Passwd = hunter2",
    "npm_ short", "SG.x", "the xai- prefix", "hooks.slack.com/x", "see /api/webhooks/", "12:AA", "--token", "-u",
    "cookie jar", "PGPASSWORD=x", "a --pass b", "sort_key=name", "password: str",
]


def test_every_pattern_names_literals_of_its_own_source() -> None:
    """The pre-check may skip the scans only when a text lacks every pattern's literals: each literal must be in
    its pattern (an edited pattern whose literals no longer are in it fails here)."""
    from relaykit import redact

    assert len(redact._TRIGGERS) == len(redact._PATTERNS)
    for (pattern, _), literals in zip(redact._PATTERNS, redact._TRIGGERS):
        source = pattern.pattern.replace("\\", "")
        folded = bool(pattern.flags & redact.re.IGNORECASE)
        assert literals, pattern.pattern
        for literal in literals:
            assert (literal.lower() in source.lower()) if folded else (literal in source), (literal, pattern.pattern)


@pytest.mark.parametrize("text", [t for t, _ in SECRETS] + HARMLESS + NEAR_TRIGGERS)
def test_the_pre_check_changes_no_output(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from relaykit import redact

    gated = (scrub(text), redact.fingerprint_secrets(text), redact.may_hold_secret(text))
    monkeypatch.setattr(redact, "may_hold_secret", lambda text: True)
    assert gated[:2] == (scrub(text), redact.fingerprint_secrets(text))
    if gated[0] != text:
        assert gated[2], "a text the patterns change must pass the pre-check"


@pytest.mark.parametrize("text", [case.text for case in DEV + HELD_OUT] + NEAR_TRIGGERS + HARMLESS)
def test_scanning_only_the_patterns_whose_literals_a_text_holds_changes_no_output(
        text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from relaykit import redact

    gated = (scrub(text), redact.fingerprint_secrets(text))
    monkeypatch.setattr(redact, "_applying", lambda text: list(redact._PATTERNS))
    assert gated == (scrub(text), redact.fingerprint_secrets(text))


def test_plain_text_skips_the_scans(monkeypatch: pytest.MonkeyPatch) -> None:
    from relaykit import redact

    scans: list[str] = []

    class Counted:
        def __init__(self, pattern: redact.re.Pattern[str]) -> None:
            self.pattern = pattern

        def sub(self, *args: object) -> str:
            scans.append(self.pattern.pattern)
            return self.pattern.sub(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(redact, "_PATTERNS", tuple((Counted(p), r) for p, r in redact._PATTERNS))
    text = "what is the status of the refund for the lamp team in region r7"
    assert redact.fingerprint_secrets(text) == text and scrub(text) == text
    assert scans == []
    assert MASK in scrub("use sk-abcdefghijklmnop now") and scans


def test_non_ascii_text_is_always_scanned() -> None:
    """Case-insensitive patterns fold beyond ASCII (a long s matches s): such texts never skip the scans."""
    text = "my paſſword is hunter2x"
    assert "hunter2x" not in scrub(text)


def _survives(case: Case) -> list[str]:
    outs = (scrub(case.text), fingerprint_secrets(case.text))
    return [secret for secret in case.secrets if any(secret in out for out in outs)]


@pytest.mark.parametrize("case", positives(DEV), ids=lambda case: f"{case.family}:{case.text[:40]}")
def test_every_development_secret_is_masked(case: Case) -> None:
    assert not _survives(case), scrub(case.text)


@pytest.mark.parametrize("case", ordinary(DEV) + ordinary(HELD_OUT), ids=lambda case: f"{case.family}:{case.text[:40]}")
def test_ordinary_texts_of_every_format_are_left_alone(case: Case) -> None:
    assert scrub(case.text) == case.text and fingerprint_secrets(case.text) == case.text


def test_held_out_formats_keep_what_they_scored() -> None:
    """The held-out families were written before the patterns were tuned and scored once (30 of 32, see
    docs/cost-patterns.md): a change that loses one of them fails here. Of the two misses then, the Kubernetes
    ``name:`` / ``value:`` pair is masked since (a general name / value rule, written after that look); the other
    is a passphrase named in prose without "is"."""
    missed = [case.text for case in positives(HELD_OUT) if _survives(case)]
    assert len(missed) <= 1, missed


def test_secret_keys_and_bytes_are_masked_too() -> None:
    value = {"sk-proj-abcdefghijklmnopqrstuvwx": 1, "sk-proj-zyxwvutsrqponmlkjihgfedc": 2,
             b"password": b"hunter2", "raw": b"curl -u alice:hunter2pass https://x", "kept": b"plain bytes"}
    out = scrub_value(value)
    text = repr(out)
    for secret in ("abcdefghijklmnopqrstuvwx", "zyxwvutsrqponmlkjihgfedc", "hunter2"):
        assert secret not in text, text
    assert len(out) == len(value)  # two secret keys stay two keys (their fingerprints differ)
    assert out["kept"] == b"plain bytes" and isinstance(out["raw"], bytes)


ATOMS = ["password", "PASS", "token", "api_key", "Cookie", "--db-password", "-u", ":", "=", " ", '"', "'", "\n", "\t",
         "sk-", "abc123XYZ", "a_b", ".", "-", "secret", "AccessKey", MASK, "é", "npm_", "hooks.slack.com/services/",
         "12345678:AA", "{", "}", "[", "]", "None", "str", "x" * 40, "Bearer ", "Authorization: "]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(ATOMS), min_size=1, max_size=30))
def test_scrubbing_twice_changes_nothing_more(atoms: list[str]) -> None:
    """What relaykit writes may be scrubbed again (a stored message in a later trace): a second pass leaves a
    scrubbed text as it is, and neither pass raises."""
    once = scrub("".join(atoms))
    assert scrub(once) == once
    fingerprint_secrets("".join(atoms))
