"""How many rows a filter passes, cheaply enough to ask before every vector search.

A filtered vector search is exact over the passing rows when few pass and an HNSW scan when
many do (rag/search.py). Counting the passing rows to choose costs more than either search on a
large table (at 100k activities, counting up to 5,001 rows behind a 5 km radius took 40 ms, the
HNSW search 10 ms), so the choice is made on an estimate instead, as vector databases plan on
estimated filter cardinality: the filter is run over a fixed-size page sample of the table
(``TABLESAMPLE SYSTEM``, about ``SAMPLE_ROWS`` rows whatever the table's size: 1-3 ms) and
scaled up. Either choice returns the right rows (an HNSW scan that finds fewer than k falls
back to the exact search), so an estimate only risks a slower path, never a wrong answer.

An estimate over ``exact_max_rows`` that rests on fewer than ``MIN_SAMPLED_ROWS`` sampled rows
(at 10M messages one sampled row stands for 10,000, so a user of 1,000 messages with one
sampled page was estimated at 10,000 or more and sent to the HNSW path) is checked by counting
the passing rows up to ``exact_max_rows + 1``: a bounded read through the filter's index, no
more than the exact search it then chooses reads. Small tables, and tables PostgreSQL has not
analysed yet, are counted exactly (cheap there).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from django.db import connections
from django.db.models import QuerySet

from rag.db import ROW_ESTIMATE_SQL

__all__ = [
    "PathPlan",
    "count_and_plan",
    "count_upto",
    "exact_is_cheaper",
    "plan_vector_path",
]

# Rows read by one estimate: the relative error of the estimate is about 1/sqrt(passing rows
# in the sample), so a filter passing 10% is estimated within about 10%.
SAMPLE_ROWS = 1000
# pg_class.reltuples changes only with VACUUM/ANALYZE: reading it once a minute is enough.
RELTUPLES_TTL_SECONDS = 60.0
# Cost of one row compared by the exact scan and of one tuple visited by a filtered HNSW scan
# (relative units; at 100k x 384-d rows here about 3 and 12 microseconds).
EXACT_COST = 1.0
HNSW_COST = 4.0
# Below this many sampled rows an estimate is too coarse to decide on, and one over the limit is
# counted instead. p passing rows of the sample estimate the table's within about sqrt(p) rows
# of p (Poisson), and more loosely here: TABLESAMPLE SYSTEM reads whole pages, so a filter's rows
# come in clumps (one user's rows, 2-6 a page at 10M messages; docs/SCALING.md "Row
# estimates"); under 10 the error is a third of the estimate or more, and one sampled page of a
# user of 1,000 messages reads as 10,000. From 10 on the estimate decides, as before: there a
# wrong side of the limit costs little (both paths read a few thousand rows; an HNSW scan that
# finds fewer than k falls back to exact), while the count costs about what the exact search
# does (measured at 100k activities: counting every estimate within 3 sqrt(p) of the limit, the
# 5 km radius filters, doubled the statements of a search at p95; docs/SCALING.md). Not fitted.
MIN_SAMPLED_ROWS = 10
# The sample's REPEATABLE seed: the same data gives the same plan (reproducible searches).
SAMPLE_SEED = 7

_reltuples_cache: dict[tuple[str, str], tuple[float, float]] = {}
_reltuples_lock = threading.Lock()


@dataclass(frozen=True)
class PathPlan:
    """The vector search path for a filter: ``exact`` or ``hnsw``, and the rows behind it."""

    path: str
    rows: int
    estimated: bool


def count_upto(queryset: QuerySet, limit: int) -> int:
    """Count rows of a queryset, stopping at ``limit`` (cheap for large sets)."""
    return queryset.order_by()[:limit].count()


def _table_rows(alias: str, table: str) -> float | None:
    """Return PostgreSQL's row estimate for ``table`` (None when never analysed)."""
    key = (alias, table)
    now = time.monotonic()
    with _reltuples_lock:
        cached = _reltuples_cache.get(key)
    if cached is not None and now - cached[1] < RELTUPLES_TTL_SECONDS:
        value = cached[0]
    else:
        with connections[alias].cursor() as cursor:
            cursor.execute(ROW_ESTIMATE_SQL, [table])
            row = cursor.fetchone()
        value = float(row[0]) if row else -1.0
        with _reltuples_lock:
            _reltuples_cache[key] = (value, now)
    return value if value > 0 else None


@dataclass(frozen=True)
class _Sampling:
    """The SQL of a queryset's rows (``sql``) and of the same over a page sample (``sampled``)."""

    sql: str
    sampled: str
    params: tuple
    percent: float
    total: float

    def estimate(self, passing: int) -> int:
        """Scale the rows that passed in the sample up to the whole table."""
        return int(round(passing * 100.0 / self.percent))


def _sampling(queryset: QuerySet) -> _Sampling | None:
    """Return the sampling of ``queryset``'s rows, or None when it cannot be sampled."""
    alias = queryset.db
    connection = connections[alias]
    table = queryset.model._meta.db_table
    total = _table_rows(alias, table)
    if total is None or total <= SAMPLE_ROWS:
        return None
    percent = min(100.0, 100.0 * SAMPLE_ROWS / total)
    sql, params = queryset.order_by().values("pk").query.sql_with_params()
    quoted = connection.ops.quote_name(table)
    source = f"FROM {quoted}"
    if sql.count(source) != 1:
        return None  # a join or subquery on the same table: not ours to rewrite
    # The percentage is computed here, never from the caller: formatting it in is safe.
    sampled = sql.replace(
        source, f"{source} TABLESAMPLE SYSTEM ({percent:.6f}) REPEATABLE ({SAMPLE_SEED})"
    )
    return _Sampling(sql=sql, sampled=sampled, params=tuple(params), percent=percent, total=total)


