"""The shared environment adapters: one BFCL loader and one τ² driver, used by both labs."""

from __future__ import annotations

import pytest

from relaykit.bench import envs
from relaykit.errors import UsageError


def test_call_string_and_parse_call_round_trip() -> None:
    text = envs.call_string("cd", {"folder": "docs", "depth": 2})
    assert text == "cd(folder='docs', depth=2)"
    assert envs.parse_call(text) == ("cd", [], {"folder": "docs", "depth": 2})
    with pytest.raises(UsageError, match="cannot read the call"):
        envs.parse_call("cd(folder=open('x'))")


def test_both_labs_use_the_one_adapter() -> None:
    from relaykit.bench.delegation import bfcl as delegation_bfcl
    from relaykit.bench.delegation import tau2 as delegation_tau2
    from relaykit.bench.trajectory import envs as trajectory_envs
    from relaykit.bench.trajectory import envs_built

    assert trajectory_envs.parse_call is envs.parse_call and trajectory_envs._bfcl_file is envs.data_file
    assert delegation_bfcl.call_string is envs.call_string is envs_built.call_text
    assert delegation_tau2.Tau2Episode is envs.Tau2Episode and delegation_tau2.request_text is envs.request_text


def test_bfcl_data_is_found_one_way() -> None:
    pytest.importorskip("bfcl_eval")
    entries = envs.data_file("BFCL_v4_multi_turn_base.json")
    answers = envs.data_file("possible_answer/BFCL_v4_multi_turn_base.json")
    assert len(entries) == len(answers) > 100 and {"id", "question", "involved_classes"} <= set(entries[0])
    assert envs.data_file("multi_turn_func_doc/no_such_file.json", missing_ok=True) == []
    methods = envs.backend_methods(entries[0])
    assert methods and all(callable(m) for m in methods.values())
