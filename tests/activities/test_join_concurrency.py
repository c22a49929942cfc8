"""Two users racing for the last place: exactly one gets it."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from activities.models import Activity, Participation
from activities.services import activity_join
from config.errors import InvalidArgument


@pytest.mark.django_db(transaction=True)
def test_two_threads_joining_the_last_place_leave_exactly_one(make_user):
    creator, first, second = make_user("host"), make_user("u1"), make_user("u2")
    activity = Activity.objects.create(
        title="最后一个名额",
        type="桌游",
        start_at=timezone.now() + timedelta(days=1),
        lat=31.2,
        lng=121.4,
        max_participants=2,
        current_participants=1,
        creator=creator,
    )
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def join(user):
        try:
            barrier.wait(timeout=10)
            activity_join(activity_id=activity.pk, user=user)
            outcomes.append("joined")
        except InvalidArgument:
            outcomes.append("full")
        finally:
            connection.close()

    threads = [threading.Thread(target=join, args=(u,)) for u in (first, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(outcomes) == ["full", "joined"]
    activity.refresh_from_db()
    assert activity.current_participants == 2
    assert Participation.objects.filter(activity=activity).count() == 1
