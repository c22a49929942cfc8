"""Helpers of the tests that run real worker processes (qcluster, serve)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[2]
# The bound: a stopped worker is gone within this many seconds.
STOP_BOUND_SECONDS = 10.0


def start(env: dict, *args: str, log: Path) -> subprocess.Popen:
    """Start ``manage.py <args>`` in its own process group, output to ``log``."""
    return subprocess.Popen(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def tree(process: subprocess.Popen) -> list[psutil.Process]:
    """Return the process and all its descendants."""
    try:
        parent = psutil.Process(process.pid)
        return [parent, *parent.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def wait_for_clusters(
    process: subprocess.Popen, clusters: int, workers: int, log: Path, *, forked: bool = False
):
    """Wait until ``clusters`` qcluster trees with ``workers`` workers in all are up.

    ``forked``: the clusters are forked children of ``process`` (``manage.py serve``), whose
    command line they keep, rather than ``qcluster`` processes of their own.
    """
    # Each cluster: main, sentinel, pusher, monitor and its workers; serve's forked clusters
    # have no main process (the sentinel is serve's child).
    expected = clusters * (3 if forked else 4) + workers
    deadline = time.monotonic() + 180
    while True:
        assert process.poll() is None, log.read_text()
        if forked:
            procs = tree(process)[1:]
        else:
            procs = [p for p in tree(process) if "qcluster" in " ".join(_cmdline(p))]
        if len(procs) >= expected and log.read_text().count("] running.") >= clusters:
            return procs
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.3)


def _cmdline(process: psutil.Process) -> list[str]:
    try:
        return process.cmdline()
    except psutil.Error:
        return []


def still_there(processes: list[psutil.Process]) -> list[str]:
    """Describe the processes of ``processes`` that still exist, zombies included."""
    left = []
    for p in processes:
        try:
            if p.is_running():
                left.append(f"{p.pid} {p.status()}")
        except psutil.NoSuchProcess:
            continue
    return left


def wait_for_file(path: Path, process: subprocess.Popen, log: Path, limit: float = 120) -> None:
    """Wait until ``path`` exists while ``process`` runs."""
    deadline = time.monotonic() + limit
    while not path.exists():
        assert process.poll() is None, log.read_text()
        assert time.monotonic() < deadline, f"{path.name} never appeared\n{log.read_text()}"
        time.sleep(0.1)


def kill_group(process: subprocess.Popen) -> None:
    """Stop what a test started: SIGTERM, then kill the whole tree (cleanup after a failure)."""
    procs = tree(process)
    if process.poll() is None:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=STOP_BOUND_SECONDS + 5)
    for p in procs:
        with contextlib.suppress(psutil.Error):
            p.kill()
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()
