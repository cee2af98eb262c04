"""BFCL (bfcl-eval): its data files, its runnable multi-turn tool backends, and its call syntax."""

from __future__ import annotations

import ast
import copy
import importlib
import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from typing import Any

from relaykit.errors import UsageError

INSTALL = "pip install --no-deps bfcl-eval && pip install mpmath (or see relaykit's `make install`)"


def _package() -> Any:
    try:
        return importlib.import_module("bfcl_eval")
    except ImportError as exc:
        raise UsageError(f"BFCL needs the bfcl-eval package ({exc}); install it: {INSTALL}") from None


def data_file(name: str, *, missing_ok: bool = False) -> list[dict[str, Any]]:
    """The JSON-lines file ``bfcl_eval/data/NAME`` (``[]`` for a missing file when ``missing_ok``)."""
    _package()
    ref = resources.files("bfcl_eval").joinpath("data", *name.split("/"))
    if missing_ok and not ref.is_file():
        return []
    return [json.loads(line) for line in ref.read_text(encoding="utf-8").splitlines() if line.strip()]


def backend_methods(entry: Mapping[str, Any]) -> dict[str, Callable[..., Any]]:
    """Live instances of an entry's tool classes, loaded with its initial state: public method name -> method."""
    _package()
    from bfcl_eval.constants.executable_backend_config import CLASS_FILE_PATH_MAPPING, STATELESS_CLASSES

    methods: dict[str, Callable[..., Any]] = {}
    for cls_name in entry["involved_classes"]:
        instance = getattr(importlib.import_module(CLASS_FILE_PATH_MAPPING[cls_name]), cls_name)()
        if cls_name not in STATELESS_CLASSES:
            instance._load_scenario(copy.deepcopy(entry["initial_config"].get(cls_name, {})), long_context=False)
        methods.update({n: m for n, m in inspect.getmembers(instance, inspect.ismethod) if not n.startswith("_")})
    return methods


def turn_text(turn: Sequence[Mapping[str, Any]]) -> str:
    """The user's words of one BFCL turn."""
    return "\n".join(str(m.get("content", "")) for m in turn if m.get("role") == "user")


def call_string(name: str, args: Mapping[str, Any]) -> str:
    """A call as BFCL's checker (and its gold answers) write it: ``name(a='x', b=2)``."""
    return f"{name}({', '.join(f'{k}={v!r}' for k, v in args.items())})"


def parse_call(text: str) -> tuple[str, list[Any], dict[str, Any]]:
    """``name(arg, key=value)`` -> (name, positional args, keyword args), literals only."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            raise ValueError("not a plain call")
        args = [ast.literal_eval(a) for a in node.args]
        kwargs = {kw.arg: ast.literal_eval(kw.value) for kw in node.keywords if kw.arg}
    except (SyntaxError, ValueError) as exc:
        raise UsageError(f"cannot read the call {text!r}: {exc}") from None
    return node.func.id, args, kwargs


__all__ = ["INSTALL", "backend_methods", "call_string", "data_file", "parse_call", "turn_text"]
