"""``rag.search.vector_search`` on the test model with synthetic unit vectors.

3,000 rows in 20 clusters; 2% of them (60 rows, spread over every cluster) are ``rare``. The
HNSW index is built after the rows are loaded (inserting into an HNSW index row by row is
slow). The rows are committed once per module and deleted after it; each test runs in its
own transaction on top of them.
"""

from __future__ import annotations

import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rag.search import vector_search
from tests.testapp.models import Doc

pytestmark = pytest.mark.django_db

ROWS = 3000
RARE_EVERY = 50  # 2%
K = 10


def unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def clustered_vectors(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return ``ROWS`` unit vectors in 20 tight clusters, the mask of every 50th ("rare") and a
    query near row 7."""
    rng = np.random.default_rng(seed)
    centers = unit(rng.standard_normal((20, 384)))
    labels = rng.integers(0, 20, ROWS)
    vectors = unit(centers[labels] + rng.standard_normal((ROWS, 384)) * 0.06).astype(np.float32)
    query = unit(vectors[7] + rng.standard_normal(384).astype(np.float32) * 0.05)
    return vectors, np.arange(ROWS) % RARE_EVERY == 0, query


@pytest.fixture(scope="module")
def corpus(django_db_setup, django_db_blocker):
    """Load the rows once per module (committed); return (ids, vectors, rare mask, query)."""
    vectors, rare, query = clustered_vectors(20261122)
    with django_db_blocker.unblock():
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
        with connection.cursor() as cursor:
            cursor.execute(
                "CREATE INDEX testapp_doc_embedding_hnsw ON testapp_doc "
                "USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)"
            )
            cursor.execute("ANALYZE testapp_doc")
        ids = np.array([d.pk for d in docs])
        yield ids, vectors, rare, query
        Doc.objects.filter(pk__in=ids.tolist()).delete()


def exact_ids(corpus, mask=None, k=K) -> list[int]:
    ids, vectors, _rare, query = corpus
    sims = vectors @ query
    order = [i for i in np.argsort(-sims) if mask is None or mask[i]]
    return [int(ids[i]) for i in order[:k]]


@pytest.fixture
def index_only(db):
    """Make the planner use the HNSW index rather than a sequential scan (a small table)."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")


def rare_rows():
    # Filter on a column without a btree index, so only the HNSW index can serve the query.
    return Doc.objects.filter(search_text="rare")


def test_hnsw_path_with_a_2_percent_filter_returns_k_rows(corpus, index_only):
    hits, report = vector_search(rare_rows(), corpus[3], k=K, ef_search=40, force_path="hnsw")
    assert report.path == "hnsw"
    assert len(hits) == K


def test_hnsw_path_with_a_2_percent_filter_finds_the_exact_neighbours(corpus, index_only):
    hits, _ = vector_search(rare_rows(), corpus[3], k=K, ef_search=40, force_path="hnsw")
    found = {hit.obj.pk for hit in hits}
    assert len(found & set(exact_ids(corpus, corpus[2]))) >= K - 1
    assert all(hit.obj.search_text == "rare" for hit in hits)


def test_hnsw_path_scans_the_hnsw_index(corpus, index_only):
    with CaptureQueriesContext(connection) as captured:
        vector_search(rare_rows(), corpus[3], k=K, ef_search=40, force_path="hnsw")
    select = next(q["sql"] for q in captured.captured_queries if "<=>" in q["sql"])
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + select)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "testapp_doc_embedding_hnsw" in plan


def test_exact_path_with_a_2_percent_filter_returns_the_exact_answer(corpus):
    hits, report = vector_search(rare_rows(), corpus[3], k=K, force_path="exact")
    assert report.path == "exact"
    assert [hit.obj.pk for hit in hits] == exact_ids(corpus, corpus[2])


def test_unfiltered_hnsw_search_matches_exact_search(corpus, index_only):
    hits, _ = vector_search(Doc.objects.all(), corpus[3], k=K, force_path="hnsw")
    assert len({h.obj.pk for h in hits} & set(exact_ids(corpus))) >= K - 1


def test_selective_filter_chooses_the_exact_path(corpus):
    _, report = vector_search(Doc.objects.filter(category="rare"), corpus[3], k=K)
    assert report.path == "exact"
    # An analysed table of 3,000 rows is sampled, not counted (rag/cardinality.py).
    assert report.filtered_estimated
    assert report.filtered_rows < 5 * ROWS // RARE_EVERY


def test_filter_passing_more_than_exact_max_rows_chooses_hnsw(corpus):
    queryset = Doc.objects.filter(category="common")
    _, report = vector_search(queryset, corpus[3], k=K, exact_max_rows=100)
    assert report.path == "hnsw"


