"""Which form of the hand-off reader and writer runs: C extension modules compiled by mypyc, or the source.

``make install`` compiles the modules that ``extract-rules`` spends its time in (setup.py's ``COMPILED``) with
mypyc, in place: each ``.py`` then has a ``.so`` beside it, which Python imports first. They are the same code,
about 1.4x faster. The source runs instead when

- ``RELAYKIT_PURE_PYTHON=1`` is set (to step through the reader in a debugger, or to compare the two), or
- any compiled module is older than its source (an edited checkout): an edit must take effect, so the source
  runs, with a warning that says how to compile again (``make compile``).

All or nothing: compiled modules call one another natively, past ``sys.modules``, so a single module read from
source beside compiled ones would never be called. ``choose`` runs once, from ``relaykit.handoff``'s
``__init__``, before any of the package's modules is imported.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

from relaykit.settings import load_settings

FOLDER = Path(__file__).parent
PACKAGE = __name__.rpartition(".")[0]


def extensions(folder: Path = FOLDER) -> dict[Path, Path]:
    """Each compiled module in ``folder``: its source -> its extension module file."""
    found = {}
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for built in folder.glob(f"*{suffix}"):
            source = folder / (built.name[: -len(suffix)] + ".py")
            if source.is_file():
                found[source] = built
    return found


def stale(found: dict[Path, Path]) -> list[str]:
    """The modules whose source changed after they were compiled."""
    return sorted(source.stem for source, built in found.items() if source.stat().st_mtime > built.stat().st_mtime)


class SourceFinder(MetaPathFinder):
    """Imports the package's modules from their ``.py`` files, whatever is compiled beside them."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        package, _, leaf = fullname.rpartition(".")
        source = FOLDER / f"{leaf}.py"
        if package != PACKAGE or not source.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def choose() -> None:
    """Run the source instead of the compiled modules where ``RELAYKIT_PURE_PYTHON=1`` says so or where the
    compiled modules are out of date (with a warning, unless the source was asked for anyway)."""
    found = extensions()
    if not found or any(isinstance(finder, SourceFinder) for finder in sys.meta_path):
        return
    pure = load_settings().pure_python
    changed = [] if pure else stale(found)
    if changed:
        warnings.warn(f"relaykit: {', '.join(changed[:3])}{' ...' if len(changed) > 3 else ''} changed after the "
                      "hand-off reader was compiled; running its source (about 1.4x slower). Run `make compile` "
                      "(or `RELAYKIT_COMPILE=1 python setup.py build_ext --inplace`) to compile it again",
                      RuntimeWarning, stacklevel=3)
    if changed or pure:
        sys.meta_path.insert(0, SourceFinder())


def compiled() -> bool:
    """Whether the hand-off reader runs as compiled modules (False: as Python source)."""
    from relaykit.handoff import evidence

    return not str(evidence.__file__).endswith(".py")


__all__ = ["SourceFinder", "choose", "compiled", "extensions", "stale"]
