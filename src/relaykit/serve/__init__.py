"""``relaykit serve``: an OpenAI-compatible gateway that checks, compresses, caches and falls back.

Any client that speaks the OpenAI chat-completions API gets relaykit's guarantees by changing its base URL:
histories checked and kept valid and under budget, exact caching per tenant, fallback across upstreams under
one deadline, and response headers that say what happened.
"""

from relaykit.serve.config import GatewayConfig, load_config

__all__ = ["GatewayConfig", "load_config"]
