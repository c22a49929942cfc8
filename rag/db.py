"""Database helpers of the rag engine: extensions and vector column introspection."""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured
from django.db import DatabaseError
from django.db.migrations.operations.base import Operation

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


class InlineVectors(Operation):
    """Keep a model's vector column in its table rows instead of the TOAST table.

    pgvector stores ``vector`` values with EXTERNAL storage, and PostgreSQL moves a value out of
    line once its row passes about 2 kB: a 384-d vector is 1.5 kB, so most rows lose theirs to
    the TOAST table, and an exact search then reads the TOAST index and pages for every row it
    compares (measured at 100k activities: 40,000 buffers and 340 ms to compare 10,000 rows).
    MAIN storage with a row target of a whole page keeps vectors up to about 8 kB inline; a
    larger one still goes out of line, as a last resort, instead of failing the write.

    Rows written before the change keep their TOASTed vectors until rewritten
    (``VACUUM FULL <table>``, docs/SCALING.md).
    """

    reduces_to_sql = True
    reversible = True

    def __init__(self, model_name: str, column: str = "embedding"):
        self.model_name = model_name
        self.column = column

    def state_forwards(self, app_label, state):
        pass  # storage only: the model state does not change

    def _run(self, app_label, schema_editor, to_state, *, storage: str, target: str) -> None:
        model = to_state.apps.get_model(app_label, self.model_name)
        quote = schema_editor.quote_name
        table, column = quote(model._meta.db_table), quote(self.column)
        schema_editor.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET STORAGE {storage}")
        schema_editor.execute(f"ALTER TABLE {table} {target}")

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        self._run(
            app_label,
            schema_editor,
            to_state,
            storage="MAIN",
            target="SET (toast_tuple_target = 8160)",
        )

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        self._run(
            app_label,
            schema_editor,
            to_state,
            storage="EXTERNAL",
            target="RESET (toast_tuple_target)",
        )

    def describe(self):
        return f"Store {self.model_name}.{self.column} inline (MAIN storage)"

    def deconstruct(self):
        return self.__class__.__name__, [self.model_name, self.column], {}
