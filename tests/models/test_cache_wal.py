"""The SQLite cache's write-ahead log stays bounded when processes end without closing the file (killed,
``os._exit``): opening the file folds in what they left, instead of the log growing with every such run."""

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

from relaykit.models.cache.sqlite import CHECKPOINT_EVERY, SQLiteStore

WRITER = textwrap.dedent("""
    import os, sys, time
    from relaykit.models.cache.entry import CacheEntry
    from relaykit.models.cache.sqlite import SQLiteStore
    store = SQLiteStore(sys.argv[1])
    for i in range(int(sys.argv[2])):
        store.put(CacheEntry(key=f"{sys.argv[3]}-{i}", namespace="n", group="g", response={"content": "x" * 400},
                             created_at=time.time()))
    os._exit(0)  # no close, no checkpoint: as if killed
""")


def test_a_log_left_by_processes_that_never_closed_the_file_is_folded_in(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    wal = Path(str(path) + "-wal")
    writes = CHECKPOINT_EVERY - 56  # fewer than one checkpoint's worth per process
    sizes = []
    for run in range(5):
        subprocess.run([sys.executable, "-c", WRITER, str(path), str(writes), f"run{run}"], check=True, timeout=120)
        sizes.append(wal.stat().st_size)
    assert max(sizes[1:]) <= 1.5 * sizes[0], sizes  # one process's writes at most, not five
    SQLiteStore(path).close()
    keys = {row[0] for row in sqlite3.connect(path).execute("SELECT key FROM entries")}
    assert keys == {f"run{run}-{i}" for run in range(5) for i in range(writes)}  # nothing lost on the way
