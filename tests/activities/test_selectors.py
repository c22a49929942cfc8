"""Reads of the activities app: the spread sample the relevance cut reads the listings by."""

from __future__ import annotations

from activities.models import Activity, ActivityStatus
from activities.selectors import activity_rows_fingerprint, activity_vector_sample
from rag.embeddings import current_model


def test_the_vector_sample_holds_the_active_embedded_rows_of_the_model(demo_activities):
    active = Activity.objects.filter(status=ActivityStatus.ACTIVE, embedding__isnull=False)
    sample = activity_vector_sample(current_model(), 10_000)
    assert len(sample) == active.count() > 0
    assert all(len(vector) == len(sample[0]) for vector in sample)


def test_the_vector_sample_draws_at_most_n_rows(demo_activities):
    assert len(activity_vector_sample(current_model(), 5)) == 5


def test_rows_of_another_model_are_not_sampled(demo_activities):
    assert activity_vector_sample("some-other-model", 100) == []


def test_the_fingerprint_changes_when_a_row_is_added(db, make_activity):
    before = activity_rows_fingerprint()
    make_activity()
    assert activity_rows_fingerprint() != before
