"""The hand-off reader compiled by mypyc (``make compile``) and its source: the same payloads, the choice of
form (``RELAYKIT_PURE_PYTHON``, out-of-date builds), and the tests that must run on the source."""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from relaykit.handoff import compiled, compress_handoff, native
from relaykit.handoff.corpus import STYLE_GROUPS, corpus

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(SRC), **env}, cwd=ROOT)


DIGEST = f"""
import sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
from relaykit.handoff import compiled
from test_native import _digest
print(compiled(), _digest())
"""


def _digest() -> str:
    """A fingerprint of every style's extract-rules payloads, text and JSON (run here and, by ``DIGEST``, in a
    subprocess)."""
    styles = [s for group in STYLE_GROUPS.values() for s in group]
    h = hashlib.sha256()
    for t in corpus(tuple(styles), seeds=1):
        for fmt in ("text", "json"):
            out = compress_handoff(t.trace, t.goal, "extract-rules", format=fmt)
            h.update(json.dumps([out.payload_text, out.tokens_out, list(out.warnings)]).encode())
    return h.hexdigest()


def test_the_source_writes_the_payloads_this_process_writes() -> None:
    """Every style's payloads, text and JSON, from the source (a subprocess) equal this process's, compiled or not."""
    run = _run(DIGEST, RELAYKIT_PURE_PYTHON="1")
    assert run.returncode == 0, run.stderr
    form, digest = run.stdout.split()
    assert form == "False"
    assert digest == _digest()


def test_pure_python_runs_the_source() -> None:
    run = _run("from relaykit.handoff import compiled, evidence, words; print(compiled(), evidence.__file__, "
               "words.__file__)", RELAYKIT_PURE_PYTHON="1")
    assert run.returncode == 0, run.stderr
    form, *files = run.stdout.split()
    assert form == "False" and all(f.endswith(".py") for f in files)


def test_an_edited_module_is_seen_as_changed(tmp_path: Path) -> None:
    source, built = tmp_path / "words.py", tmp_path / f"words{importlib.machinery.EXTENSION_SUFFIXES[0]}"
    (tmp_path / "lonely.py").write_text("")  # no extension beside it: not compiled
    for path in (source, built):
        path.write_text("")
    os.utime(source, (1000, 1000))
    os.utime(built, (2000, 2000))
    found = native.extensions(tmp_path)
    assert found == {source: built}
    assert native.stale(found) == []
    os.utime(source, (3000, 3000))
    assert native.stale(found) == ["words"]


def _setup_modules() -> set[str]:
    text = (ROOT / "setup.py").read_text()
    block = text[text.index("COMPILED = "):text.index('"""The hand-off reader')]
    return set(re.findall(r'"(\w+)"', block))


def test_every_module_setup_compiles_exists() -> None:
    names = _setup_modules()
    assert len(names) >= 20 and all((native.FOLDER / f"{n}.py").is_file() for n in names)
    assert "base" not in names and "corpus" not in names  # a runtime-checked protocol; not on the reading path


def test_ci_runs_the_compiled_reader() -> None:
    """CI installs with ``make install``, which compiles: every module setup.py names runs compiled there."""
    if os.environ.get("CI") != "true":
        pytest.skip("outside CI the install may be pure Python (no compiler, or `pip install -e .`)")
    assert compiled()
    assert {source.stem for source in native.extensions()} == _setup_modules()


needs_compiled = pytest.mark.skipif(not compiled(), reason="the reader runs as source here (`make compile` builds it)")


@needs_compiled
@pytest.mark.parametrize("pure", ["0", "1"])
def test_an_out_of_date_build_runs_the_source_with_a_warning(tmp_path: Path, pure: str) -> None:
    """A source newer than its compiled module (an edited checkout): the source runs, and a warning says so
    (not where RELAYKIT_PURE_PYTHON=1 asked for the source anyway)."""
    copy = tmp_path / "src"
    shutil.copytree(SRC / "relaykit", copy / "relaykit", ignore=shutil.ignore_patterns("__pycache__"))
    for lib in SRC.glob("*__mypyc*"):
        shutil.copy2(lib, copy / lib.name)
    edited = copy / "relaykit" / "handoff" / "evidence.py"
    built = native.extensions(edited.parent)[edited]
    os.utime(edited, (built.stat().st_mtime + 60, built.stat().st_mtime + 60))
    run = subprocess.run([sys.executable, "-c", "from relaykit.handoff import compiled; print(compiled())"],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": str(copy), "RELAYKIT_PURE_PYTHON": pure})
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["False"]
    if pure == "1":
        assert "changed after" not in run.stderr
    else:
        assert "evidence changed after the hand-off reader was compiled" in run.stderr and "make compile" in run.stderr


@needs_compiled
def test_the_swapping_tests_pass_on_the_source() -> None:
    """The tests marked ``pure_python`` swap a function the compiled modules call natively; here they run on
    the source in a subprocess, every one of them."""
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-m", "pure_python", "-p", "no:cacheprovider",
                          str(ROOT / "tests" / "handoff")], capture_output=True, text=True, timeout=900, cwd=ROOT,
                         env={**os.environ, "RELAYKIT_PURE_PYTHON": "1"})
    assert run.returncode == 0, run.stdout[-3000:]
    passed = re.search(r"(\d+) passed", run.stdout)
    assert passed and int(passed.group(1)) >= 9 and "skipped" not in run.stdout.splitlines()[-1], run.stdout[-500:]


