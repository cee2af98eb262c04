"""``open_model(spec)``: model specs resolved through a registry that plugins extend."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from relaykit.errors import UsageError
from relaykit.models.base import Model
from relaykit.settings import env_value, load_settings

Factory = Callable[[str, dict[str, Any]], Model]


@dataclass(frozen=True)
class SpecForm:
    prefix: str
    example: str
    factory: Factory


_REGISTRY: dict[str, SpecForm] = {}


def register_model(prefix: str, example: str, factory: Factory) -> None:
    """Make ``open_model`` accept specs that start with ``prefix`` (``"local"``, ``"openai"``, ...)."""
    _REGISTRY[prefix] = SpecForm(prefix, example, factory)


def accepted_forms() -> list[str]:
    return [form.example for form in _REGISTRY.values()]


def open_model(spec: str | None = None, **options: Any) -> Model:
    """Open a model from a spec: ``local``, ``openai:MODEL``, ``openai-compat:BASE_URL#MODEL``, ``scripted``."""
    spec = (spec or load_settings().default_model).strip()
    prefix, _, rest = spec.partition(":")
    form = _REGISTRY.get(prefix)
    if form is None:
        raise UsageError(f"unknown model spec {spec!r}; accepted forms: {', '.join(accepted_forms())}")
    return form.factory(rest, options)


def _local(rest: str, options: dict[str, Any]) -> Model:
    from relaykit.models.local import LocalModel

    return LocalModel(rest or options.get("path"))


def _openai(rest: str, options: dict[str, Any]) -> Model:
    from relaykit.models.openai_compat import OpenAICompatModel

    if not rest:
        raise UsageError("openai: needs a model name, e.g. openai:gpt-4.1-nano")
    key_var = options.pop("api_key_env", "OPENAI_API_KEY")
    key = options.pop("api_key", None) or env_value(key_var)
    if not key:
        raise UsageError(f"no API key for {rest!r}: set the environment variable {key_var}")
    return OpenAICompatModel(rest, api_key=key, base_url=load_settings().openai_base_url, **options)


def _openai_compat(rest: str, options: dict[str, Any]) -> Model:
    from relaykit.models.openai_compat import OpenAICompatModel

    base_url, sep, model = rest.partition("#")
    if not sep or not base_url or not model:
        raise UsageError(
            f"openai-compat needs a base URL and a model name: openai-compat:BASE_URL#MODEL, not {rest!r}"
        )
    key_var = options.pop("api_key_env", "RELAYKIT_API_KEY")
    key = options.pop("api_key", None) or env_value(key_var) or env_value("OPENAI_API_KEY")
    return OpenAICompatModel(model, base_url=base_url, api_key=key, **options)


def _scripted(rest: str, options: dict[str, Any]) -> Model:
    from relaykit.testing import ScriptedModel

    return ScriptedModel(options.pop("answers", None), name=rest or "scripted", **options)


register_model("local", "local", _local)
register_model("openai", "openai:MODEL", _openai)
register_model("openai-compat", "openai-compat:BASE_URL#MODEL", _openai_compat)
register_model("scripted", "scripted", _scripted)
