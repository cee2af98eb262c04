"""Secret redaction for everything relaykit writes: traces, run stores, caches, error messages, model names.

One low-layer module (it imports nothing from relaykit) so that telemetry, the model backends, the caches
and the bench can all call the same functions:

- :func:`scrub` masks credential-looking substrings of a text (API keys of OpenAI, Anthropic, AWS,
  GitHub, GitLab, Slack, Google, Hugging Face, Stripe and a dozen more providers by their prefixes; webhook
  URLs; JWTs; bearer/basic headers; cookies; PEM private keys; the value after any name whose last part says
  it is a secret, ``DB_PASSWORD=...``, ``"apiKey": "..."``, ``--db-password ...``; the user:password part of
  URLs and of ``curl -u``).
- :func:`scrub_value` does the same inside any nesting of dicts, lists, tuples and sets, and masks the
  value of every secret-named key (``api_key``, ``password``, ``authorization``, ...).
- :func:`strip_url_credentials` removes the userinfo of every URL in a text, for names and specs that
  are shown or stored (``http://alice:pw@host/v1`` becomes ``http://host/v1``).
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Mapping
from typing import Any

MASK = "[redacted]"

SECRET_KEY = re.compile(
    r"(api[_-]?key|apikey|secret|passw(or)?d|passphrase|authorization|bearer|token_value|credential|cookie"
    r"|(access|refresh|auth|id|session|bot|bearer)[_-]?token|private[_-]?key|^token$|^auth$)",
    re.IGNORECASE,
)
"""Key names whose values are secrets whatever they look like."""

# bounded repeats keep every pattern linear in the length of the text (no quadratic rescans)
_URL_USERINFO = re.compile(r"(?P<scheme>\b[a-zA-Z][a-zA-Z0-9+.\-]{0,31}://)"
                           r"(?P<userinfo>[^\s/?#@]{0,1024}(?:@[^\s/?#@]{0,1024}){0,4})@")

# the last part of a name that says its value is a secret: password (DB_PASSWORD, dbPassword, PGPASSWORD,
# spring.datasource.password), token (X-Auth-Token, csrftoken), access key (secretAccessKey), client_secret ...;
# the short words (pwd, pass, auth) only as a whole part, so that bypass or compass are not read as one. Only the
# last part is matched (a separator must follow it), not the whole name: scanning each name for where such a part
# starts made the pattern ten times slower than the others.
_SECRET_WORD = (r"(?:passw(?:or)?d|passphrase|secret|token|api[_-]?key|apikey|credentials?"
                r"|(?:access|secret|private|account|master|encryption|signing|shared[_-]?access|session|client|auth)"
                r"[_-]?key|(?<![A-Za-z0-9])(?:pwd|pass|auth))")
# what follows such a name but is no secret: a type (``password: str``), a literal, a nested value
_NOT_A_VALUE = (r"(?!\[redacted\]|(?:str|int|float|bool|bytes|None|null|true|false|undefined|Optional|SecretStr|string"
                r"|number)\b)")

def _mask_value(match: re.Match[str]) -> str:
    value = match.group(3)
    quote = value[0] if value[0] in "\"'" else ""
    return f"{match.group(1)}{match.group(2)}{quote}{MASK}{quote}"


_PATTERNS: tuple[tuple[re.Pattern[str], Any], ...] = (
    # PEM private key blocks
    (re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)", re.DOTALL),
     MASK),
    # user:password@ (or token@) inside URLs
    (_URL_USERINFO, r"\g<scheme>" + MASK + "@"),
    # OpenAI / Anthropic / DeepSeek style keys, including sk-proj-, sk-ant-, sk-svcacct-
    (re.compile(r"\bsk-[A-Za-z0-9_\-]{8,}"), MASK),
    # Stripe secret and restricted keys
    (re.compile(r"\b[sr]k_(?:live|test)_[A-Za-z0-9]{10,}"), MASK),
    # AWS access key ids (long-term and temporary)
    (re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b"), MASK),
    # GitHub classic and fine-grained tokens
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"), MASK),
    (re.compile(r"\bgithub_pat_[A-Za-z0-9_]{20,}"), MASK),
    # GitLab, Slack, Google API keys, Hugging Face tokens
    (re.compile(r"\bglpat-[A-Za-z0-9_\-]{20,}"), MASK),
    (re.compile(r"\bxox[abposr]-[A-Za-z0-9\-]{10,}"), MASK),
    (re.compile(r"\bAIza[0-9A-Za-z_\-]{35}"), MASK),
    (re.compile(r"\bhf_[A-Za-z0-9]{30,}"), MASK),
    # other providers' tokens by their prefixes: npm, PyPI, SendGrid, Docker Hub, DigitalOcean, Shopify, Sentry,
    # Stripe webhooks, Google OAuth access tokens, Groq, xAI, Replicate, Linear, HashiCorp Vault, PlanetScale, Twilio
    (re.compile(r"\b(?:npm_[A-Za-z0-9]{36}|pypi-AgE[A-Za-z0-9_\-]{30,}|SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}"
                r"|dckr_pat_[A-Za-z0-9_\-]{16,}|do[pors]_v1_[a-f0-9]{32,}|shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"
                r"|sntr[ysu]_[A-Za-z0-9_=]{16,}|whsec_[A-Za-z0-9+/=]{16,}|ya29\.[A-Za-z0-9_\-]{16,}"
                r"|gsk_[A-Za-z0-9]{20,}|xai-[A-Za-z0-9]{20,}|r8_[A-Za-z0-9]{20,}|lin_api_[A-Za-z0-9]{20,}"
                r"|hvs\.[A-Za-z0-9_\-]{20,}|pscale_(?:pw|tkn)_[A-Za-z0-9_\-]{20,}|SK[0-9a-fA-F]{32}\b)"), MASK),
    # Telegram bot tokens; Slack and Discord webhook URLs (the path is the credential)
    (re.compile(r"(?<![0-9])\d{8,10}:AA[A-Za-z0-9_\-]{30,34}\b"), MASK),  # also inside .../bot<token>/...
    (re.compile(r"(hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9_/\-]{10,}"), r"\1" + MASK),
    (re.compile(r"(discord(?:app)?\.com/api/webhooks/\d{5,25}/)[A-Za-z0-9_\-]{10,}"), r"\1" + MASK),
    # JSON Web Tokens (header.payload.signature, base64url, header and payload start with '{"')
    (re.compile(r"\beyJ[A-Za-z0-9_\-]{4,2048}\.eyJ[A-Za-z0-9_\-]{4,16384}\.[A-Za-z0-9_\-]{0,2048}"), MASK),
    # Authorization header values: any scheme after "Authorization:", a bearer token anywhere
    (re.compile(r"(?i)\b(authorization[\"']?\s*[:=]\s*[\"']?)(?:(bearer|basic|token|digest)\s+)?"
                r"(?!\[redacted\]|(?:bearer|basic|token|digest)\s+\[redacted\])"
                r"[^\s\"',;]+"), lambda m: m.group(1) + (m.group(2) + " " if m.group(2) else "") + MASK),
    (re.compile(r"\b([Bb]earer)(\s+)(?!\[redacted\])[A-Za-z0-9._~+/\-]{8,}=*"), r"\1\2" + MASK),
    # password=..., "api_key": "...", token: ..., DB_PASSWORD=..., X-Auth-Token: ...
    (re.compile(r"(?i)(" + _SECRET_WORD + r")([\"']?[ \t]*[:=][ \t]*)" + _NOT_A_VALUE +
                r"(\"[^\"]+\"|'[^']+'|(?![\"'\s\[{(<])[^\s\"'&,;}\])]+)"), _mask_value),
    # a name / value pair whose name is a secret's: Kubernetes env (``- name: API_TOKEN`` then ``value: ...``), JSON
    # parameter lists (``{"Name": "DB_PASSWORD", "Value": "..."}``): the value, on the same line or the next
    (re.compile(r"(?i)((?<![A-Za-z0-9_])[\"']?(?:name|key)[\"']?[ \t]*[:=][ \t]*[\"']?[A-Za-z0-9_.\-]{0,64}?"
                + _SECRET_WORD + r"[\"']?[ \t]*,?[ \t]*\r?\n?[ \t]*(?:-[ \t]*)?)([\"']?value[\"']?[ \t]*[:=][ \t]*)"
                + _NOT_A_VALUE + r"(\"[^\"]+\"|'[^']+'|(?![\"'\s\[{(<])[^\s\"'&,;}\])]+)"), _mask_value),
    # command-line flags: --db-password VALUE, --api-key VALUE (the value the next word)
    (re.compile(r"(?i)(?<!\S)(--[A-Za-z0-9_.\-]{0,64}?" + _SECRET_WORD + r")(\s+)" + _NOT_A_VALUE +
                r"(\"[^\"]+\"|'[^']+'|(?![\"'\-\[{(<])[^\s\"']+)"), _mask_value),
    # cookies: every value after the header's name
    (re.compile(r"(?i)\b((?:set-)?cookie)([\"']?[ \t]*:[ \t]*[\"']?)(?![ \t]|\[redacted\])[^\r\n\"']+"),
     r"\1\2" + MASK),
    # user:password given to a command (curl -u, --user)
    (re.compile(r"(?<!\S)(-u|--user)(\s+|=)([^\s:/@\"']{1,256}):(?!\[redacted\])[^\s@\"']+"), r"\1\2\3:" + MASK),
    # "my password is hunter2"
    (re.compile(r"(?i)\b(password|passphrase|passwd)(\s+(?:is|was|=)\s+)" + _NOT_A_VALUE + r"[\"']?[^\s\"',;]+"),
     r"\1\2" + MASK),
)


# Literals every match of the pattern at the same place in ``_PATTERNS`` contains, one of them at least (each
# appears in that pattern's source; a test holds both to it): an ASCII text holding none of them, for any pattern,
# cannot hold a secret, and is returned as it is without the scans (the literals of a case-insensitive pattern
# are looked for ignoring case); a text that holds some is scanned by the patterns whose literals it holds only.
# Editing a pattern means editing its literals.
_TRIGGERS: tuple[tuple[str, ...], ...] = (
    ("-----BEGIN ",), ("://",), ("sk-",), ("k_",),
    ("AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "ABIA", "ACCA"),
    ("gh",), ("github_pat_",), ("glpat-",), ("xox",), ("AIza",), ("hf_",),
    ("npm_", "pypi-", "SG.", "dckr_pat_", "_v1_", "shp", "sntr", "whsec_", "ya29.", "gsk_", "xai-", "r8_", "lin_api_",
     "hvs.", "pscale_", "SK"),
    (":AA",), ("hooks.slack.com/",), ("/api/webhooks/",), ("eyJ",),
    ("authorization",), ("earer",), ("pass", "pwd", "secret", "token", "key", "auth", "credential"), ("value",),
    ("--",),
    ("cookie",), ("-u",), ("pass",),
)
assert len(_TRIGGERS) == len(_PATTERNS)
_FOLDS = [(bool(pattern.flags & re.IGNORECASE), literals) for (pattern, _), literals in zip(_PATTERNS, _TRIGGERS)]
# one alternation of plain literals is one fast scan (a scoped (?i:...) in it made it twice as slow), and one of the
# case-insensitive patterns' literals, looked for in the lowercased text
_EXACT_TRIGGER = re.compile("|".join(re.escape(t) for folded, ts in _FOLDS if not folded for t in ts))
_FOLDED_TRIGGER = re.compile("|".join(re.escape(t.lower()) for folded, ts in _FOLDS if folded for t in ts))


def may_hold_secret(text: str) -> bool:
    """False only when no pattern of ``scrub`` can match ``text`` (an ASCII text without any of their literals):
    two scans that let ordinary text skip the patterns' scans; True means "scan it", not "it holds a secret"."""
    if not text.isascii():  # case folding beyond ASCII (the Kelvin sign matches k): always scanned
        return True
    return _EXACT_TRIGGER.search(text) is not None or _FOLDED_TRIGGER.search(text.lower()) is not None


