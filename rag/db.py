"""Database helpers of the rag engine: extensions and vector column introspection."""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured
from django.db import DatabaseError

REQUIRED_EXTENSIONS = ("vector", "pg_trgm")


def ensure_extensions(connection) -> None:
    """Create the required extensions, or explain what a superuser must run."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT extname FROM pg_extension WHERE extname = ANY(%s)", [list(REQUIRED_EXTENSIONS)]
        )
        present = {row[0] for row in cursor.fetchall()}
    for name in REQUIRED_EXTENSIONS:
        if name in present:
            continue
        try:
            _execute_in_savepoint(connection, f"CREATE EXTENSION IF NOT EXISTS {name}")
        except DatabaseError as exc:
            raise ImproperlyConfigured(
                f"The PostgreSQL extension '{name}' is missing and this role may not create it "
                f"({exc}). Ask a superuser to run, in database "
                f"'{connection.settings_dict.get('NAME')}': CREATE EXTENSION IF NOT EXISTS {name};"
            ) from exc


def _execute_in_savepoint(connection, sql: str) -> None:
    """Run one statement so that its failure leaves the connection usable.

    Inside a transaction (a migration's) the statement gets a savepoint, so a failed CREATE
    does not abort it; in autocommit mode it is its own transaction. The connection object is
    used directly: it need not be registered in ``django.db.connections``.
    """
    if not connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute(sql)
        return
    sid = connection.savepoint()
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql)
    except DatabaseError:
        connection.savepoint_rollback(sid)
        raise
    connection.savepoint_commit(sid)


def vector_column_dimensions(connection, table: str, column: str) -> int | None:
    """Return the declared dimension of a vector column (None if absent or untyped)."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT a.atttypmod FROM pg_attribute a
            JOIN pg_class c ON c.oid = a.attrelid
            WHERE c.relname = %s AND a.attname = %s AND NOT a.attisdropped
              AND c.relkind = 'r' AND pg_table_is_visible(c.oid)
            """,
            [table, column],
        )
        row = cursor.fetchone()
    if row is None or row[0] is None or row[0] < 0:
        return None
    return int(row[0])
