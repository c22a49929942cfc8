"""The activities admin writes through the services: vibes, validation and indexing as the API."""

from __future__ import annotations

import json
import zoneinfo

import pytest

from activities.models import Activity, ActivitySettings, IndexState
from activities.search import activities_search
from activities.selectors import is_current
from activities.vibes import lexicon_vibes

pytestmark = pytest.mark.django_db
SHANGHAI = zoneinfo.ZoneInfo("Asia/Shanghai")
CHANGELIST = "/admin/activities/activity/"


def form_data(activity: Activity, **changes) -> dict:
    """Return the admin change form's fields for ``activity``, with ``changes`` applied."""
    values = {f.name: getattr(activity, f.name) for f in Activity._meta.fields}
    values.update(changes)
    data = {
        name: values[name]
        for name in (
            "title",
            "description",
            "type",
            "time_zone",
            "lat",
            "lng",
            "location_name",
            "status",
            "max_participants",
            "current_participants",
        )
    }
    data["tags"] = json.dumps(values["tags"], ensure_ascii=False)
    for name in ("start_at", "end_at"):
        moment = values[name]
        local = moment.astimezone(SHANGHAI) if moment else None
        data[f"{name}_0"] = local.strftime("%Y-%m-%d") if local else ""
        data[f"{name}_1"] = local.strftime("%H:%M:%S") if local else ""
    data["creator"] = values["creator"].pk
    return data


def test_an_admin_edit_recomputes_the_vibes_and_reindexes(
    make_activity, admin_client, django_capture_on_commit_callbacks
):
    activity = make_activity()
    description = "安静的读书会，一起读诗，文艺放松。"
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            f"{CHANGELIST}{activity.pk}/change/",
            form_data(activity, description=description, type="读书"),
        )

    assert response.status_code == 302, response.content[-2000:]
    activity.refresh_from_db()
    assert activity.description == description
    assert activity.vibes == lexicon_vibes(
        type="读书", title=activity.title, description=description, tags=activity.tags
    )
    assert activity.index_state == IndexState.INDEXED and is_current(activity)


def test_the_admin_refuses_what_the_service_refuses(make_activity, admin_client):
    activity = make_activity()
    before = activity.start_at.astimezone(SHANGHAI).replace(hour=0, minute=0, second=0)
    response = admin_client.post(
        f"{CHANGELIST}{activity.pk}/change/", form_data(activity, end_at=before)
    )

    assert response.status_code == 200  # the form again, with the error
    assert response.context["adminform"].form.errors
    activity.refresh_from_db()
    assert activity.end_at is None


def test_an_activity_added_in_the_admin_gets_its_vibes_and_index(
    make_activity, admin_client, django_capture_on_commit_callbacks
):
    template = make_activity()
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            f"{CHANGELIST}add/", form_data(template, title="周日徒步", type="户外")
        )

    assert response.status_code == 302, response.content[-2000:]
    added = Activity.objects.get(title="周日徒步")
    assert added.vibes == lexicon_vibes(
        type="户外", title="周日徒步", description=added.description, tags=added.tags
    )
    assert added.index_state == IndexState.INDEXED


def test_the_live_settings_page_saves_and_the_next_search_reads_it(
    demo_activities, activity_settings, post_live_settings
):
    assert activities_search(semantic_query="户外徒步爬山", limit=5)["meta"]["hybrid"] is True
    response = post_live_settings(activity_settings, activities_hybrid=False)
    assert response.status_code == 302, response.content[-2000:]
    assert activities_search(semantic_query="户外徒步爬山", limit=5)["meta"]["hybrid"] is False


def test_the_live_settings_page_refuses_a_boost_above_twenty_percent(
    activity_settings, post_live_settings
):
    response = post_live_settings(activity_settings, personal_boost_max=0.5)
    assert response.status_code == 200  # the form again, with the error
    assert "personal_boost_max" in response.context["adminform"].form.errors
    assert ActivitySettings.objects.get().personal_boost_max == 0.2