@pytest.mark.parametrize(("value", "pure"), [("1", True), ("true", True), (" YES ", True), ("0", False),
                                             ("", False), ("no", False)])
def test_the_setting_reads_relaykit_pure_python(value: str, pure: bool) -> None:
    from relaykit.settings import load_settings

    assert load_settings({"RELAYKIT_PURE_PYTHON": value}).pure_python is pure
    assert load_settings({}).pure_python is False


SETUP = """
import runpy
import sys
import mypyc.build

def mypycify(*args, **kwargs):
    print("mypycify ran", file=sys.stderr)
    raise SystemExit("stopped here")

mypyc.build.mypycify = mypycify
import setuptools.build_meta as backend
if sys.argv[1] == "metadata":
    print(backend.prepare_metadata_for_build_wheel(sys.argv[2]))
elif sys.argv[1] == "force":  # the build_ext command setup.py configures, as `setup.py build_ext` finalizes it
    import setuptools
    from setuptools.dist import Distribution

    given = {}
    setuptools.setup = lambda **kwargs: given.update(kwargs)
    runpy.run_path("setup.py")
    distribution = Distribution(given)
    distribution.commands = ["build_ext"]
    command = distribution.get_command_obj("build_ext")
    command.ensure_finalized()
    print("force", command.force)
else:
    sys.argv = ["setup.py", "-q", "build_ext", "--inplace"]
    runpy.run_path("setup.py", run_name="__main__")
"""


def _project_copy(tmp_path: Path) -> Path:
    """What ``setup.py`` builds from (no extensions, no caches), copied so that a build writes nothing here."""
    copy = tmp_path / "project"
    shutil.copytree(SRC, copy / "src", ignore=shutil.ignore_patterns("*.so", "__pycache__", "*.egg-info"))
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, copy / name)
    return copy


def _setup_step(tmp_path: Path, step: str, kernel_source: str | None = None) -> subprocess.CompletedProcess[str]:
    """``SETUP``'s ``step`` run with RELAYKIT_COMPILE=1 in a copy of the project (its output folder: ``tmp_path``;
    the semantic index's C search replaced by ``kernel_source`` when given)."""
    copy = _project_copy(tmp_path)
    if kernel_source is not None:
        (copy / KERNEL_C).write_text(kernel_source)
    return subprocess.run([sys.executable, "-c", SETUP, step, str(tmp_path)], capture_output=True, text=True,
                          timeout=300, cwd=copy, env={**os.environ, "RELAYKIT_COMPILE": "1"})


KERNEL_C = Path("src", "relaykit", "models", "cache", "_kernel.c")


def _kernel_builds(tmp_path: Path) -> list[Path]:
    return list((tmp_path / "project" / KERNEL_C.parent).glob("_kernel.*"))


@pytest.mark.parametrize("step", ["metadata", "build_ext"])
def test_mypyc_runs_when_extensions_are_built_not_for_metadata(tmp_path: Path, step: str) -> None:
    """pip asks for the metadata before it builds a wheel, and that step once ran mypyc too (minutes, 4 GB);
    with RELAYKIT_COMPILE=1 mypyc runs only for a build (here stopped at its first call)."""
    run = _setup_step(tmp_path, step)
    assert run.returncode == 0, run.stderr
    if step == "metadata":
        assert "mypycify ran" not in run.stderr
        assert (tmp_path / run.stdout.split()[-1] / "METADATA").is_file()
    else:  # mypyc stopped: the build goes on as pure Python, and says so; the C search is built all the same
        assert "mypycify ran" in run.stderr and "runs as pure Python" in run.stderr
        assert [p.suffix for p in _kernel_builds(tmp_path) if p.suffix != ".c"] == [".so"]


def test_a_c_search_that_fails_to_compile_leaves_the_build_going(tmp_path: Path) -> None:
    """The C search is a speed-up: when it does not compile, the build goes on (numpy searches) and says so."""
    run = _setup_step(tmp_path, "build_ext", kernel_source="#include <Python.h>\nthis is not C;\n")
    assert run.returncode == 0, run.stderr
    assert "compiling the semantic index's C search failed" in run.stderr and "numpy runs it" in run.stderr
    assert [p.suffix for p in _kernel_builds(tmp_path)] == [".c"]


def test_a_build_rebuilds_every_module_extension(tmp_path: Path) -> None:
    """Each module's extension is a shim that loads the shared library; a rebuild whose shim C files did not
    change would keep them older than an edited source, and that build would read as out of date forever."""
    run = _setup_step(tmp_path, "force")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split()[-2:] == ["force", "True"]
