"""A real streaming replica of the test's embedded PostgreSQL (pg_basebackup -R, pg_ctl).

Used by bench/replica.py. The embedded server (pgserver) listens on a Unix socket only; the
replica gets its own socket directory. As root, pgserver runs PostgreSQL as the ``pgserver``
user, so the replica's files and process are that user's. Its programs are the embedded
server's own (``tests.schema_cache.bin_dir``: its ``pg_config --bindir``).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg

from config.embedded_db import system_user
from tests.schema_cache import bin_dir


def missing_tools() -> list[str]:
    """Return the PostgreSQL programs a replica needs that are not there."""
    return [name for name in ("pg_basebackup", "pg_ctl") if not (bin_dir() / name).exists()]


def _run(args: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        args, check=True, capture_output=True, text=True, user=system_user(), timeout=300, **kwargs
    )


def primary_conninfo(settings_dict: dict) -> str:
    """Return a libpq conninfo for the primary described by a Django DATABASES entry."""
    parts = [f"host={settings_dict['HOST']}", f"user={settings_dict['USER']}"]
    if settings_dict.get("PORT"):
        parts.append(f"port={settings_dict['PORT']}")
    if settings_dict.get("PASSWORD"):
        parts.append(f"password={settings_dict['PASSWORD']}")
    return " ".join(parts)


def allow_replication(conninfo: str) -> None:
    """Make the primary accept a local replication connection (checked, changed only if not)."""
    with psycopg.connect(conninfo + " dbname=postgres", autocommit=True) as conn:
        wal_level = conn.execute("SHOW wal_level").fetchone()[0]
        senders = int(conn.execute("SHOW max_wal_senders").fetchone()[0])
        if wal_level == "minimal" or senders < 1:
            raise RuntimeError(
                f"the primary cannot stream (wal_level={wal_level}, max_wal_senders={senders})"
            )
        rules = conn.execute(
            "SELECT count(*) FROM pg_hba_file_rules"
            " WHERE type = 'local' AND 'replication' = ANY(database) AND error IS NULL"
        ).fetchone()[0]
        if rules:
            return
        hba = conn.execute("SHOW hba_file").fetchone()[0]
        with open(hba) as handle:
            text = handle.read()
        with open(hba, "w") as handle:
            handle.write("local replication all trust\n" + text)
        conn.execute("SELECT pg_reload_conf()")


@dataclass
class Replica:
    """A running streaming replica: its data dir, socket dir and log."""

    root: Path
    data: Path
    socket_dir: Path
    log: Path
    port: int = 5432

    def settings_dict(self, primary: dict) -> dict:
        """Return a DATABASES entry for the replica: the primary's, on the replica's socket."""
        entry = {**primary, "HOST": str(self.socket_dir), "PORT": str(self.port)}
        entry["OPTIONS"] = {**(primary.get("OPTIONS") or {}), "connect_timeout": 2}
        entry["TEST"] = {"MIRROR": "default"}
        return entry

    def conninfo(self, user: str, dbname: str) -> str:
        return f"host={self.socket_dir} port={self.port} user={user} dbname={dbname}"

    def running(self) -> bool:
        result = subprocess.run(
            [str(bin_dir() / "pg_ctl"), "-D", str(self.data), "status"],
            capture_output=True,
            user=system_user(),
        )
        return result.returncode == 0

    def stop(self) -> None:
        """Stop the replica at once (``-m immediate``: as if its machine went away)."""
        if self.running():
            _run([str(bin_dir() / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"])

    def remove(self) -> None:
        """Stop the replica and delete its files (the directory stays for a next replica)."""
        try:
            self.stop()
        finally:
            shutil.rmtree(self.data, ignore_errors=True)

    def discard(self) -> None:
        """Stop the replica and delete everything, its directory included."""
        try:
            self.stop()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def new_replica() -> Replica:
    """Return where a replica will live (its socket directory exists, nothing runs yet)."""
    root = Path(tempfile.mkdtemp(prefix="semmem-replica-"))
    data, socket_dir, log = root / "data", root / "run", root / "replica.log"
    socket_dir.mkdir()
    if system_user():
        shutil.chown(root, system_user())
        shutil.chown(socket_dir, system_user())
    return Replica(root=root, data=data, socket_dir=socket_dir, log=log)


def create_replica(primary: dict, replica: Replica | None = None) -> Replica:
    """Copy the primary with ``pg_basebackup -R`` and start it as a hot standby."""
    conninfo = primary_conninfo(primary)
    allow_replication(conninfo)
    replica = replica or new_replica()
    data, socket_dir, log = replica.data, replica.socket_dir, replica.log
    try:
        _run(
            [
                str(bin_dir() / "pg_basebackup"),
                "-d",
                conninfo,
                "-D",
                str(data),
                "-R",  # standby.signal + primary_conninfo: start as a streaming replica
                "-X",
                "stream",
                "-c",
                "fast",
            ]
        )
        options = f"-h '' -k {socket_dir} -p {replica.port} -c hot_standby=on"
        _run(
            [
                str(bin_dir() / "pg_ctl"),
                "-D",
                str(data),
                "-o",
                options,
                "-l",
                str(log),
                "-w",
                "-t",
                "120",
                "start",
            ]
        )
    except BaseException:
        replica.remove()
        raise
    return replica


def wait_for_replay(primary: dict, replica: Replica, *, limit: float = 60.0) -> None:
    """Wait until the replica has replayed everything the primary has written so far."""
    with psycopg.connect(primary_conninfo(primary) + " dbname=postgres", autocommit=True) as conn:
        target = conn.execute("SELECT pg_current_wal_lsn()").fetchone()[0]
    deadline = time.monotonic() + limit
    with psycopg.connect(replica.conninfo(primary["USER"], "postgres"), autocommit=True) as conn:
        while True:
            behind = conn.execute(
                "SELECT pg_wal_lsn_diff(%s::pg_lsn, pg_last_wal_replay_lsn()) > 0", [str(target)]
            ).fetchone()[0]
            if not behind:
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"the replica did not replay up to {target}")
            time.sleep(0.05)
