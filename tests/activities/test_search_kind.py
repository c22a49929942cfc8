"""The listing's kind as a ranking feature (activities.search_kind)."""

from __future__ import annotations

import pytest

from activities.models import Activity
from activities.search_kind import meta_like_sql, meta_similarity, standard_known


@pytest.mark.django_db
def test_the_kind_likeness_is_the_sql_cosine_and_no_vector_is_fetched(
    make_activity, django_capture_on_commit_callbacks, django_assert_num_queries
):
    with django_capture_on_commit_callbacks(execute=True):
        made = make_activity(title="桌游夜", type="桌游", tags=["桌游"])
    made.refresh_from_db()
    vector = [float(x) for x in made.meta_embedding]
    rows = list(
        Activity.objects.filter(pk=made.pk)
        .defer("meta_embedding")
        .annotate(meta_like=meta_like_sql(vector))
    )

    with django_assert_num_queries(0):
        [like] = meta_similarity(rows, vector)
    assert like == pytest.approx(1.0, abs=1e-4)


def test_a_row_without_a_kind_vector_reads_zero_among_those_that_have_one():
    assert standard_known([1.0, None, 3.0], 3) == [-1.0, 0.0, 1.0]


@pytest.mark.django_db
def test_the_candidates_kind_likeness_is_read_in_one_query(
    make_activity, django_capture_on_commit_callbacks, django_assert_num_queries
):
    from activities.search_kind import read_meta_like

    with django_capture_on_commit_callbacks(execute=True):
        made = [make_activity(title=f"局{i}", type="桌游", tags=["桌游"]) for i in range(3)]
    vector = [float(x) for x in Activity.objects.get(pk=made[0].pk).meta_embedding]
    rows = list(Activity.objects.filter(pk__in=[a.pk for a in made]).defer("meta_embedding"))

    with django_assert_num_queries(1):
        read_meta_like(rows, vector)
    assert [round(r.meta_like, 4) for r in rows] == [1.0, 1.0, 1.0]
