"""Search primitives usable on any model with a vector or segmented-text column.

- :func:`vector_search`: filtered nearest neighbours that return k rows whenever
  k rows pass the filter. A selective filter (at most ``exact_search_max_rows``
  rows) is searched exactly; otherwise the HNSW index is scanned with
  ``hnsw.iterative_scan = relaxed_order`` (pgvector >= 0.8) and the rows are
  re-sorted, since relaxed order may return them slightly out of order. A model that
  declares a halfvec index (``ann_index``, :class:`rag.db.HalfvecHnsw`) is scanned through it
  and its candidates re-ranked by the full-precision distance.
- :func:`fulltext_search`: ``ts_rank_cd`` over ``to_tsvector('simple', col)`` of a
  column holding jieba-segmented text, with the rag query parser.
- :func:`rrf`: reciprocal-rank fusion. :func:`maxsim`: best similarity to a set.

The two searches return a :class:`SearchReport` saying how they ran (path taken,
candidates, rows before and after the floor); :func:`rrf` and :func:`maxsim` are pure
functions over what they are given, so their inputs already say where results came from.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from operator import attrgetter

import numpy as np
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector
from django.db import connections, router, transaction
from django.db.models import FloatField, QuerySet, Value
from django.db.models.expressions import ExpressionWrapper
from django.db.models.functions import Cast
from pgvector.django import CosineDistance, HalfVectorField

from rag.cardinality import plan_vector_path
from rag.db import half_index
from rag.fields import configured_dimensions, vector_literal
from rag.selectors import rag_settings_get
from rag.text import parse_query

TS_CONFIG = "simple"

# Extra candidates read from a halfvec HNSW index before the full-precision re-rank keeps k:
# k + max(this, k / 2). On 200k generated activities (bench/search_latency.py data, no quality
# split involved) 20, 40 and 100 candidates for k 20 gave the same recall@20 against exact
# search (15 queries, ef_search 200: 0.817, 400: 0.887): there the graph, not half precision,
# misses rows, and ef_search is what raises recall (docs/BENCHMARKS.md). At 1M rows (same
# generator, 100 queries, `bench/search_latency.py --sweep`) 100 candidates instead of 40 did raise
# it (ef_search 200: 0.592 -> 0.647 by id; 400: 0.670 -> 0.716), because a longer LIMIT drives
# the iterative scan further through the graph, at 1.7-1.9x the backend CPU; ef_search 1000 with
# 40 candidates bought more (0.734) for less, so this stays 20 and ef_search (live, RagSettings)
# is the setting. The re-rank makes the scores and the order full precision.
HALF_RERANK_EXTRA = 20


@dataclass
class SearchReport:
    """How a search ran, for callers that explain their results."""

    path: str = ""
    candidates: int = 0
    before_floor: int = 0
    after_floor: int = 0
    floor: float | None = None
    ef_search: int | None = None
    filtered_rows: int | None = None
    filtered_estimated: bool = False  # filtered_rows estimated from a sample (rag/cardinality.py)
    query: str | None = None
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class Hit:
    """One result: the row, its score, and its 1-based rank in this list."""

    obj: object
    score: float
    rank: int


def search_vector(column: str) -> SearchVector:
    """Return the tsvector expression that the full-text index is built on."""
    return SearchVector(column, config=TS_CONFIG)


def fulltext_index(column: str, name: str) -> GinIndex:
    """Return a GIN index over the same expression :func:`fulltext_search` queries."""
    return GinIndex(search_vector(column), name=name)


def exact_by_bound(rows_at_most: int | None, *, exact_limit: int | None = None) -> bool:
    """Return whether a filter passing at most ``rows_at_most`` rows (a bound its caller
    counted; None: none known) is searched exactly without estimating its rows: at most
    ``exact_limit`` (default: the live ``exact_search_max_rows``)."""
    if rows_at_most is None:
        return False
    if exact_limit is None:
        exact_limit = rag_settings_get().exact_search_max_rows
    return rows_at_most <= exact_limit


def vector_search(
    queryset: QuerySet,
    query_vector: Sequence[float],
    *,
    k: int,
    field: str = "embedding",
    floor: float | None = None,
    ef_search: int | None = None,
    exact_max_rows: int | None = None,
    force_path: str | None = None,
    tiebreak: Sequence[str] = (),
    rows_at_most: int | None = None,
) -> tuple[list[Hit], SearchReport]:
    """Return the k rows of ``queryset`` nearest to ``query_vector`` by cosine.

    ``queryset`` carries the filter; rows whose vector is NULL are skipped.
    ``score`` is the cosine similarity (1 - cosine distance). ``force_path`` is
    "exact" or "hnsw" (benchmarks and tests); normally the path is chosen here.
    ``tiebreak``: fields ordering rows at the same distance ("-ts": descending).
    ``rows_at_most``: a bound on the rows passing the filter that the caller has counted
    already; at most the exact limit, the search is exact without estimating them (the plan's
    page sample is a statement of its own: one round trip fewer).
    """
    settings_row = rag_settings_get()
    ef = int(ef_search or settings_row.ef_search)
    exact_limit = (
        settings_row.exact_search_max_rows if exact_max_rows is None else int(exact_max_rows)
    )
    report = SearchReport(floor=floor)
    if k <= 0:
        report.path = "none"
        return [], report
    base = queryset.filter(**{f"{field}__isnull": False})
    distance = CosineDistance(field, Value(vector_literal(query_vector)))
    path = force_path
    if path is None and exact_by_bound(rows_at_most, exact_limit=exact_limit):
        path, report.filtered_rows = "exact", rows_at_most
    if path is None:
        if queryset.query.where:
            # An estimate, not a count: counting costs more than the search (rag/cardinality.py).
            plan = plan_vector_path(base, exact_max_rows=exact_limit)
            path, report.filtered_rows = plan.path, plan.rows
            report.filtered_estimated = plan.estimated
        else:
            path = "hnsw"
    alias = connections[router.db_for_read(queryset.model)].alias

    def exact_rows() -> list:
        # Adding 0 hides the distance from the HNSW opclass, so the planner uses the
        # filter's own indexes and sorts every passing row: exact, and fast when few pass.
        annotated = base.annotate(
            _distance=ExpressionWrapper(distance + Value(0.0), output_field=FloatField())
        )
        return list(annotated.order_by("_distance", *tiebreak)[:k])

    half = half_index(queryset.model, field)
    if path == "exact":
        rows = exact_rows()
    else:
        report.ef_search = ef
        pool = k
        if half is None:
            annotated = base.annotate(_distance=distance)
        else:
            # Order by the same halfvec cast the index is built on, so the planner uses it;
            # take a few more candidates than asked and keep the k nearest by the full-precision
            # distance (half precision and the graph both reorder near neighbours a little).
            pool = k + max(HALF_RERANK_EXTRA, k // 2)
            dims = HalfVectorField(dimensions=configured_dimensions())
            half_distance = CosineDistance(
                Cast(field, dims), Cast(Value(vector_literal(query_vector)), dims)
            )
            annotated = base.annotate(_ann=half_distance, _distance=distance).order_by("_ann")
        # set_config(..., true) lasts until the end of the *outer* transaction, even when set
        # in a savepoint that is released; rolling the (read-only) block back undoes it, so
        # later queries of the caller's transaction do not inherit relaxed ordering.
        # The path is chosen above on a sampled row count; PostgreSQL's own estimate of a
        # filter with expressions (a radius, a column compared with a column) is several times
        # too low, so left alone it reads every passing row through a bitmap and sorts them:
        # the exact search, only slower (100k activities, 5 km radius, 5,000 rows: 50-137 ms
        # against 11 ms through the index; docs/BENCHMARKS.md "Search latency"). Turning the
        # bitmap, sequential and sort plans off for this block leaves the index.
        with transaction.atomic(using=alias):
            with connections[alias].cursor() as cursor:
                cursor.execute(
                    "SELECT set_config('hnsw.ef_search', %s, true),"
                    " set_config('hnsw.iterative_scan', 'relaxed_order', true),"
                    " set_config('enable_bitmapscan', 'off', true),"
                    " set_config('enable_seqscan', 'off', true),"
                    " set_config('enable_sort', 'off', true)",
                    [str(max(ef, pool))],
                )
            if half is None:
                rows = list(annotated.order_by("_distance")[:k])
            else:
                rows = list(annotated[:pool])
                rows.sort(key=lambda r: r._distance)
                rows = rows[:k]
            transaction.set_rollback(True, using=alias)
        for name in reversed(tiebreak):  # stable sorts: the last one decides first
            rows.sort(key=attrgetter(name.lstrip("-")), reverse=name.startswith("-"))
        rows.sort(key=lambda r: r._distance)  # relaxed_order may be slightly out of order
        if len(rows) < k:
            # An iterative scan ends at hnsw.max_scan_tuples or hnsw.scan_mem_multiplier x
            # work_mem, before k rows pass a selective filter (measured: 0 rows for a 1%
            # filter on 100k rows). Fewer than k from the index may still mean k pass.
            exact = exact_rows()
            if len(exact) > len(rows):
                report.notes.append(
                    f"hnsw returned {len(rows)} of {k} rows; searched exactly instead"
                )
                rows, path = exact, "exact"
    report.path = path
    report.candidates = len(rows)
    report.before_floor = len(rows)
    hits = []
    for row in rows:
        similarity = 1.0 - float(row._distance)
        if floor is not None and similarity < floor:
            continue
        row.similarity = similarity
        hits.append(Hit(obj=row, score=similarity, rank=len(hits) + 1))
    report.after_floor = len(hits)
    return hits, report


def fulltext_search(
    queryset: QuerySet,
    query: str,
    *,
    k: int,
    column: str = "search_text",
    default_operator: str = "and",
    drop_stopwords: bool = False,
) -> tuple[list[Hit], SearchReport]:
    """Return up to k rows matching a full-text query, best ``ts_rank_cd`` first."""
    tsquery = parse_query(query, default_operator=default_operator, drop_stopwords=drop_stopwords)
    report = SearchReport(path="fulltext", query=tsquery)
    if not tsquery or k <= 0:
        return [], report
    search_query = SearchQuery(tsquery, search_type="raw", config=TS_CONFIG)
    vector = search_vector(column)
    rows = list(
        queryset.annotate(_rank=SearchRank(vector, search_query, cover_density=True))
        .alias(_vector=vector)
        .filter(_vector=search_query)
        .order_by("-_rank", "pk")[:k]
    )
    report.candidates = report.before_floor = report.after_floor = len(rows)
    hits = []
    for i, row in enumerate(rows, start=1):
        row.rank_score = float(row._rank)
        hits.append(Hit(obj=row, score=float(row._rank), rank=i))
    return hits, report


@dataclass
class Fused:
    """A fused result: its key, the RRF score, and its rank in each input list."""

    key: Hashable
    score: float
    ranks: list[int | None]


def rrf(ranked_lists: Sequence[Iterable[Hashable]], *, k: int | None = None) -> list[Fused]:
    """Fuse ranked lists of keys by reciprocal rank: sum of 1 / (k + rank).

    Ties keep the order of first appearance (list order, then rank).
    """
    k = int(k if k is not None else rag_settings_get().fusion_k)
    scores: dict[Hashable, float] = {}
    ranks: dict[Hashable, list[int | None]] = {}
    order: dict[Hashable, int] = {}
    for list_index, keys in enumerate(ranked_lists):
        for rank, key in enumerate(keys, start=1):
            if key not in ranks:
                ranks[key] = [None] * len(ranked_lists)
                order[key] = len(order)
            if ranks[key][list_index] is not None:
                continue  # a key counted once per list
            ranks[key][list_index] = rank
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
    fused = [Fused(key=key, score=scores[key], ranks=ranks[key]) for key in ranks]
    fused.sort(key=lambda f: (-f.score, order[f.key]))
    return fused


def maxsim(vector: Sequence[float], others: Sequence[Sequence[float]]) -> float | None:
    """Return the highest cosine similarity of ``vector`` to any of ``others``."""
    if not len(others):
        return None
    a = np.asarray(vector, dtype=np.float32)
    b = np.asarray(others, dtype=np.float32)
    a_norm = np.linalg.norm(a)
    b_norm = np.linalg.norm(b, axis=1)
    if a_norm == 0:
        return None
    sims = (b @ a) / np.maximum(b_norm * a_norm, 1e-12)
    return float(sims.max())


def similarity_expression(field: str, vector: Sequence[float]):
    """Return an expression for cosine similarity (1 - distance) of a vector column."""
    return ExpressionWrapper(
        Value(1.0) - CosineDistance(field, Value(vector_literal(vector))),
        output_field=FloatField(),
    )


__all__ = [
    "Fused",
    "Hit",
    "SearchReport",
    "exact_by_bound",
    "fulltext_index",
    "fulltext_search",
    "maxsim",
    "rrf",
    "search_vector",
    "similarity_expression",
    "vector_search",
]
