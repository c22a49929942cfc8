"""Activity dates stay in 1970..2100 and render as RFC 3339; older rows are repaired.

A staff PATCH once set ``start_at`` to year 0149, which then rendered as
``0149-03-30T10:34:02+08:05:43`` (Shanghai's local mean time): not a valid date-time.
"""

from __future__ import annotations

import importlib
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.utils import timezone

from activities.models import Activity

pytestmark = pytest.mark.django_db

REPAIR_SQL = importlib.import_module("activities.migrations.0004_bounded_dates").REPAIR_SQL
RFC3339 = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")


@pytest.fixture
def activity(user):
    """An activity of ``user`` starting in three days."""
    return Activity.objects.create(
        title="徒步",
        type="户外",
        start_at=timezone.now() + timedelta(days=3),
        lat=31.2,
        lng=121.4,
        max_participants=5,
        creator=user,
    )


def test_staff_patch_of_start_at_to_year_0149_is_refused(staff_client, activity):
    response = staff_client.patch(
        f"/api/activities/{activity.pk}/", {"start_at": "0149-03-30T10:34:02Z"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_ARGUMENT"
    activity.refresh_from_db()
    assert activity.start_at.year > 2000


def test_the_model_refuses_out_of_range_dates_for_the_admin(activity):
    activity.start_at = datetime(149, 3, 30, tzinfo=UTC)
    activity.end_at = datetime(2100, 1, 1, tzinfo=UTC)
    with pytest.raises(ValidationError) as caught:
        activity.full_clean()
    assert {"start_at", "end_at"} <= set(caught.value.message_dict)


def test_a_repaired_row_renders_as_rfc_3339(api_client, activity):
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE activities_activity SET start_at = TIMESTAMPTZ '0149-03-30 02:28:19+00', "
            "end_at = TIMESTAMPTZ '10000-01-01 00:00:00+00' WHERE id = %s",
            [activity.pk],
        )
        for statement in REPAIR_SQL:
            cursor.execute(statement)
    response = api_client.get(f"/api/activities/{activity.pk}/")
    assert response.status_code == 200
    body = response.json()
    assert body["start_at"] == "1970-01-01T08:00:00+08:00"
    assert RFC3339.match(body["end_at"]), body["end_at"]