def _applying(text: str) -> list[tuple[re.Pattern[str], Any]]:
    """The patterns that may match ``text``: those one of whose literals it holds (every pattern for a text that is
    not ASCII). Checked once, on the text before any is applied: a replacement inserts a mask, which holds no
    literal, between what it leaves, so it never makes a later pattern match where the text did not."""
    if not text.isascii():
        return list(_PATTERNS)
    lowered = text.lower()
    return [entry for entry, (folded, literals) in zip(_PATTERNS, _FOLDS)
            if any((literal.lower() in lowered) if folded else (literal in text) for literal in literals)]


def scrub(text: str) -> str:
    """``text`` with every credential-looking substring replaced by ``[redacted]``."""
    if not text or not may_hold_secret(text):
        return text
    for pattern, replacement in _applying(text):
        text = pattern.sub(replacement, text)
    return text


def fingerprint_secrets(text: str) -> str:
    """``text`` with URL credentials dropped and every secret replaced by ``[secret:XXXXXXXX]``: 8 hex of a
    BLAKE2b digest of all the secrets matched, so two texts that differ only in a secret still differ while
    no secret is kept (what the caches store and embed)."""
    if not text or not may_hold_secret(text):
        return text
    found: list[str] = []
    text = strip_url_credentials(text)
    for pattern, replacement in _applying(text):
        text = pattern.sub(functools.partial(_masked, replacement=replacement, found=found), text)
    if not found:
        return text
    digest = hashlib.blake2b("\x00".join(found).encode(), digest_size=4).hexdigest()
    return text.replace(MASK, f"[secret:{digest}]")


