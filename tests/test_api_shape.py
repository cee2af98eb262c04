"""One API shape: plugins found through entry points, one name per meaning across subpackages, names or
implementations accepted by the public entry points."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest
import tomllib

import relaykit
from relaykit.embeddings import EMBEDDERS, open_embedder
from relaykit.errors import UsageError
from relaykit.models import MODELS, open_model
from relaykit.models.cache import CACHE_STORES, MemoryStore, open_store
from relaykit.registry import Registry
from relaykit.telemetry import SINKS, MemorySink, open_sink

PLUGIN = Path(__file__).parent / "plugins" / "relaykit_testplugin"

# The public subpackages a user imports from. Two of them exporting one name for two different objects is
# the kind of clash issue 11 removed (validate_messages, Step, render, Usage...).
PUBLIC = ("relaykit", "relaykit.accounting", "relaykit.registry", "relaykit.text", "relaykit.tokens",
          "relaykit.errors", "relaykit.embeddings", "relaykit.telemetry", "relaykit.models", "relaykit.models.cache",
          "relaykit.handoff", "relaykit.trajectory", "relaykit.delegation", "relaykit.context", "relaykit.testing")


def _install_plugin(root: Path) -> None:
    """Write the plugin's entry points into a ``*.dist-info`` next to its code, as pip would."""
    project = tomllib.loads((PLUGIN / "pyproject.toml").read_text())["project"]
    info = root / f"relaykit_testplugin-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n")
    lines = []
    for group, points in project["entry-points"].items():
        lines.append(f"[{group}]")
        lines += [f"{name} = {target}" for name, target in points.items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    _install_plugin(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(PLUGIN))
    importlib.invalidate_caches()
    registries: list[tuple[Registry[object], str]] = [(MODELS, "echo"), (EMBEDDERS, "constant"),  # type: ignore[list-item]
                                                      (CACHE_STORES, "plugin-memory"), (SINKS, "counting")]
    yield
    for registry, name in registries:
        registry.unregister(name)


def test_plugin_entry_points_are_found_with_no_code_change(plugin: None) -> None:
    for registry in (MODELS, EMBEDDERS, CACHE_STORES, SINKS):
        registry.load_plugins(refresh=True)  # the process started before the plugin was "installed"
    model = open_model("echo:>>")
    assert model.complete("hello").text == ">>hello"
    assert "echo:PREFIX" in MODELS.unknown_message("nope")
    vectors = open_embedder("constant:8").embed(["a", "b"])
    assert vectors.shape == (2, 8)
    assert isinstance(open_store("plugin-memory"), MemoryStore)
    assert type(open_sink("counting")).__name__ == "CountingSink"


def test_plugin_hand_off_method_is_found(plugin: None) -> None:
    registry = relaykit.handoff.HANDOFF_METHODS
    assert registry.group == "relaykit.handoff"
    registry.load_plugins(refresh=True)
    try:
        assert "first-line" in registry.names()
    finally:
        registry.unregister("first-line")


def test_a_broken_plugin_is_a_usage_error_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    info = tmp_path / "broken-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[relaykit.test_broken]\nbad = no_such_module_xyz:thing\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry: Registry[object] = Registry("widget", "relaykit.test_broken")
    with pytest.raises(UsageError, match=r"plugin 'bad'.*failed to load"):
        registry.names()


def test_no_two_subpackages_export_one_name_for_two_things() -> None:
    owners: dict[str, tuple[str, object]] = {}
    clashes = []
    for module_name in PUBLIC:
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            first = owners.setdefault(name, (module_name, obj))
            if first[1] is not obj:
                clashes.append(f"{name}: {first[0]} and {module_name}")
    assert not clashes, "one public name, two meanings: " + "; ".join(clashes)


def test_entry_points_accept_an_implementation_as_well_as_a_name() -> None:
    from relaykit.context import fuse
    from relaykit.delegation import open_router, render_graph
    from relaykit.delegation.routing import HeuristicRouter
    from relaykit.testing import ScriptedModel

    model = ScriptedModel(["ok"])
    assert open_model(model) is model
    sink = MemorySink()
    assert open_sink(sink) is sink
    store = MemoryStore()
    assert open_store(store) is store
    router = HeuristicRouter()
    assert open_router(router) is router

    def keep_all(samples, settings, model, usage):  # type: ignore[no-untyped-def]
        from relaykit.context import Fused

        ids = tuple(dict.fromkeys(i for s in samples for i in s))
        return Fused(ids, {i: 1 for i in ids}, len(samples), "keep_all")

    assert fuse([["a"], ["b"]], keep_all).ids == ("a", "b")
    assert render_graph(relaykit.DelegationGraph.model_validate({"nodes": [{"id": "g", "type": "goal", "value": "x"}],
                                                                 "edges": []}), lambda g: "mine") == "mine"


def test_model_needing_fusion_is_an_attribute_of_the_method() -> None:
    from relaykit.context import FUSIONS, fuse

    assert FUSIONS.get("best_of_n").needs_model and not FUSIONS.get("union").needs_model
    with pytest.raises(UsageError, match="needs a model"):
        fuse([["a"], ["b"]], "best_of_n")


def test_tally_is_the_running_total_of_the_one_usage() -> None:
    import threading

    from relaykit.accounting import Tally, Usage
    from relaykit.models import ChatResponse

    tally = Tally()
    answer = ChatResponse(text="x", model="m", prompt_tokens=3, completion_tokens=2)
    threads = [threading.Thread(target=lambda: [tally.add(answer) for _ in range(200)]) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    tally.add(Usage(embedding_calls=2, seconds=0.5))
    assert tally.usage == Usage(model_calls=800, prompt_tokens=2400, completion_tokens=1600, embedding_calls=2,
                                seconds=0.5)
    tally.prompt_tokens += 1  # the labs' runners still add field by field
    assert tally.total_tokens == 4001 and tally.requests == tally.model_calls == 800


def test_settings_are_frozen_values_apart_from_resources() -> None:
    import dataclasses

    from relaykit.context import ArrangeConfig, FusionSettings
    from relaykit.delegation import ExecutorSettings, ModelExecutor, PlanSettings, plan_nl
    from relaykit.testing import ScriptedModel

    for settings in (ExecutorSettings(), PlanSettings(), FusionSettings(), ArrangeConfig()):
        with pytest.raises(dataclasses.FrozenInstanceError):
            settings.max_tokens = 1  # type: ignore[misc]
    model = ScriptedModel(["First look the user up."])
    executor = ModelExecutor(model, ExecutorSettings(max_steps=3), max_tokens=64)
    assert executor.settings == ExecutorSettings(max_steps=3, max_tokens=64) and executor.model is model
    plan_nl(model, "find the user", settings=PlanSettings(max_tokens=32))
    assert model.requests[-1].max_tokens == 32
    with pytest.raises(UsageError, match="max_repairs"):
        PlanSettings(max_repairs=-1)


def test_a_users_own_methods_are_passed_as_objects_with_no_registration() -> None:
    """`compress_handoff(..., method=obj)` and `compress_trajectory(..., method=fn)`: no global state changes."""
    from relaykit.handoff import HANDOFF_METHODS, Compressed, compress_handoff
    from relaykit.trajectory import METHODS, Plan, compress_trajectory
    from relaykit.trajectory.validate import validate

    def first_line(job: object) -> Compressed:
        return Compressed(str(job.trace).splitlines()[0])

    handoff = compress_handoff("H1 costs 100 USD, pass.\nH2 costs 900 USD, fail.", "a hotel", method=first_line)
    assert handoff.payload == "H1 costs 100 USD, pass." and handoff.accounting.ratio < 1
    names = list(HANDOFF_METHODS.names())

    def newest_only(t: object, s: object) -> Plan:  # keep the last past step and drop the rest
        steps = t.steps
        return Plan(t.with_steps(steps[-2:]))

    messages = [{"role": "user", "content": "task"}]
    for k in range(4):
        messages += [{"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{k}", "type": "function", "function": {"name": "look", "arguments": "{}"}}]},
                     {"role": "tool", "tool_call_id": f"c{k}", "content": f"room {k} " * 20}]
    out = compress_trajectory(messages, method=newest_only, keep=1.0)
    assert validate(out.messages) == [] and out.accounting.tokens_out < out.accounting.tokens_in
    assert HANDOFF_METHODS.names() == names and "newest_only" not in METHODS.names()
