"""Drop-in adapters for agent frameworks: OpenAI Agents SDK, LangChain v1 / LangGraph, AutoGen, LiteLLM.

Each adapter lives in its own module behind an optional extra (``pip install relaykit[langchain]`` ...) and is
imported only when used; importing ``relaykit.integrations`` itself needs no framework. Every adapter hands the
framework a history that is valid for the provider, fits the token budget, and still holds system + task.
"""

from relaykit.integrations.core import BudgetPolicy, compress_objects

__all__ = ["BudgetPolicy", "compress_objects"]
