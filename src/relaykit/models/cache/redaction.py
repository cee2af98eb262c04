"""What the cache must not write verbatim: API keys and tokens in a user message, credentials in a URL.

A secret becomes ``[secret:XXXXXXXX]`` (8 hex of its BLAKE2b digest), so two requests that differ only
in their secret still differ for the semantic guards, while the secret itself is never stored.
(Minimal cache-local version; to be folded into a project-wide redaction module.)
"""

from __future__ import annotations

import hashlib
import re

URL_CREDENTIALS = re.compile(r"(?P<scheme>\b[a-zA-Z][a-zA-Z0-9+.\-]*://)(?P<userinfo>[^/\s@:]*:[^/\s@]*|[^/\s@:]+)@")
SECRET = re.compile(
    r"\b(?:sk-[A-Za-z0-9_\-]{16,}"  # OpenAI (sk-..., sk-proj-...), Anthropic (sk-ant-...)
    r"|(?:AKIA|ASIA)[0-9A-Z]{16}"  # AWS access key ids
    r"|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}"  # GitHub tokens
    r"|xox[abposr]-[A-Za-z0-9\-]{10,}"  # Slack tokens
    r"|AIza[0-9A-Za-z_\-]{30,}"  # Google API keys
    r"|eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,})"  # JWTs
    r"|(?<=Bearer )[A-Za-z0-9._~+/\-]{16,}=*"
    r"|(?i:(?<=password[=:] )|(?<=password[=:])|(?<=passwd[=:])|(?<=api_key[=:])|(?<=token[=:]))[^\s,;]{4,}"
)


def _placeholder(match: re.Match[str]) -> str:
    return f"[secret:{hashlib.blake2b(match.group(0).encode(), digest_size=4).hexdigest()}]"


def strip_url_credentials(text: str) -> str:
    """``https://alice:pw@host/x`` -> ``https://host/x`` (user name and password dropped)."""
    return URL_CREDENTIALS.sub(lambda m: m.group("scheme"), text)


def redact_secrets(text: str) -> str:
    """``text`` with URL credentials dropped and keys/tokens replaced by ``[secret:XXXXXXXX]``."""
    return SECRET.sub(_placeholder, strip_url_credentials(text))
