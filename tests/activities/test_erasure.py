"""Erasing a user's activities data (``activities.userdata``, through ``user_erase``)."""

from __future__ import annotations

import pytest

from activities.models import Activity, Participation, WorkingMemory
from activities.services import activity_join, participation_feedback

pytestmark = pytest.mark.django_db


@pytest.fixture
def indexed_activity(make_activity, django_capture_on_commit_callbacks):
    """Return ``indexed_activity(creator, **fields)``: an activity embedded on commit."""

    def factory(creator, **fields):
        with django_capture_on_commit_callbacks(execute=True):
            activity = make_activity(creator=creator, **fields)
        activity.refresh_from_db()
        assert activity.embedding is not None and activity.meta_embedding is not None
        return activity

    return factory


def like(user, activity):
    activity_join(activity_id=activity.pk, user=user)
    participation_feedback(activity_id=activity.pk, user=user, rating=1)


def test_erasure_frees_the_places_the_user_held_in_others_activities(
    make_activity, user, other_user
):
    from memory.services import user_erase

    theirs = make_activity(creator=other_user)
    activity_join(activity_id=theirs.pk, user=user)
    activity_join(activity_id=theirs.pk, user=other_user)

    user_erase(user=user)

    theirs.refresh_from_db()
    assert theirs.current_participants == 1
    assert list(Participation.objects.filter(activity=theirs).values_list("user", flat=True)) == [
        other_user.pk
    ]


def test_the_users_activities_go_with_others_places_and_copied_vectors(
    indexed_activity, user, other_user
):
    from memory.services import user_erase

    mine = indexed_activity(user, title="周日读书会")
    theirs = indexed_activity(other_user, title="周六羽毛球")
    more = [indexed_activity(other_user, title=t) for t in ("周五夜跑", "周四桌游")]
    # Four +1s: interest vectors exist (3+), and three remain once ``mine`` is gone.
    for activity in (*more, theirs, mine):
        like(other_user, activity)
    assert {
        e["activityId"] for e in WorkingMemory.objects.get(user=other_user).interest_vectors
    } == {mine.pk, theirs.pk, more[1].pk}

    counts = user_erase(user=user)

    assert (counts["activities"], counts["activity_vectors"]) == (1, 1)
    assert counts["others_participations"] == 1
    assert not Activity.objects.filter(pk=mine.pk).exists()
    assert set(
        Participation.objects.filter(user=other_user).values_list("activity", flat=True)
    ) == {theirs.pk, *(a.pk for a in more)}
    # The other user's interest vectors no longer hold a copy of the erased activity's vector.
    entries = WorkingMemory.objects.get(user=other_user).interest_vectors
    assert {e["activityId"] for e in entries} == {theirs.pk, *(a.pk for a in more)}


def test_a_row_holding_only_its_kind_vector_is_counted_and_erased(indexed_activity, user):
    from memory.services import user_erase

    mine = indexed_activity(user, title="周日读书会")
    Activity.objects.filter(pk=mine.pk).update(embedding=None)

    counts = user_erase(user=user)

    assert counts["activity_vectors"] == 1
    assert not Activity.objects.filter(pk=mine.pk).exists()


def test_erasure_forgets_the_cached_vector_of_the_kind_text(cold_lru, indexed_activity, user):
    # The kind text (type and tags) is embedded through the shared cache like the listing's:
    # the user's erasure forgets both.
    from memory.services import user_erase
    from rag.embeddings import content_hash
    from rag.models import EmbeddingCache

    mine = indexed_activity(user, title="周日读书会 K1", type="读书", tags=["小众书目 K1"])
    key = content_hash(mine.extra_vector_texts()["meta_embedding"])
    assert EmbeddingCache.objects.filter(content_hash=key).exists()

    user_erase(user=user)

    assert not EmbeddingCache.objects.filter(content_hash=key).exists()
