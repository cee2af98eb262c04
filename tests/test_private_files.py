"""Files relaykit writes are created 0600 in 0700 folders; settings read the call timeout."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from relaykit.errors import UsageError
from relaykit.settings import load_settings, private_dir, private_file


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_private_file_creates_0600_in_new_0700_folders(tmp_path: Path) -> None:
    old = os.umask(0o022)  # the common default, under which open() would give 0644
    try:
        file = private_file(tmp_path / "home" / "sub" / "runs.sqlite")
    finally:
        os.umask(old)
    assert file.is_file() and mode(file) == 0o600
    assert mode(tmp_path / "home") == 0o700 and mode(tmp_path / "home" / "sub") == 0o700


def test_private_file_keeps_an_existing_file(tmp_path: Path) -> None:
    file = tmp_path / "trace.jsonl"
    file.write_text("line\n")
    file.chmod(0o640)
    private_file(file)
    assert file.read_text() == "line\n" and mode(file) == 0o640


def test_private_dir_is_idempotent(tmp_path: Path) -> None:
    home = private_dir(tmp_path / "relaykit-home")
    assert private_dir(home) == home and mode(home) == 0o700


def test_relaykit_timeout_setting() -> None:
    assert load_settings({}).timeout is None
    assert load_settings({"RELAYKIT_TIMEOUT": "2.5"}).timeout == 2.5
    for bad in ("0", "-3", "abc", "inf", "nan"):
        with pytest.raises(UsageError, match="RELAYKIT_TIMEOUT"):
            load_settings({"RELAYKIT_TIMEOUT": bad})
