"""``rag.search.vector_search`` through a halfvec HNSW index (``rag.db.HalfvecHnsw``).

The test model is given an ``ann_index`` for this module only; its vector HNSW index is dropped,
so the halfvec one is the only graph the planner can use. 3,000 rows in 20 clusters, 2% rare.
"""

from __future__ import annotations

import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rag.db import HalfvecHnsw, build_vector_indexes, half_index
from rag.search import vector_search
from tests.rag.test_vector_search import ROWS, clustered_vectors
from tests.testapp.models import Doc

pytestmark = pytest.mark.django_db

K = 10
HALF = HalfvecHnsw(name="testapp_doc_half_hnsw", condition="category <> 'hidden'")


@pytest.fixture(scope="module")
def corpus(django_db_setup, django_db_blocker):
    """Rows committed once per module, the halfvec index built after them; restored after."""
    vectors, rare, query = clustered_vectors(20261126)
    with django_db_blocker.unblock():
        Doc.ann_index = HALF
        with connection.cursor() as cursor:
            cursor.execute("DROP INDEX testapp_doc_embedding_hnsw")
        docs = Doc.objects.bulk_create(
            [
                Doc(
                    embedding=vectors[i].tolist(),
                    n=i,
                    category="rare" if rare[i] else "common",
                    search_text="rare" if rare[i] else "common",
                )
                for i in range(ROWS)
            ],
            batch_size=1000,
        )
        build_vector_indexes(connection, Doc)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE testapp_doc")
        ids = np.array([d.pk for d in docs])
        try:
            yield ids, vectors, rare, query
        finally:
            Doc.objects.filter(pk__in=ids.tolist()).delete()
            with connection.cursor() as cursor:
                cursor.execute(Doc.ann_index.drop_sql(connection.ops.quote_name))
            del Doc.ann_index
            with connection.cursor() as cursor:
                cursor.execute(
                    "CREATE INDEX testapp_doc_embedding_hnsw ON testapp_doc USING hnsw "
                    "(embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)"
                )


@pytest.fixture
def index_only(db):
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")


def exact_ids(corpus, mask=None, k=K) -> list[int]:
    ids, vectors, _rare, query = corpus
    order = [i for i in np.argsort(-(vectors @ query)) if mask is None or mask[i]]
    return [int(ids[i]) for i in order[:k]]


def visible(**filters):
    # The index's condition repeated, as a caller of a partial index must.
    return Doc.objects.exclude(category="hidden").filter(**filters)


def test_the_model_declares_its_halfvec_index(corpus):
    assert half_index(Doc) == HALF


def test_halfvec_index_casts_at_the_column_dimension_and_keeps_its_condition(corpus):
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s", [HALF.name])
        definition = cursor.fetchone()[0]
    assert "halfvec(384)" in definition and "halfvec_cosine_ops" in definition
    assert "'hidden'" in definition


def test_hnsw_path_scans_the_halfvec_index(corpus, index_only):
    with CaptureQueriesContext(connection) as captured:
        vector_search(visible(search_text="rare"), corpus[3], k=K, force_path="hnsw")
    select = next(q["sql"] for q in captured.captured_queries if "<=>" in q["sql"])
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + select)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert HALF.name in plan


def test_hnsw_path_returns_the_exact_neighbours(corpus, index_only):
    hits, report = vector_search(visible(), corpus[3], k=K, force_path="hnsw")
    assert report.path == "hnsw"
    assert [hit.obj.pk for hit in hits] == exact_ids(corpus)


def test_hnsw_path_with_a_2_percent_filter_returns_k_exact_neighbours(corpus, index_only):
    hits, _ = vector_search(visible(search_text="rare"), corpus[3], k=K, force_path="hnsw")
    assert len(hits) == K
    assert len({h.obj.pk for h in hits} & set(exact_ids(corpus, corpus[2]))) >= K - 1


def test_scores_are_the_full_precision_cosine_similarity(corpus, index_only):
    ids, vectors, _rare, query = corpus
    hits, _ = vector_search(visible(), query, k=5, force_path="hnsw")
    for hit in hits:
        expected = float(vectors[list(ids).index(hit.obj.pk)] @ query)
        # float32 rows: half precision (about 3 decimal digits) would miss this by ~1e-3.
        assert hit.score == pytest.approx(expected, abs=1e-5)


def test_hnsw_path_reads_through_the_index_where_the_planner_would_sort_the_filter(corpus):
    # No index_only fixture: left alone, PostgreSQL reads the 60 rare rows and sorts them.
    plans = []

    def explain_first(execute, sql, params, many, context):
        if "<=>" in sql and sql.lstrip().startswith("SELECT"):
            context["cursor"].execute("EXPLAIN " + sql, params)
            plans.append("\n".join(row[0] for row in context["cursor"].fetchall()))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(explain_first):
        hits, report = vector_search(visible(search_text="rare"), corpus[3], k=K, force_path="hnsw")
    assert report.path == "hnsw" and len(hits) == K
    assert plans and f"Index Scan using {HALF.name}" in plans[0]
