"""Working memory and the personal boost: MaxSim over stored vectors, capped at 20%."""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest
from django.utils import timezone

from activities.models import Activity, Participation, WorkingMemory
from activities.personalize import Personalizer
from activities.search import activities_search
from activities.services import activity_join, participation_feedback

pytestmark = pytest.mark.django_db


def like(user, activity):
    activity_join(activity_id=activity.pk, user=user)
    participation_feedback(activity_id=activity.pk, user=user, rating=1)


def test_interest_vectors_keep_three_own_embeddings_never_an_average(demo_activities, user):
    picked = [a for a in demo_activities.values() if not a.is_full][:4]
    for activity in picked:
        like(user, activity)
    entries = WorkingMemory.objects.get(user=user).interest_vectors
    assert len(entries) == 3
    assert [e["activityId"] for e in entries] == [a.pk for a in reversed(picked[1:])]
    stored = np.array([e["embedding"] for e in entries])
    for entry in entries:
        own = Activity.objects.get(pk=entry["activityId"]).embedding
        assert np.allclose(entry["embedding"], own)
        assert {"activityId", "embedding", "participatedAt"} <= set(entry)
    means = [stored.mean(axis=0), np.array([a.embedding for a in picked]).mean(axis=0)]
    for vector in stored:
        assert not any(np.allclose(vector, mean, atol=1e-4) for mean in means)


def test_rating_down_removes_the_interest(demo_activities, user):
    activity = next(a for a in demo_activities.values() if not a.is_full)
    like(user, activity)
    assert len(WorkingMemory.objects.get(user=user).interest_vectors) == 1
    participation_feedback(activity_id=activity.pk, user=user, rating=-1)
    assert WorkingMemory.objects.get(user=user).interest_vectors == []


def test_boost_never_exceeds_twenty_percent(demo_activities, user, live_settings):
    target = next(a for a in demo_activities.values() if a.title.startswith("室内冲浪"))
    Activity.objects.filter(pk=target.pk).update(max_participants=50)
    like(user, Activity.objects.get(pk=target.pk))
    outcome = activities_search(user=user, semantic_query="玩水", limit=20)
    assert outcome["meta"]["personalised"] == "interest_vectors"
    boosts = [r["boost"] for r in outcome["results"]]
    assert max(boosts) <= 0.2 + 1e-9
    top = next(r for r in outcome["results"] if r["id"] == target.pk)
    assert top["boost"] == pytest.approx(0.2)  # its own vector: MaxSim 1
    for r in outcome["results"]:
        assert r["score"] <= r["similarity"] * 1.2 + 1e-3
        assert r["score"] == pytest.approx(r["similarity"] * (1 + r["boost"]), abs=1e-3)
    # An admin cannot raise the cap above 20%: the value is clamped where it is used.
    live_settings.personal_boost_max = 0.9
    assert Personalizer(cap=min(0.9, 0.2), floor=0.8).cap <= 0.2


def test_preferences_give_a_smaller_boost(demo_activities, user):
    WorkingMemory.objects.create(
        user=user,
        data={
            "interestVectors": [],
            "preferences": {"likedTypes": ["水上"], "vibes": ["玩水"], "timesOfDay": ["下午"]},
        },
    )
    outcome = activities_search(user=user, semantic_query="玩水", limit=20)
    assert outcome["meta"]["personalised"] == "preferences"
    boosts = [r["boost"] for r in outcome["results"]]
    assert max(boosts) > 0 and max(boosts) <= 0.1 + 1e-9


def test_anonymous_and_new_users_get_no_boost(demo_activities, user):
    outcome = activities_search(user=user, semantic_query="玩水", limit=5)
    assert outcome["meta"]["personalised"] is None
    assert all(r["boost"] == 0 for r in outcome["results"])


def test_user_data_erasure(make_activity, user):
    from rag.signals import user_data_erasure

    activity = make_activity(start_at=timezone.now() + timedelta(days=1))
    like(user, activity)
    responses = user_data_erasure.send(sender=None, user=user)
    counts = next(r for receiver, r in responses if receiver.__module__ == "activities.signals")
    assert counts == {"participations": 1, "working_memory": 1}
    assert not Participation.objects.filter(user=user).exists()
    assert not WorkingMemory.objects.filter(user=user).exists()