def _masked(match: re.Match[str], *, replacement: Any, found: list[str]) -> str:
    found.append(match.group(0))
    return str(replacement(match) if callable(replacement) else match.expand(replacement))


def is_secret_key(name: str) -> bool:
    """Whether a field named ``name`` holds a secret (``api_key``, ``password``, ``authorization``, ...)."""
    return bool(SECRET_KEY.search(name))


def scrub_value(value: Any) -> Any:
    """A copy of ``value`` with secrets masked at any depth: strings and bytes are scrubbed, secret-named keys have
    their values masked, and a key that holds a secret itself is replaced by its fingerprint (see
    ``fingerprint_secrets``: two such keys stay two keys)."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, (bytes, bytearray)):
        text = bytes(value).decode("latin-1")  # one character per byte, so the masked text encodes back
        masked = scrub(text)
        return value if masked == text else type(value)(masked.encode("latin-1"))
    if isinstance(value, Mapping):
        out: dict[Any, Any] = {}
        for key, item in value.items():
            name = key.decode("latin-1") if isinstance(key, (bytes, bytearray)) else key
            secret = isinstance(name, str) and is_secret_key(name) and bool(item)
            out[_scrub_key(key)] = MASK if secret else scrub_value(item)
        return out
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [scrub_value(item) for item in value]
        if isinstance(value, (set, frozenset)):
            return set(items) if isinstance(value, set) else frozenset(items)
        return items if isinstance(value, list) else tuple(items)
    return value


def _scrub_key(key: Any) -> Any:
    if isinstance(key, str):
        return fingerprint_secrets(key)
    if isinstance(key, (bytes, bytearray)):
        text = bytes(key).decode("latin-1")
        masked = fingerprint_secrets(text)
        return key if masked == text else bytes(masked.encode("latin-1"))
    return key


def strip_url_credentials(text: str) -> str:
    """``text`` with the userinfo (``user:password@``) of every URL removed, not masked."""
    return _URL_USERINFO.sub(r"\g<scheme>", text)


__all__ = ["MASK", "SECRET_KEY", "fingerprint_secrets", "is_secret_key", "may_hold_secret", "scrub", "scrub_value",
           "strip_url_credentials"]
