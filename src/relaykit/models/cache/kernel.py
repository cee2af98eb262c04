"""The semantic index's search as one C call, where ``make install`` compiled it (``_kernel.c``, beside this file).

A search in numpy (``index.View``) is some forty small calls; with several writer threads on a few cores their
Python overhead, not their arithmetic, is what a semantic miss costs over an exact one. The C form runs the same
steps in one call, with the GIL given up around its arithmetic, and gives the same candidates (its sums are taken
in another order, so a similarity may differ in the last bits; every hit is checked again against the stored
vector anyway); a batch of new rows is filed by one call too (``GroupIndex._file_pending``). ``KERNEL`` is that
module, or ``None`` where the numpy form runs:

- the package was installed without compiling (``pip install relaykit``: a pure-Python wheel),
- ``RELAYKIT_PURE_PYTHON=1`` asks for the Python forms (as it does for the hand-off reader),
- the build is older than ``_kernel.c`` (an edited checkout: a warning says to run ``make compile``), or it was
  built from another version of the C file.

Where the process may run on one CPU only (``os.sched_getaffinity``: a pinned process, a one-CPU cpuset), the kernel
keeps the GIL through its arithmetic (``KERNEL.set_release(False)``): with no other core to run another thread
meanwhile, giving it up only adds thread switches.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import warnings
from pathlib import Path
from types import ModuleType

from relaykit.settings import load_settings

VERSION = 3
"""The version of ``_kernel.c`` this module expects (its ``KERNEL_VERSION``)."""
SOURCE = Path(__file__).with_name("_kernel.c")


def built(folder: Path = SOURCE.parent) -> Path | None:
    """The compiled kernel's file in ``folder``, if there is one."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        found = folder / f"_kernel{suffix}"
        if found.is_file():
            return found
    return None


def load() -> ModuleType | None:
    """The compiled kernel, or ``None`` where the numpy search should run (see the module's docstring)."""
    if load_settings().pure_python:
        return None
    path = built()
    if path is None:
        return None
    if SOURCE.is_file() and SOURCE.stat().st_mtime > path.stat().st_mtime:
        warnings.warn("relaykit: the semantic index's C search (_kernel.c) changed after it was compiled; running "
                      "its numpy form. Run `make compile` (or `RELAYKIT_COMPILE=1 python setup.py build_ext "
                      "--inplace`) to compile it again", RuntimeWarning, stacklevel=2)
        return None
    try:
        module = importlib.import_module(f"{__name__.rpartition('.')[0]}._kernel")
    except ImportError as exc:
        warnings.warn(f"relaykit: the semantic index's C search could not be loaded ({exc}); running its numpy form",
                      RuntimeWarning, stacklevel=2)
        return None
    if getattr(module, "VERSION", None) != VERSION:
        return None
    module.set_release(cpus() > 1)
    return module


def cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


KERNEL = load()


def compiled() -> bool:
    """Whether the semantic index searches through the compiled kernel (False: through numpy)."""
    return KERNEL is not None


__all__ = ["KERNEL", "SOURCE", "VERSION", "built", "compiled", "cpus", "load"]
