"""Every Python example in docs/integrations.md runs as written against a local OpenAI-compatible server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from recording_server import recording_server

DOC = Path(__file__).resolve().parents[2] / "docs" / "integrations.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def test_the_doc_has_one_example_per_framework() -> None:
    assert len(BLOCKS) == 4


@pytest.mark.parametrize("code", BLOCKS, ids=["openai-agents", "langchain", "autogen", "litellm"])
def test_docs_example_runs(code: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    with recording_server(turns=20) as (url, rec):
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", "test")
        exec(compile(code, str(DOC), "exec"), {"__name__": "__docs__"})
    assert rec.requests, "the example never called the model"
    assert capsys.readouterr().out.strip()
