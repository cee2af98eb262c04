"""Issue 14, bad input: every command, driven with hundreds of malformed inputs, answers with exit 2 and one
line on stderr, never a traceback, and creates or changes no file (the working folder is snapshotted).

The commands run in-process (``main(argv)``) for speed; RELAYKIT_HOME points into the snapshotted folder,
which starts without it, so a command that opened a store or a cache by mistake is caught too.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer

from relaykit.cli.app import app, main

DEEP = "[" * 100_000 + "]" * 100_000
WRONG_SHAPES = {"num.json": "3", "str.json": '"text"', "null.json": "null", "list.json": "[1, 2]",
                "obj.json": '{"x": {"y": 1}}', "nested.json": "[[[[[]]]]]"}
UNREACHABLE_REDIS = "redis://127.0.0.1:9/0"


def _files(root: Path) -> dict[str, str]:
    """Every input the cases refer to, by placeholder name."""
    (root / "folder").mkdir()
    payloads: dict[str, bytes] = {
        "binary.bin": bytes(range(256)) * 8, "empty.txt": b"", "deep.json": DEEP.encode(),
        "huge.txt": b"not json at all; " * 120_000,
        "huge.json": b"[" + b'{"role": "user", "content": "hi"},' * 60_000,
        "latin1.txt": "caf\xe9 cr\xe8me".encode("latin-1"),
        "text.txt": b"Hotel H1: price 5 USD. H1 verdict: pass.",
        "chat.json": json.dumps([{"role": "user", "content": "hi"}]).encode(),
        "deep_line.jsonl": DEEP.encode() + b"\n", "bad_line.jsonl": b'{"id": "a"}\n{oops\n',
        **{name: text.encode() for name, text in WRONG_SHAPES.items()},
    }
    for name, data in payloads.items():
        (root / name).write_bytes(data)
    paths = {name: str(root / name) for name in payloads}
    paths.update(folder=str(root / "folder"), missing=str(root / "missing.json"),
                 orphan=str(root / "no-such-folder" / "out.json"))
    return paths


def _bad_json_inputs(f: dict[str, str]) -> list[str]:
    return [f["binary.bin"], f["deep.json"], f["huge.json"], f["latin1.txt"], f["missing"], f["folder"],
            f["empty.txt"]]


def _handoff_cases(f: dict[str, str]) -> list[list[str]]:
    base = ["compress", "handoff", f["text.txt"], "--goal", "budget at most 100 USD"]
    settings = ["threshold=high", "threshold=2", "threshold=-0.1", "keep_verdicts=maybe", "batch_size=0",
                "id_pattern=(", "nosuch=1", "noequals", "=5", "query=3"]
    cases = [[*base, "--method", "prune", "--setting", s] for s in settings]
    for method, bad in (("truncate", ["ratio=abc", "ratio=0", "ratio=1.5", "head=abc", "head=2", "budget=-1",
                                      "budget=abc", "budget=1.5"]),
                        ("tfidf", ["ratio=abc", "budget=0"]), ("extract-rules", ["evidence=7", "id_pattern=[z-a]"]),
                        ("summary", ["max_words=0", "max_tokens=abc"]), ("extract", ["max_repairs=-1"]),
                        ("selective", ["ratio=9", "chunk_tokens=0"]), ("passthrough", ["ratio=0.5"])):
        cases += [[*base, "--method", method, "--setting", s] for s in bad]
    cases += [["compress", "handoff", path, "--goal", "g", "--method", "passthrough"]
              for path in (f["binary.bin"], f["empty.txt"], f["missing"], f["folder"], f["latin1.txt"])]
    cases += [[*base, "--method", "nosuch"], [*base[:3], "--goal", "", "--method", "passthrough"],
              [*base, "--method", "passthrough", "--facts", f["deep.json"]],
              [*base, "--method", "passthrough", "--facts", f["obj.json"]],
              [*base, "--method", "passthrough", "--facts", f["binary.bin"]], base[:3]]
    return cases


def _trajectory_cases(f: dict[str, str]) -> list[list[str]]:
    cases = [["compress", "trajectory", p] for p in (*_bad_json_inputs(f), f["num.json"], f["str.json"],
                                                     f["obj.json"], f["null.json"])]
    ok = ["compress", "trajectory", f["chat.json"]]
    cases += [[*ok, *extra] for extra in (["--method", "nosuch"], ["--keep", "-1"], ["--keep", "2"], ["--keep", "abc"],
                                          ["--budget", "0"], ["--budget", "-5"], ["--dropped", "nosuch"],
                                          ["--scorer", f["missing"]], ["--scorer", f["binary.bin"]],
                                          ["--scorer", f["deep.json"]], ["--scorer", f["num.json"]])]
    cases += [["bench", "trajectory", "--env", "nosuch"], ["bench", "trajectory", "--env", "twx", "--methods", ""],
              ["bench", "trajectory", "--env", "twx", "--methods", "nosuch"],
              ["bench", "trajectory", "--env", "twx", "--keep", "2"],
              ["bench", "trajectory", "--env", "twx", "--dropped", "nosuch"],
              ["bench", "trajectory", "--env", "twx", "--episodes", "0"],
              ["bench", "trajectory", "--env", "twx", "--max-steps", "0"],
              ["bench", "trajectory", "--env", "twx", "--resume", "nosuch"],
              ["bench", "trajectory", "--env", "twx", "--budget", "0%"],  # a --decision-points option
              ["bench", "trajectory", "--env", "twx", "--decision-points", "--keep", "0.5"],
              ["bench", "trajectory", "--env", "twx", "--decision-points", "--policy", "local"],
              ["bench", "trajectory", "--env", "twx", "--decision-points", "--max-steps", "3"],
              ["trajectory", "train", "--seed", "-1"]]
    train = ["trajectory", "train"]
    cases += [[*train, *extra] for extra in (["--test-share", "2"], ["--test-share", "0"], ["--test-share", "1"],
                                             ["--test-share", "-0.5"], ["--test-share", "abc"],
                                             ["--out", f["folder"]], ["--out", f["orphan"]], ["--episodes", "0"],
                                             ["--prefixes", "0"], ["--threshold", "abc"])]
    return cases


def _relay_cases(f: dict[str, str]) -> list[list[str]]:
    relay = ["bench", "relay"]
    bad = [["--methods", ""], ["--methods", ","], ["--methods", "nosuch"], ["--methods", "truncate:head=abc"],
           ["--methods", "prune:threshold=high"], ["--methods", "prune:nosuch=1"], ["--methods", "prune:threshold"],
           ["--methods", "passthrough,passthrough"], ["--model-budget", "-5"], ["--model-goals", "-5"],
           ["--cache", "nosuch"], ["--cache", UNREACHABLE_REDIS], ["--cache", f"sqlite:{f['folder']}"],
           ["--cache", f"sqlite:{f['orphan']}"], ["--goals", "0"], ["--goals", "abc"], ["--hotels", "-1"],
           ["--flights", "100001"], ["--concurrency", "0"], ["--researcher", "nosuch"], ["--booker", "nosuch"],
           ["--booker", ""], ["--trace", f["folder"]], ["--trace", f["orphan"]], ["--resume", "nosuch"],
           ["--world", f["text.txt"], "--goals", "5"], ["--world", f["text.txt"], "--hotels", "5"],
           ["--seed", "-1"]]
    bad += [["--world", p] for p in (*_bad_json_inputs(f), *(f[n] for n in WRONG_SHAPES))]
    cases = [[*relay, *b] for b in bad]
    for sub in ("export-world", "export-truth"):
        cases += [[*relay, sub, out] for out in (f["folder"], f["orphan"])]
        cases += [[*relay, sub, str(Path(f["folder"]) / "w.json"), *extra]
                  for extra in (["--goals", "0"], ["--hotels", "-3"], ["--flights", "abc"], ["--seed", "x"],
                                ["--seed", "-5"])]
        cases += [[*relay, "--goals", "5", sub, str(Path(f["folder"]) / "w.json")],
                  [*relay, "--seed", "1", sub, str(Path(f["folder"]) / "w.json")]]
    cases += [[*relay, "export-truth", str(Path(f["folder"]) / "t.json"), "--world", p]
              for p in (f["binary.bin"], f["deep.json"], f["num.json"], f["obj.json"], f["missing"])]
    cases += [[*relay, "export-truth", str(Path(f["folder"]) / "t.json"), "--world", f["text.txt"], "--goals", "3"]]
    return cases


def _context_cases(f: dict[str, str]) -> list[list[str]]:
    cases = [["context", "arrange", p] for p in (f["binary.bin"], f["deep_line.jsonl"], f["bad_line.jsonl"],
                                                 f["missing"], f["folder"], f["latin1.txt"], f["huge.txt"])]
    shapes = (f["huge.txt"], f["chat.json"], f["num.json"], f["obj.json"], f["str.json"], f["null.json"])
    cases += [["context", "fuse", p] for p in (*_bad_json_inputs(f), *shapes)]
    cases += [["context", "fuse", f["nested.json"], "--method", "nosuch"], ["context", "fuse", f["list.json"]]]
    out = str(Path(f["folder"]) / "corpus.jsonl")
    cases += [["context", "corpus", "--out", p] for p in (f["folder"], f["orphan"])]
    cases += [["context", "corpus", "--out", out, *extra] for extra in (
        ["--emails", "100000000"], ["--meetings", "100000001"], ["--chats", "-1"], ["--emails", "abc"],
        ["--meeting-rate", "2"], ["--chat-rate", "-0.5"])]
    comp = ["bench", "composition"]
    cases += [[*comp, "--corpus", p] for p in (*_bad_json_inputs(f), f["bad_line.jsonl"], f["num.json"])]
    cases += [comp, [*comp, "--corpus", f["text.txt"], "--blocks", "0"], [*comp, "--resume", "nosuch"],
              [*comp, "--corpus", f["text.txt"], "--max-tokens", "0"],
              [*comp, "--corpus", f["text.txt"], "--max-repairs", "-1"]]
    return cases


def _delegation_cases(f: dict[str, str]) -> list[list[str]]:
    shapes = (f["huge.txt"], f["num.json"], f["str.json"], f["null.json"], f["list.json"])
    cases = [["delegation", "validate", p] for p in (*_bad_json_inputs(f), *shapes)]
    cases += [["delegation", "validate", f["obj.json"], "--tools", p]
              for p in (f["binary.bin"], f["deep.json"], f["num.json"], f["missing"], f["str.json"])]
    bench = ["bench", "delegation", "--suite", "tau2-retail"]
    cases += [[*bench, *extra] for extra in (["--offset", "-4"], ["--max-steps", "0"], ["--limit", "0"],
                                             ["--plan-repairs", "-1"], ["--plan-tokens", "0"], ["--step-tokens", "0"],
                                             ["--format", "nosuch"], ["--router", "nosuch"], ["--resume", "nosuch"])]
    cases += [["bench", "delegation", "--suite", "nosuch"], ["bench", "delegation"]]
    return cases


def _store_cases(f: dict[str, str]) -> list[list[str]]:
    stores = (f["missing"], f["empty.txt"], f["binary.bin"], f["folder"], f["text.txt"], f["orphan"])
    cases = [["runs", "--store", s] for s in stores]
    cases += [["report", "run-1", "--store", s] for s in stores]
    cases += [["report", "run-1"], ["report", "run-1", "--html", f["folder"]],
              ["report", "run-1", "--html", f["orphan"]]]
    specs = ("nosuch", UNREACHABLE_REDIS, "redis://", *(f"sqlite:{s}" for s in stores))
    cases += [["cache", "stats", "--store", s] for s in specs]
    cases += [["cache", "clear", "--store", s] for s in specs]
    cases += [["trace", "summarize", p] for p in (f["binary.bin"], f["deep_line.jsonl"], f["bad_line.jsonl"],
                                                  f["missing"], f["folder"], f["num.json"], f["latin1.txt"])]
    cases += [["tokens", p] for p in (f["binary.bin"], f["missing"], f["folder"], f["latin1.txt"])]
    cases += [["tokens", f["text.txt"], "--encoding", e] for e in ("foo", "", "O200K")]
    cases += [["tokens", f["empty.txt"], "--encoding", "foo"]]
    return cases


def _command_paths() -> list[tuple[str, ...]]:
    """Every leaf command of the app, as the words that invoke it."""
    found: list[tuple[str, ...]] = []

    def walk(command: object, path: tuple[str, ...]) -> None:
        subs = getattr(command, "commands", None)
        if subs is None:
            found.append(path)
            return
        if getattr(command, "invoke_without_command", False):
            found.append(path)
        for name, sub in subs.items():
            walk(sub, (*path, name))

    walk(typer.main.get_command(app), ())
    return found


def _parser_cases() -> list[list[str]]:
    """Unknown options and stray arguments for every command (the option parser's own mistakes)."""
    cases = []
    for path in _command_paths():
        cases += [[*path, "--no-such-option"], [*path, "--no-such-option=1", "--json"]]
    return cases


def all_cases(files: dict[str, str]) -> list[list[str]]:
    return [*_handoff_cases(files), *_trajectory_cases(files), *_relay_cases(files), *_context_cases(files),
            *_delegation_cases(files), *_store_cases(files), *_parser_cases()]


def _snapshot(root: Path) -> dict[str, str]:
    state = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        state[rel] = "dir" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
    return state


@contextlib.contextmanager
def _captured(stdin: bytes = b"") -> Iterator[tuple[io.StringIO, io.StringIO]]:
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            yield out, err
    finally:
        sys.stdin = old_stdin


def _run(argv: list[str], stdin: bytes = b"") -> tuple[object, str]:
    with _captured(stdin) as (_, err):
        try:
            main(argv)
            code: object = 0
        except SystemExit as exc:
            code = exc.code
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # a crash (or reaching a model) is reported
            code = f"{type(exc).__name__}: {str(exc)[:120]}"
            err.write("Traceback (escaped main)\n")
    return code, err.getvalue()


def test_every_command_rejects_malformed_input_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "work"
    work.mkdir()
    files = _files(work)
    monkeypatch.setenv("RELAYKIT_HOME", str(work / "home"))
    monkeypatch.chdir(work)
    cases = all_cases(files)
    cases += [["tokens", "-"], ["compress", "trajectory", "-"], ["delegation", "validate", "-"],
              ["compress", "handoff", "-", "--goal", "g"]]
    long = "z" * 5000  # longer than any file name the system allows: the OS refuses it (ENAMETOOLONG)
    cases += [["tokens", long], ["compress", "trajectory", long], ["compress", "handoff", long, "--goal", "g"],
              ["delegation", "validate", long], ["trace", "summarize", long], ["context", "arrange", long],
              ["context", "fuse", long], ["bench", "relay", "--world", long], ["runs", "--store", long],
              ["report", "x", "--store", long], ["cache", "stats", "--store", f"sqlite:{long}"],
              ["context", "corpus", "--emails", "3", "--out", long], ["trajectory", "train", "--out", long],
              ["bench", "relay", "export-world", long], ["bench", "composition", "--corpus", long]]
    assert len(cases) >= 250
    covered = {tuple(w for w in case if not w.startswith(("-", "/")))[:3] for case in cases}
    for path in _command_paths():
        assert any(c[:len(path)] == path for c in covered), f"no malformed input drives {' '.join(path)}"
    before = _snapshot(work)
    failures = []
    for case in cases:
        code, err = _run(case, stdin=b"\xff\xfe binary \x00" if "-" in case else b"")
        lines = err.strip().splitlines()
        after = _snapshot(work)
        if code != 2 or len(lines) != 1 or "Traceback" in err or after != before:
            changed = sorted(set(after.items()) ^ set(before.items()))[:3]
            failures.append(f"{' '.join(case)[:160]} -> exit {code}, stderr {err.strip()[:200]!r}, changed {changed}")
            before = after
    assert not failures, f"{len(failures)} of {len(cases)} inputs:\n" + "\n".join(failures)


def test_error_lines_never_quote_a_secret(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the user typed may hold a credential (a URL with a password, a key in a file name): the one error line
    shows it masked or without it, never as typed (CI logs keep stderr)."""
    monkeypatch.setenv("RELAYKIT_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.chdir(tmp_path)
    cases = [["bench", "relay", "--goals", "1", "--methods", "summary", "--model",
              "openai:http://alice:hunter2pass@127.0.0.1:9/v1"],
             ["tokens", "sk-proj-hunter2passAbCdEfGhIjKl.txt"],
             ["cache", "stats", "--store", "redis://:hunter2pass@127.0.0.1:9/0"]]
    for case in cases:
        code, err = _run(case)
        assert code == 2 and len(err.strip().splitlines()) == 1, (case, code, err)
        assert "hunter2pass" not in err, err


MODEL_COMMANDS = {("doctor",), ("compress", "handoff"), ("context", "fuse"), ("bench", "relay"),
                  ("bench", "delegation"), ("bench", "trajectory"), ("trajectory", "train")}
"""The commands that call a model (the embedded one or an endpoint), each bounded by ``--timeout`` (``serve``
bounds its upstream calls by its config's ``deadline_s``, per server and per upstream)."""


def test_every_command_that_calls_a_model_takes_a_timeout() -> None:
    paths = {tuple(path) for path in _command_paths()}
    assert paths >= MODEL_COMMANDS, MODEL_COMMANDS - paths
    root = typer.main.get_command(app)
    for path in MODEL_COMMANDS:
        command = root
        for word in path:
            command = command.commands[word]  # type: ignore[attr-defined]
        assert any("--timeout" in getattr(p, "opts", ()) for p in command.params), " ".join(path)
    code, err = _run(["doctor", "--timeout", "0"])
    assert code == 2 and "--timeout" in err
