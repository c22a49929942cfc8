"""``rag.cardinality``: the estimate of the rows a filter passes, and the path it chooses.

The test model holds 3,000 rows (2% ``rare``) loaded and analysed once per module, as
tests/rag/test_vector_search.py does; an unanalysed or small table is counted instead. A
smaller ``SAMPLE_ROWS`` makes one sampled row stand for more rows than the limit, as one row of
the page sample stands for 10,000 at 10M messages (docs/SCALING.md "Row estimates").
"""

from __future__ import annotations

import pytest
from django.db import connection

from rag import cardinality
from rag.cardinality import (
    PathPlan,
    count_and_plan,
    count_upto,
    exact_is_cheaper,
    plan_vector_path,
)
from tests.testapp.models import Doc

pytestmark = pytest.mark.django_db

ROWS = 3000
RARE_EVERY = 50


def estimate_rows(queryset):
    """Return the sampled estimate of the rows ``queryset`` selects (the plan of a limit no
    estimate reaches: the estimate itself)."""
    plan = plan_vector_path(queryset, exact_max_rows=2**62)
    assert plan.estimated
    return plan.rows


@pytest.fixture(scope="module")
def analysed_rows(django_db_setup, django_db_blocker):
    """3,000 committed rows, 60 of them ``rare``, analysed; deleted after the module."""
    with django_db_blocker.unblock():
        # Start from a table without the dead pages another module's deleted rows left
        # (tests/rag/test_vector_search.py): the page sample would read the new rows' layout
        # differently in every order the modules run (autocommit here: VACUUM is allowed).
        with connection.cursor() as cursor:
            cursor.execute("VACUUM testapp_doc")
        Doc.objects.bulk_create(
            [Doc(n=i, category="rare" if i % RARE_EVERY == 0 else "common") for i in range(ROWS)],
            batch_size=1000,
        )
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE testapp_doc")
        cardinality._reltuples_cache.clear()
        yield
        Doc.objects.all().delete()
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE testapp_doc")
        cardinality._reltuples_cache.clear()


def test_a_wide_filter_is_estimated_near_its_count(analysed_rows):
    estimate = estimate_rows(Doc.objects.filter(category="common"))
    true = Doc.objects.filter(category="common").count()
    assert estimate is not None
    assert 0.7 * true <= estimate <= 1.3 * true


def test_the_estimate_does_not_count_every_row(analysed_rows, django_assert_max_num_queries):
    with django_assert_max_num_queries(2):  # reltuples (cached after), then the sample
        estimate_rows(Doc.objects.filter(category="common"))


def test_a_selective_filter_plans_the_exact_path(analysed_rows):
    plan = plan_vector_path(Doc.objects.filter(category="rare"), exact_max_rows=500)
    assert (plan.path, plan.estimated) == ("exact", True)


def test_a_wide_filter_plans_the_hnsw_path(analysed_rows):
    plan = plan_vector_path(Doc.objects.filter(category="common"), exact_max_rows=500)
    assert (plan.path, plan.estimated) == ("hnsw", True)


def test_the_same_data_gives_the_same_estimate(analysed_rows):
    queryset = Doc.objects.filter(category="common")
    assert estimate_rows(queryset) == estimate_rows(queryset)


def test_a_small_table_is_counted_exactly(monkeypatch):
    monkeypatch.setattr(cardinality, "SAMPLE_ROWS", 10**9)  # every table is "small"
    Doc.objects.bulk_create([Doc(n=i, category="rare") for i in range(7)])
    queryset = Doc.objects.filter(category="rare")
    plan = plan_vector_path(queryset, exact_max_rows=10**6)
    assert plan == cardinality.PathPlan(path="exact", rows=queryset.count(), estimated=False)


def test_a_counted_plan_past_the_limit_chooses_hnsw(monkeypatch):
    monkeypatch.setattr(cardinality, "SAMPLE_ROWS", 10**9)
    Doc.objects.bulk_create([Doc(n=i, category="common") for i in range(12)])
    plan = plan_vector_path(Doc.objects.all(), exact_max_rows=10)
    assert (plan.path, plan.rows, plan.estimated) == ("hnsw", 11, False)


def test_count_upto_stops_at_its_limit():
    Doc.objects.bulk_create([Doc(n=i) for i in range(9)])
    assert count_upto(Doc.objects.all(), 5) == 5


def test_exact_is_cheaper_for_few_rows_of_a_large_table():
    assert exact_is_cheaper(500, total=100_000, k=20)