def test_a_bound_the_caller_counted_chooses_the_exact_path_without_estimating(corpus):
    with CaptureQueriesContext(connection) as queries:
        hits, report = vector_search(rare_rows(), corpus[3], k=K, rows_at_most=ROWS // RARE_EVERY)
    assert (report.path, report.filtered_rows) == ("exact", ROWS // RARE_EVERY)
    assert [hit.obj.pk for hit in hits] == exact_ids(corpus, corpus[2])
    assert not any("TABLESAMPLE" in q["sql"] for q in queries.captured_queries)


def test_a_bound_over_the_limit_leaves_the_path_to_the_estimate(corpus):
    queryset = Doc.objects.filter(category="common")
    _, report = vector_search(queryset, corpus[3], k=K, exact_max_rows=100, rows_at_most=ROWS)
    assert report.path == "hnsw"


def test_unfiltered_search_chooses_hnsw(corpus):
    _, report = vector_search(Doc.objects.all(), corpus[3], k=K)
    assert report.path == "hnsw"


@pytest.mark.parametrize("path", ["exact", "hnsw"])
def test_results_are_sorted_by_similarity(corpus, path):
    hits, _ = vector_search(Doc.objects.all(), corpus[3], k=25, force_path=path)
    scores = [hit.score for hit in hits]
    assert scores == sorted(scores, reverse=True)
    assert [hit.rank for hit in hits] == list(range(1, 26))


def test_score_is_the_cosine_similarity(corpus):
    ids, vectors, _rare, query = corpus
    hits, _ = vector_search(Doc.objects.all(), query, k=3, force_path="exact")
    for hit in hits:
        expected = float(vectors[list(ids).index(hit.obj.pk)] @ query)
        assert hit.score == pytest.approx(expected, abs=1e-4)
        assert hit.obj.similarity == hit.score


def test_floor_drops_rows_below_it_and_reports_counts(corpus):
    all_hits, _ = vector_search(Doc.objects.all(), corpus[3], k=20, force_path="exact")
    floor = (all_hits[4].score + all_hits[5].score) / 2  # keeps exactly five
    hits, report = vector_search(Doc.objects.all(), corpus[3], k=20, floor=floor)
    assert [h.obj.pk for h in hits] == [h.obj.pk for h in all_hits[:5]]
    assert (report.before_floor, report.after_floor, report.floor) == (20, 5, floor)


@pytest.mark.parametrize("path", ["exact", "hnsw"])
def test_fewer_passing_rows_than_k_returns_them_all(corpus, path):
    queryset = Doc.objects.filter(category="rare", n__lt=200)  # 4 rows
    hits, _ = vector_search(queryset, corpus[3], k=K, force_path=path)
    assert sorted(h.obj.n for h in hits) == [0, 50, 100, 150]


def test_rows_without_a_vector_are_skipped(db):
    Doc.objects.create(category="solo", text="no vector yet")
    Doc.objects.create(category="solo", text="has one", embedding=[1.0] + [0.0] * 383)
    hits, _ = vector_search(Doc.objects.filter(category="solo"), [1.0] + [0.0] * 383, k=5)
    assert [h.obj.text for h in hits] == ["has one"]


def test_zero_k_returns_nothing(db):
    hits, report = vector_search(Doc.objects.all(), [1.0] * 384, k=0)
    assert (hits, report.path) == ([], "none")


def test_hnsw_path_reports_the_ef_search_used(corpus):
    _, report = vector_search(Doc.objects.all(), corpus[3], k=K, ef_search=77, force_path="hnsw")
    assert report.ef_search == 77


def test_hnsw_scan_stopped_early_still_returns_k_rows(corpus, index_only):
    # hnsw.max_scan_tuples (and hnsw.scan_mem_multiplier) end an iterative scan before it
    # finds k rows that pass a selective filter; the search must still return k rows.
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL hnsw.max_scan_tuples = 5")
    hits, report = vector_search(rare_rows(), corpus[3], k=K, ef_search=10, force_path="hnsw")
    assert [h.obj.pk for h in hits] == exact_ids(corpus, corpus[2])
    assert report.notes


def test_hnsw_settings_do_not_leak_into_the_callers_transaction(corpus):
    vector_search(Doc.objects.all(), corpus[3], k=K, ef_search=77, force_path="hnsw")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_setting('hnsw.iterative_scan'), current_setting('hnsw.ef_search')"
        )
        assert cursor.fetchone() == ("off", "40")