def _passing(queryset: QuerySet, sampling: _Sampling) -> int:
    """Return the rows of ``queryset`` in its table's page sample."""
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM ({sampling.sampled}) AS sampled", sampling.params)
        return cursor.fetchone()[0]


def exact_is_cheaper(rows: int, *, total: float, k: int) -> bool:
    """Return whether comparing ``rows`` rows exactly costs less than a filtered HNSW scan.

    The exact scan reads every passing row: about ``EXACT_COST`` per row. A filtered HNSW scan
    visits about ``k / selectivity`` tuples for k passing ones: ``HNSW_COST`` per tuple (both
    measured on 100k x 384-d rows, docs/BENCHMARKS.md "Vector search"). They break even near
    ``rows = sqrt(HNSW_COST / EXACT_COST * k * total)``: 2,800 rows of 100k for k = 20, 8,900
    of 1M, so the cut grows with the table instead of staying one number.
    """
    if rows <= 0:
        return True
    return EXACT_COST * rows <= HNSW_COST * k * total / rows


def _path(rows: int, *, total: float | None, exact_max_rows: int, k: int | None) -> str:
    """Return the path for ``rows`` passing rows of ``total`` (None: a small table, counted)."""
    exact = rows <= exact_max_rows
    if exact and k and total:
        exact = exact_is_cheaper(rows, total=total, k=k)
    return "exact" if exact else "hnsw"


def _counted_plan(
    queryset: QuerySet, *, total: float | None, exact_max_rows: int, k: int | None
) -> PathPlan:
    """Return the path for the rows of ``queryset`` counted up to ``exact_max_rows + 1``."""
    counted = count_upto(queryset, exact_max_rows + 1)
    path = _path(counted, total=total, exact_max_rows=exact_max_rows, k=k)
    return PathPlan(path=path, rows=counted, estimated=False)


def _sampled_plan(
    queryset: QuerySet,
    sampling: _Sampling,
    passing: int,
    *,
    exact_max_rows: int,
    k: int | None,
) -> PathPlan:
    """Return the path for ``passing`` rows of ``queryset``'s sample: on the estimate, or on a
    count where the estimate is over ``exact_max_rows`` but rests on too few sampled rows."""
    estimate = sampling.estimate(passing)
    if estimate > exact_max_rows and passing < MIN_SAMPLED_ROWS:
        return _counted_plan(queryset, total=sampling.total, exact_max_rows=exact_max_rows, k=k)
    path = _path(estimate, total=sampling.total, exact_max_rows=exact_max_rows, k=k)
    return PathPlan(path=path, rows=estimate, estimated=True)


def count_and_plan(
    queryset: QuerySet, *, small: int, exact_max_rows: int, k: int | None = None
) -> tuple[int, PathPlan | None]:
    """Return the rows of ``queryset`` counted up to ``small + 1``, and the path past ``small``.

    The plan is None when at most ``small`` rows pass (the caller needs no vector path then).
    Where the table is sampled, the count and the sample are one statement: one round trip
    instead of two before every search (two when the estimate needs counting, see
    :func:`plan_vector_path`).
    """
    limit = small + 1
    sampling = _sampling(queryset)
    if sampling is None:
        counted = count_upto(queryset, limit)
        if counted <= small:
            return counted, None
        return counted, plan_vector_path(queryset, exact_max_rows=exact_max_rows, k=k)
    with connections[queryset.db].cursor() as cursor:
        # The limit is an int computed here, never text from the caller.
        cursor.execute(
            f"SELECT (SELECT count(*) FROM ({sampling.sql} LIMIT {int(limit)}) AS counted), "
            f"(SELECT count(*) FROM ({sampling.sampled}) AS sampled)",
            sampling.params + sampling.params,
        )
        counted, passing = cursor.fetchone()
    if counted <= small:
        return counted, None
    plan = _sampled_plan(queryset, sampling, passing, exact_max_rows=exact_max_rows, k=k)
    return counted, plan


def plan_vector_path(queryset: QuerySet, *, exact_max_rows: int, k: int | None = None) -> PathPlan:
    """Choose the vector search path for the rows of ``queryset`` (its filter applied).

    ``exact`` when at most ``exact_max_rows`` rows pass and, with ``k`` on a sampled table,
    when the exact scan is the cheaper one (:func:`exact_is_cheaper`); else ``hnsw``. The rows
    are estimated from the sample, and counted up to ``exact_max_rows + 1`` where no estimate is
    available or an estimate over ``exact_max_rows`` rests on too few sampled rows
    (:data:`MIN_SAMPLED_ROWS`).
    """
    sampling = _sampling(queryset)
    if sampling is None:
        return _counted_plan(queryset, total=None, exact_max_rows=exact_max_rows, k=k)
    passing = _passing(queryset, sampling)
    return _sampled_plan(queryset, sampling, passing, exact_max_rows=exact_max_rows, k=k)