def test_hnsw_is_cheaper_for_a_wide_filter_of_a_large_table():
    assert not exact_is_cheaper(4_500, total=100_000, k=20)


def test_the_exact_cut_grows_with_the_table():
    assert exact_is_cheaper(4_500, total=1_000_000, k=20)


def test_a_planned_path_within_exact_max_rows_may_still_choose_hnsw(analysed_rows):
    # 2,940 "common" rows of 3,000: below exact_max_rows, but an index scan finds 10 of them
    # after visiting about 10 tuples.
    plan = plan_vector_path(Doc.objects.filter(category="common"), exact_max_rows=10_000, k=10)
    assert plan.path == "hnsw"


def test_count_and_plan_equals_the_count_and_the_plan_it_replaces(analysed_rows):
    for category in ("rare", "common"):
        queryset = Doc.objects.filter(category=category)
        counted, plan = count_and_plan(queryset, small=20, exact_max_rows=500, k=10)
        assert counted == count_upto(queryset, 21)
        assert plan == plan_vector_path(queryset, exact_max_rows=500, k=10)


def test_count_and_plan_is_one_statement_on_a_sampled_table(
    analysed_rows, django_assert_num_queries
):
    queryset = Doc.objects.filter(category="common")
    plan_vector_path(queryset, exact_max_rows=500)  # pg_class's row estimate is cached now
    with django_assert_num_queries(1):
        counted, plan = count_and_plan(queryset, small=20, exact_max_rows=500)
    assert (counted, plan.path, plan.estimated) == (21, "hnsw", True)


def test_count_and_plan_gives_no_plan_to_a_small_result(analysed_rows):
    queryset = Doc.objects.filter(category="rare", n__lt=RARE_EVERY * 5)
    assert count_and_plan(queryset, small=20, exact_max_rows=500) == (5, None)


def test_count_and_plan_counts_a_small_table(monkeypatch):
    monkeypatch.setattr(cardinality, "SAMPLE_ROWS", 10**9)
    Doc.objects.bulk_create([Doc(n=i, category="common") for i in range(30)])
    counted, plan = count_and_plan(Doc.objects.all(), small=20, exact_max_rows=25)
    assert counted == 21
    assert plan == cardinality.PathPlan(path="hnsw", rows=26, estimated=False)


def sampled_pks(queryset) -> list[int]:
    """Return the pks of ``queryset``'s rows in the page sample its estimate reads."""
    sampling = cardinality._sampling(queryset)
    with connection.cursor() as cursor:
        cursor.execute(sampling.sampled, sampling.params)
        return [row[0] for row in cursor.fetchall()]


@pytest.fixture
def coarse_sample(analysed_rows, monkeypatch):
    """A sample of about 300 of the 3,000 rows: one sampled row stands for about 10."""
    monkeypatch.setattr(cardinality, "SAMPLE_ROWS", 300)
    pks = sampled_pks(Doc.objects.all())
    assert len(pks) >= 8  # whole pages of the table are in it
    return pks


def test_an_estimate_over_the_limit_from_a_few_sampled_rows_is_counted(coarse_sample):
    # Two rows, both in the sample (on one page, as a user's rows after CLUSTER): estimated
    # at about 20, over the limit of 5; counted, they are 2, so the search is exact.
    queryset = Doc.objects.filter(pk__in=coarse_sample[:2])
    assert estimate_rows(queryset) > 5
    assert plan_vector_path(queryset, exact_max_rows=5) == PathPlan("exact", 2, estimated=False)
    assert count_and_plan(queryset, small=1, exact_max_rows=5, k=10) == (
        2,
        PathPlan("exact", 2, estimated=False),
    )


def test_a_counted_estimate_past_the_limit_still_chooses_hnsw(coarse_sample):
    queryset = Doc.objects.filter(pk__in=coarse_sample[:8])
    assert plan_vector_path(queryset, exact_max_rows=5) == PathPlan("hnsw", 6, estimated=False)


def test_an_estimate_from_enough_sampled_rows_is_not_counted(
    coarse_sample, django_assert_num_queries
):
    queryset = Doc.objects.filter(category="common")  # about 290 sampled rows of 300
    plan_vector_path(queryset, exact_max_rows=5)  # pg_class's row estimate is cached now
    with django_assert_num_queries(1):  # the sample alone
        plan = plan_vector_path(queryset, exact_max_rows=500)
    assert (plan.path, plan.estimated) == ("hnsw", True)
