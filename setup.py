"""Build relaykit; with ``RELAYKIT_COMPILE=1``, also compile the hand-off reader and writer with mypyc, and the
semantic cache index's search (``_kernel.c``, plain C).

The modules in ``COMPILED`` are plain, strictly typed Python; mypyc turns them into C extension modules that
run the same code about 1.4x faster (``extract-rules`` on a 10 MB trace: see docs/handoff.md). ``make install``
compiles them in place once the dependencies are in the venv (mypy type-checks them against those)::

    RELAYKIT_COMPILE=1 .venv/bin/python setup.py build_ext --inplace

The compile is optional: without a C compiler, or when it fails, relaykit stays pure Python and behaves the same
(``relaykit.handoff.compiled()`` and ``relaykit.models.cache.kernel.compiled()`` say which form runs). The C
search runs a semantic lookup's steps in one call instead of some forty numpy calls (benchmarks/cache_bench.py
--scale 100000: 4 semantic writers against 4 exact ones). Everything else about the package is in pyproject.toml.
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HANDOFF = Path("src", "relaykit", "handoff")
CACHE = Path("src", "relaykit", "models", "cache")
COMPILED = sorted(str(HANDOFF / f"{name}.py") for name in (
    "cells", "collective", "compact", "compact_body", "compact_header", "compact_labels", "compact_promise",
    "compact_read", "compact_rules", "constraints", "dialogue", "evidence", "guards", "idioms", "leads", "lexicon",
    "lists", "options", "outsider", "phrases", "reading", "reasons", "remarks", "several", "table", "text", "units",
    "words"))
"""The hand-off reader's and compact writer's modules (``extract-rules``' whole path but for token counting)."""


def _wanted() -> bool:
    return os.environ.get("RELAYKIT_COMPILE") == "1" and sys.implementation.name == "cpython"


KERNEL = Extension("relaykit.models.cache._kernel", sources=[str(CACHE / "_kernel.c")],
                   extra_compile_args=[] if sys.platform == "win32" else ["-O3"])
"""The semantic index's search in one C call (plain C, no mypyc; relaykit.models.cache.kernel)."""


def _extensions() -> list[Any]:
    try:
        from mypyc.build import mypycify

        # one C file per module, compiled on every core (below)
        mypyc = list(mypycify(COMPILED, opt_level=os.environ.get("RELAYKIT_OPT_LEVEL", "2"), multi_file=True))
    except (Exception, SystemExit) as exc:  # no mypyc, or mypy found errors: stay pure Python
        print(f"relaykit: not compiling the hand-off reader ({exc!r}); it runs as pure Python", file=sys.stderr)
        mypyc = []
    return [KERNEL, *mypyc]


class OptionalBuildExt(build_ext):
    """Compile the C files of each extension on every core, and fall back to pure Python when compiling fails
    (no compiler, no Python headers): the compiled modules are a speed-up, never a requirement. mypyc runs here,
    when extensions are built, not each time setup.py is loaded (pip loads it once more for the metadata alone);
    until then the distribution holds a placeholder, so that a wheel is tagged for this platform."""

    def finalize_options(self) -> None:
        if self.distribution.ext_modules == [PLACEHOLDER]:
            # the sdist's manifest (which pip's metadata step writes) finalizes this command too: no build there
            building = BUILDS & set(self.distribution.commands)
            self.distribution.ext_modules = _extensions() if building else []
        super().finalize_options()
        # every module's own extension (a small shim that loads the shared library) is rebuilt too, even when its
        # C file did not change: relaykit.handoff.native takes a shim older than its source for an out-of-date build
        self.force = True

    def build_extension(self, ext: Any) -> None:
        if ext is KERNEL:  # on its own: a failure here keeps the numpy search and leaves the reader compiled
            try:
                super().build_extension(ext)
            except Exception as exc:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
                print(f"relaykit: compiling the semantic index's C search failed ({exc}); numpy runs it",
                      file=sys.stderr)
            return
        compiler = self.compiler
        plain = compiler.compile

        def parallel(sources: list[str], output_dir: str | None = None, macros: Any = None,
                     include_dirs: Any = None, debug: Any = 0, extra_preargs: Any = None,
                     extra_postargs: Any = None, depends: Any = None) -> list[str]:
            macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
                output_dir, macros, include_dirs, sources, depends, extra_postargs)
            cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)

            def one(obj: str) -> None:
                src, suffix = build[obj]
                compiler._compile(obj, src, suffix, cc_args, extra_postargs, pp_opts)

            with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
                list(pool.map(one, objects))
            return list(objects)

        compiler.compile = parallel
        try:
            super().build_extension(ext)
        finally:
            compiler.compile = plain

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # any compile failure: keep the pure-Python modules
            for output in self.get_outputs():  # a module's shim without the shared library fails at import
                Path(output).unlink(missing_ok=True)
            print(f"relaykit: compiling the hand-off reader failed ({exc}); it runs as pure Python", file=sys.stderr)


BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}
"""The commands that build extensions (a wheel: ``bdist_wheel``; ``make compile``: ``build_ext``)."""
PLACEHOLDER = Extension("relaykit.handoff._compiled", sources=[])

setup(ext_modules=[PLACEHOLDER] if _wanted() else [], cmdclass={"build_ext": OptionalBuildExt})
