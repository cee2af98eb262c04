"""The README never drifts from what works: its Python example and every command in its shell blocks run here.

Shell commands run in-process in a scratch folder that holds a copy of ``examples/``, with ``RELAYKIT_HOME``
there too, in README order (later commands use the files and runs of earlier ones; ``RUN_ID`` is the latest
stored run). Lab commands are scaled down only through their documented flags (``SCALE``). Commands named in
the prose (inline code) are not run, but their command path and every ``--flag`` they name must exist.
"""

from __future__ import annotations

import re
import shlex
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer

from relaykit.bench.store import RunStore
from relaykit.cli.app import app, main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FENCE = re.compile(r"^[ \t]*```(\w*)[ \t]*\n(.*?)^[ \t]*```", re.MULTILINE | re.DOTALL)
NOT_RUN = {
    "make demo": "installs the project and runs the whole demo: that is the job CI's `make test` stands in for",
    "make test": "runs the test suite, which includes this test",
}
# documented flags that make a lab command small enough for a test
SCALE: dict[tuple[str, ...], list[str]] = {
    ("bench", "relay"): ["--goals", "4"],
    ("bench", "trajectory"): ["--episodes", "1"],
    ("trajectory", "train"): ["--episodes", "2"],
}


def code_blocks(language: str) -> list[str]:
    return [body for lang, body in FENCE.findall(README) if lang == language]


def shell_commands() -> list[str]:
    commands = []
    for block in code_blocks("bash"):
        for line in block.splitlines():
            line = re.split(r"\s+#\s", line, maxsplit=1)[0].strip()
            commands += [part.strip() for part in line.split("&&") if part.strip()]
    return commands


def _path(args: list[str]) -> tuple[str, ...]:
    root: Any = typer.main.get_command(app)
    path: list[str] = []
    for word in args:
        commands = getattr(root, "commands", None)
        if not commands or word not in commands:
            break
        root = commands[word]
        path.append(word)
    return tuple(path)


def _marks(command: str) -> list[pytest.MarkDecorator]:
    marks = []
    if ("bench relay" in command and "export-world" not in command) or "prune" in command:
        marks.append(pytest.mark.embedder)  # the relay lab's diagnostics and prune use MiniLM
    if "bench trajectory" in command or "trajectory train" in command:
        marks.append(pytest.mark.envs)
    return marks


def _params() -> Iterator[Any]:
    for command in shell_commands():
        if command in NOT_RUN:
            continue
        yield pytest.param(command, marks=_marks(command), id=command[:80])


def test_the_readme_has_what_this_test_runs() -> None:
    commands = shell_commands()
    assert set(NOT_RUN) <= set(commands)
    unknown = [c for c in commands if not c.startswith("relaykit ") and c not in NOT_RUN]
    assert not unknown, f"shell lines this test cannot run: {unknown}"
    assert len(code_blocks("python")) == 1 and len(commands) >= 15
    for example in ("handoff/trace.txt", "handoff/facts.json", "trajectory/messages.json", "delegation/graph.json",
                    "delegation/tools.json", "context/corpus.jsonl"):
        assert (ROOT / "examples" / example).is_file() and f"examples/{example}" in " ".join(commands)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "examples", folder / "examples")
    return folder


def _latest_run(home: Path) -> str:
    runs = RunStore(home / "runs.sqlite").list_runs()
    assert runs, "the README uses RUN_ID before any lab run"
    return runs[-1].run_id


@pytest.mark.parametrize("command", list(_params()))
def test_readme_command(command: str, workspace: Path, monkeypatch: pytest.MonkeyPatch,
                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(workspace)
    monkeypatch.setenv("RELAYKIT_HOME", str(workspace / "home"))
    args = shlex.split(command)[1:]
    if "RUN_ID" in args:
        args = [_latest_run(workspace / "home") if a == "RUN_ID" else a for a in args]
    path = _path(args)
    for prefix, extra in SCALE.items():
        if path[:len(prefix)] == prefix and "--world" not in args:  # a world file has its own size
            args += extra
    with pytest.raises(SystemExit) as info:
        main(args)
    out, err = capsys.readouterr()
    assert info.value.code in (0, None), f"`{command}` exited {info.value.code}: {err[-2000:]}"
    assert out.strip() or err.strip(), f"`{command}` printed nothing"


INLINE = re.compile(r"`(relaykit [^`]+)`")


def test_commands_named_in_the_prose_exist() -> None:
    """Inline `relaykit ...` spans are not run (some need a model or a key), but must name real flags."""
    inline = INLINE.findall(re.sub(FENCE, "", README))
    assert len(inline) >= 5
    for span in inline:
        words = [w for w in shlex.split(span.replace("|", " "))[1:]]
        path = _path(words)
        command: Any = typer.main.get_command(app)
        for word in path:
            command = command.commands[word]
        assert path or words[0].startswith("--"), f"`{span}`: no such command"
        known = {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)}
        if not path:  # options of the root command
            known |= {"--install-completion", "--show-completion"}
        flags = [w.split("=")[0] for w in words if w.startswith("--")]
        assert set(flags) <= known, f"`{span}`: unknown flag(s) {set(flags) - known}"


def test_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    (code,) = code_blocks("python")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RELAYKIT_HOME", str(tmp_path / "home"))
    namespace: dict[str, Any] = {"__name__": "readme_example"}
    exec(compile(code, "README.md", "exec"), namespace)  # the README's own example, for real
    out = capsys.readouterr().out.splitlines()
    assert namespace["report"].recall == 1.0 and namespace["report"].lost == []
    assert out[-1].endswith("[]")  # validate_messages found no violation
    assert 0 < namespace["short"].accounting.ratio <= 1
