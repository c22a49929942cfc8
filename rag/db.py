"""Database helpers of the rag engine: extensions and vector column introspection."""

from __future__ import annotations

import os
from dataclasses import dataclass

from django.core.exceptions import ImproperlyConfigured
from django.db import DatabaseError
from django.db.migrations.operations.base import Operation

from rag.fields import configured_dimensions

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


# PostgreSQL's row estimate of a table (pg_class.reltuples; -1: never analysed). A partitioned
# table's own estimate is set only by an ANALYZE of the parent, which autovacuum never runs:
# its partitions' estimates are summed instead (memory's message table, migration 0013).
ROW_ESTIMATE_SQL = """
SELECT CASE WHEN c.relkind = 'p' THEN (
    SELECT coalesce(sum(p.reltuples) FILTER (WHERE p.reltuples >= 0), -1)
    FROM pg_partition_tree(c.oid) t JOIN pg_class p ON p.oid = t.relid WHERE t.isleaf
) ELSE c.reltuples END
FROM pg_class c WHERE c.oid = %s::regclass
"""


def vector_column_dimensions(connection, table: str, column: str) -> int | None:
    """Return the declared dimension of a vector column (None if absent or untyped)."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT a.atttypmod FROM pg_attribute a
            JOIN pg_class c ON c.oid = a.attrelid
            WHERE c.relname = %s AND a.attname = %s AND NOT a.attisdropped
              AND c.relkind IN ('r', 'p') AND pg_table_is_visible(c.oid)
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

    def _run(self, app_label, schema_editor, to_state, storage: str, target: str) -> None:
        model = to_state.apps.get_model(app_label, self.model_name)
        quote = schema_editor.quote_name
        table, column = quote(model._meta.db_table), quote(self.column)
        schema_editor.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET STORAGE {storage}")
        schema_editor.execute(f"ALTER TABLE {table} {target}")

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        self._run(app_label, schema_editor, to_state, "MAIN", "SET (toast_tuple_target = 8160)")

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        self._run(app_label, schema_editor, to_state, "EXTERNAL", "RESET (toast_tuple_target)")

    def describe(self):
        return f"Store {self.model_name}.{self.column} inline (MAIN storage)"

    def deconstruct(self):
        return self.__class__.__name__, [self.model_name, self.column], {}


@dataclass(frozen=True)
class HalfvecHnsw:
    """An HNSW index over a vector column cast to ``halfvec`` (pgvector >= 0.7).

    The rows keep full-precision vectors; only the index holds 2-byte floats, so the graph takes
    about half the memory and I/O of a ``vector`` HNSW (issue 34: the index is what a search
    reads, and what must stay in the buffer cache). ``rag.search.vector_search`` orders by the
    same cast to use it and re-ranks the candidates by the full-precision distance.
    ``condition``: the SQL predicate of a partial index (rows no search reads stay out of it);
    a search must repeat it in its WHERE clause for the planner to use the index. The dimension
    is not part of the definition: it is the column's (``EMBEDDING_DIMENSIONS``), filled in
    when the index is built, so ``rag_migrate_dimensions`` can rebuild it.
    """

    name: str
    column: str = "embedding"
    condition: str = ""
    m: int = 16
    ef_construction: int = 64

    def create_sql(self, table: str, dimensions: int, quote=lambda s: f'"{s}"') -> str:
        where = f" WHERE {self.condition}" if self.condition else ""
        return (
            f"CREATE INDEX IF NOT EXISTS {quote(self.name)} ON {quote(table)} USING hnsw "
            f"(({quote(self.column)}::halfvec({int(dimensions)})) halfvec_cosine_ops) "
            f"WITH (m = {int(self.m)}, ef_construction = {int(self.ef_construction)}){where}"
        )

    def drop_sql(self, quote=lambda s: f'"{s}"') -> str:
        return f"DROP INDEX IF EXISTS {quote(self.name)}"


def half_index(model, field: str = "embedding") -> HalfvecHnsw | None:
    """Return the halfvec HNSW index a model declares on ``field`` (``ann_index``), if any."""
    index = getattr(model, "ann_index", None)
    if isinstance(index, HalfvecHnsw) and index.column == model._meta.get_field(field).column:
        return index
    return None


def build_vector_indexes(connection, model, dimensions: int | None = None) -> list[str]:
    """(Re)build the halfvec HNSW index of ``model`` at the column's dimension; return names.

    Used after a bulk load (an index built once is much faster than one filled row by row) and
    by ``rag_migrate_dimensions`` after a column changes dimension.
    """
    index = getattr(model, "ann_index", None)
    if not isinstance(index, HalfvecHnsw):
        return []
    table = model._meta.db_table
    if dimensions is None:
        dimensions = vector_column_dimensions(connection, table, index.column)
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(index.drop_sql(quote))
        cursor.execute(index.create_sql(table, dimensions, quote))
    return [index.name]


# Bytes per row of an HNSW graph under construction beyond the vector: pgvector's element and
# its neighbour lists (2 x m candidates of 16 bytes at level 0, m per upper level): about 600
# at m 16. An estimate from pgvector's in-memory layout; a build that outgrows it says so
# ("hnsw graph no longer fits into maintenance_work_mem") and goes on, slower.
HNSW_ROW_OVERHEAD = 600


def hnsw_build_bytes(rows: int, dimensions: int, *, half: bool = True) -> int:
    """Return the memory an in-memory HNSW build of ``rows`` vectors needs (an estimate)."""
    return int(rows * (dimensions * (2 if half else 4) + HNSW_ROW_OVERHEAD) * 1.1)


def sized_maintenance_work_mem(connection, model, *, ram_bytes: int | None = None) -> str:
    """Return a ``maintenance_work_mem`` that holds ``model``'s HNSW graph while it is built,
    at most a quarter of the machine's memory (a graph that spills builds several times
    slower) and at least 64MB; from the table's row estimate (``reltuples``)."""
    ram = ram_bytes or os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    table = model._meta.db_table
    index = getattr(model, "ann_index", None)
    column = index.column if isinstance(index, HalfvecHnsw) else "embedding"
    dims = vector_column_dimensions(connection, table, column) or 384
    with connection.cursor() as cursor:
        cursor.execute(ROW_ESTIMATE_SQL, [table])
        row = cursor.fetchone()
    rows = max(0, int(row[0])) if row else 0
    need = hnsw_build_bytes(rows, dims, half=isinstance(index, HalfvecHnsw))
    mb = max(64, min(need, ram // 4) // 2**20)
    return f"{mb}MB"


class CreateHalfvecHnsw(Operation):
    """Build a model's :class:`HalfvecHnsw` index at the column's present dimension.

    Django's model state does not carry it (its dimension follows ``EMBEDDING_DIMENSIONS``,
    which migrations leave out): the model names it in ``ann_index``.
    """

    reduces_to_sql = True
    reversible = True

    def __init__(self, model_name: str, name: str, column: str = "embedding", condition: str = ""):
        self.model_name = model_name
        self.index = HalfvecHnsw(name=name, column=column, condition=condition)

    def state_forwards(self, app_label, state):
        pass  # the model state does not change (see the class docstring)

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        model = to_state.apps.get_model(app_label, self.model_name)
        table = model._meta.db_table
        dims = vector_column_dimensions(schema_editor.connection, table, self.index.column)
        if dims is None:
            dims = configured_dimensions()
        schema_editor.execute(self.index.create_sql(table, dims, schema_editor.quote_name))

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        schema_editor.execute(self.index.drop_sql(schema_editor.quote_name))

    def describe(self):
        return f"Create halfvec HNSW index {self.index.name} on {self.model_name}"

    def deconstruct(self):
        kwargs = {"column": self.index.column, "condition": self.index.condition}
        return self.__class__.__name__, [self.model_name, self.index.name], kwargs
