"""Reach the PostgreSQL server the tests run on: fresh databases, roles, ``manage.py`` runs.

Tests that must not touch the shared test database (migrating from zero, switching the
embedding provider) create a database of their own on the same server and run
``manage.py`` against it in a subprocess, exactly as an operator would.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import psycopg
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


def server_params() -> dict:
    """Return libpq keyword arguments for the test server (without a database name)."""
    db = settings.DATABASES["default"]
    params = {
        "host": db.get("HOST") or db.get("OPTIONS", {}).get("host") or None,
        "port": db.get("PORT") or None,
        "user": db.get("USER") or None,
        "password": db.get("PASSWORD") or None,
    }
    return {k: v for k, v in params.items() if v is not None}


def connect(dbname: str = "postgres", **overrides) -> psycopg.Connection:
    """Open an autocommit psycopg connection to a database of the test server."""
    return psycopg.connect(dbname=dbname, autocommit=True, **{**server_params(), **overrides})


def database_url(dbname: str, *, user: str | None = None) -> str:
    """Return a DATABASE_URL for a database of the test server."""
    params = server_params()
    user = quote(user or params.get("user", "postgres"))
    password = "" if user != params.get("user") else quote(params.get("password", ""))
    host = params.get("host", "")
    if host.startswith("/"):
        return f"postgresql://{user}:{password}@/{dbname}?host={quote(host)}"
    port = params.get("port", 5432)
    return f"postgresql://{user}:{password}@{host}:{port}/{dbname}"


@contextmanager
def fresh_database(prefix: str = "fresh", *, owner: str | None = None):
    """Create an empty database (no extensions) on the test server; drop it afterwards."""
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    with connect() as conn:
        conn.execute(f'CREATE DATABASE "{name}"' + (f' OWNER "{owner}"' if owner else ""))
    try:
        yield name
    finally:
        with connect() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def manage_env(dbname: str, env: dict | None = None) -> dict:
    """Return the environment of a ``manage.py`` child process using ``dbname``."""
    child_env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("EMBEDDING_", "EMBEDDED_DB_", "DJANGO_"))
    }
    child_env.update(
        DATABASE_URL=database_url(dbname),
        DJANGO_SETTINGS_MODULE="config.settings_test",
        PYTHONPATH=str(ROOT),
        OMP_NUM_THREADS="1",
    )
    child_env.update(env or {})
    return child_env


def manage(dbname: str, *args: str, env: dict | None = None, timeout: float = 120):
    """Run ``manage.py ARGS`` against a database of the test server; return the result."""
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=manage_env(dbname, env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
