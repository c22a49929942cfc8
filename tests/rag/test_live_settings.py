"""Live settings: validation (model and admin form) and a change made through the admin."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from rag import live
from rag.models import RagSettings
from rag.search import rrf, vector_search
from tests.testapp.models import Doc

pytestmark = pytest.mark.django_db

CHANGE_URL = "/admin/rag/ragsettings/1/change/"

INVALID = [
    ({"child_min_chars": 300, "child_max_chars": 300}, "child_max_chars"),
    ({"parent_min_chars": 1600, "parent_max_chars": 1500}, "parent_max_chars"),
    ({"child_max_chars": 2000}, "parent_max_chars"),
    ({"context_window_chars": 100}, "context_window_chars"),
    ({"child_min_chars": 10}, "child_min_chars"),
    ({"cliff_threshold": 1.5}, "cliff_threshold"),
    ({"cliff_percentile": 100.0}, "cliff_percentile"),
    ({"personal_boost_max": 0.5}, "personal_boost_max"),
    ({"debounce_seconds": -1.0}, "debounce_seconds"),
    ({"fusion_k": 0}, "fusion_k"),
    ({"ef_search": 0}, "ef_search"),
    ({"ef_search": 1001}, "ef_search"),
    ({"retention_days": 0}, "retention_days"),
    ({"retention_days": 36501}, "retention_days"),
    ({"summary_trigger_messages": 1}, "summary_trigger_messages"),
    ({"summary_max_chars": 10}, "summary_max_chars"),
    ({"similarity_floors": {"m": {"activities": 2}}}, "similarity_floors"),
    ({"similarity_floors": {"m": 0.5}}, "similarity_floors"),
    ({"similarity_floors": [0.5]}, "similarity_floors"),
]


@pytest.fixture
def admin_client(client):
    """A Django test client logged in as a superuser."""
    admin = get_user_model().objects.create_superuser("root", "", "pw")
    client.force_login(admin)
    return client


def form_data(row: RagSettings, **changes) -> dict:
    """Return every field of the admin form for ``row``, with ``changes`` applied."""
    from rag.admin import RagSettingsAdmin

    fields = [f for _, opts in RagSettingsAdmin.fieldsets for f in opts["fields"]]
    data = {}
    for name in fields:
        value = changes.get(name, getattr(row, name))
        if isinstance(value, dict):  # JSON fields: similarity_floors, relevance_cuts
            data[name] = json.dumps(value)
        elif isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = str(value)
    return {**data, "_save": "Save"}


def test_default_settings_are_valid(live_settings):
    live_settings.full_clean()


@pytest.mark.parametrize("changes, field", INVALID, ids=[f for _, f in INVALID])
def test_full_clean_rejects_out_of_range_values(live_settings, changes, field):
    for name, value in changes.items():
        setattr(live_settings, name, value)
    with pytest.raises(ValidationError) as caught:
        live_settings.full_clean()
    assert field in caught.value.message_dict


def test_window_must_hold_the_longest_child_the_packer_makes(live_settings):
    # child 200-300: a merged short tail can make a child of 2 * 200 = 400 characters.
    live_settings.child_min_chars, live_settings.child_max_chars = 200, 300
    live_settings.context_window_chars = 350
    with pytest.raises(ValidationError) as caught:
        live_settings.full_clean()
    assert "400" in caught.value.message_dict["context_window_chars"][0]
    live_settings.context_window_chars = 400
    live_settings.full_clean()


def test_saving_keeps_a_single_row(live_settings):
    RagSettings(ef_search=50).save()
    assert list(RagSettings.objects.values_list("pk", "ef_search")) == [(1, 50)]


def test_admin_form_rejects_a_minimum_above_the_maximum(admin_client, live_settings):
    data = form_data(live_settings, child_min_chars=400, child_max_chars=300)
    response = admin_client.post(CHANGE_URL, data)
    assert response.status_code == 200
    assert "child_max_chars" in response.context["adminform"].form.errors
    live_settings.refresh_from_db()
    assert live_settings.child_min_chars == 200


def test_admin_form_rejects_an_out_of_range_value(admin_client, live_settings):
    response = admin_client.post(CHANGE_URL, form_data(live_settings, ef_search=5000))
    assert response.status_code == 200
    assert "ef_search" in response.context["adminform"].form.errors


def test_admin_change_is_used_by_the_next_get_settings(admin_client, live_settings):
    assert live.get_settings().ef_search == 200  # now cached in this process
    response = admin_client.post(CHANGE_URL, form_data(live_settings, ef_search=123))
    assert response.status_code == 302, response.content[:2000]
    assert live.get_settings().ef_search == 123


def test_admin_change_of_fusion_k_is_used_by_rrf(admin_client, live_settings):
    rrf([["warm"]])  # the settings are now cached in this process
    admin_client.post(CHANGE_URL, form_data(live_settings, fusion_k=9))
    assert rrf([["a"]])[0].score == pytest.approx(1 / 10)


def test_admin_change_of_ef_search_is_used_by_vector_search(admin_client, live_settings):
    Doc.objects.create(category="live", embedding=[1.0] * 384)
    queryset = Doc.objects.filter(category="live")
    vector_search(queryset, [1.0] * 384, k=1, force_path="hnsw")
    admin_client.post(CHANGE_URL, form_data(live_settings, ef_search=321))
    _, report = vector_search(queryset, [1.0] * 384, k=1, force_path="hnsw")
    assert report.ef_search == 321


def test_admin_changelist_goes_straight_to_the_row(admin_client, live_settings):
    response = admin_client.get("/admin/rag/ragsettings/")
    assert response.status_code == 302
    assert response["Location"].endswith(CHANGE_URL)


def test_cached_settings_expire_after_the_ttl(live_settings, monkeypatch):
    assert live.get_settings().ef_search == 200
    RagSettings.objects.filter(pk=1).update(ef_search=64)  # another process saved, no signal
    assert live.get_settings().ef_search == 200
    now = live.time.monotonic()
    monkeypatch.setattr(live.time, "monotonic", lambda: now + live.TTL_SECONDS + 0.1)
    assert live.get_settings().ef_search == 64
