"""The embedded server's start lock and the private directory it lives in (no server started)."""

from __future__ import annotations

import os

import pytest

from config import embedded_db


@pytest.fixture
def runtime(tmp_path, monkeypatch):
    """A private runtime directory of this test (``SEMMEM_RUNTIME_DIR``), not made yet."""
    path = tmp_path / "runtime"
    monkeypatch.setenv("SEMMEM_RUNTIME_DIR", str(path))
    return path


def test_the_start_lock_of_a_data_dir_is_one_file_whatever_the_session(
    tmp_path, runtime, monkeypatch
):
    """A login shell and a cron job (other XDG_RUNTIME_DIR and TMPDIR) must wait for each other."""
    locked: list[str] = []
    monkeypatch.setattr(
        embedded_db.fcntl,
        "flock",
        lambda handle, op: locked.append(handle.name) if op == embedded_db.fcntl.LOCK_EX else None,
    )
    for session in ("login", "cron"):
        (tmp_path / session).mkdir(mode=0o700)
        monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / session))
        monkeypatch.setenv("TMPDIR", str(tmp_path / session))
        with embedded_db._start_lock(tmp_path / "pg"):
            pass
    assert len(locked) == 2
    assert locked[0] == locked[1]
    assert os.path.dirname(locked[0]) == str(runtime)


def test_the_private_dir_is_made_owner_only(runtime):
    assert embedded_db.private_dir() == runtime
    assert runtime.stat().st_mode & 0o777 == 0o700


def test_a_private_dir_others_can_write_is_refused(runtime):
    """A lock file there could be planted (a symlink, a FIFO) or held by someone else."""
    runtime.mkdir()
    runtime.chmod(0o777)
    with pytest.raises(RuntimeError, match="no one else can write"):
        embedded_db.private_dir()


def test_a_private_dir_that_is_a_symlink_is_refused(tmp_path, runtime):
    (tmp_path / "elsewhere").mkdir(mode=0o700)
    runtime.symlink_to(tmp_path / "elsewhere")
    with pytest.raises(RuntimeError, match="no one else can write"):
        embedded_db.private_dir()
