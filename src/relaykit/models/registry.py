"""``open_model(spec)``: model specs resolved through ``MODELS``, a ``Registry`` that plugins extend.

A plugin package adds a backend through the entry-point group ``relaykit.models``: the entry point names a
``SpecForm`` or a factory ``factory(rest_of_spec, options) -> Model`` and is registered under its own name,
so ``open_model("NAME:REST")`` finds it with no code change.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from relaykit.errors import UsageError
from relaykit.models.base import Model
from relaykit.redact import strip_url_credentials
from relaykit.registry import Registry
from relaykit.settings import env_value, load_settings

Factory = Callable[[str, dict[str, Any]], Model]


@dataclass(frozen=True)
class SpecForm:
    """How one spec prefix opens a model: an example spec for help texts and the factory."""

    example: str
    factory: Factory


def _spec_form(item: object) -> SpecForm:
    if isinstance(item, SpecForm):
        return item
    if callable(item):
        return SpecForm("", item)
    raise UsageError(f"a model backend must be a SpecForm or a factory(rest, options) -> Model, not {item!r}")


MODELS: Registry[SpecForm] = Registry("model backend", "relaykit.models", check=_spec_form,
                                      describe=lambda name, form: form.example or name)
"""Model spec prefixes (``local``, ``openai``, ``openai-compat``, ``scripted`` and plugins)."""


def register_model(prefix: str, example: str, factory: Factory) -> None:
    """Make ``open_model`` accept specs that start with ``prefix`` (``"local"``, ``"openai"``, ...)."""
    MODELS.register(prefix, SpecForm(example, factory))


def accepted_forms() -> list[str]:
    return [MODELS.get(name).example or name for name in MODELS.names()]


def open_model(spec: str | Model | None = None, **options: Any) -> Model:
    """A model from a spec (``local``, ``openai:MODEL``, ``openai-compat:BASE_URL#MODEL``, ``scripted``, or a
    plugin's prefix), or ``spec`` itself when it already is a ``Model``."""
    if isinstance(spec, Model):
        return spec
    spec = (spec or load_settings().default_model).strip()
    prefix, _, rest = spec.partition(":")
    return MODELS.get(prefix).factory(rest, options)


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
        raise UsageError(f"no API key for {strip_url_credentials(rest)!r}: set the environment variable {key_var}")
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
    from relaykit.models.scripted import ScriptedModel

    return ScriptedModel(options.pop("answers", None), name=rest or "scripted", **options)


register_model("local", "local", _local)
register_model("openai", "openai:MODEL", _openai)
register_model("openai-compat", "openai-compat:BASE_URL#MODEL", _openai_compat)
register_model("scripted", "scripted", _scripted)
