"""The engine's live settings: validation (model and admin form) and a change made in the admin."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from rag.models import RagSettings
from rag.search import rrf, vector_search
from rag.selectors import rag_settings_get
from tests.testapp.models import Doc

pytestmark = pytest.mark.django_db

CHANGE_URL = "/admin/rag/ragsettings/1/change/"

INVALID = [
    ({"fusion_k": 0}, "fusion_k"),
    ({"ef_search": 0}, "ef_search"),
    ({"ef_search": 1001}, "ef_search"),
    ({"similarity_floors": {"m": {"activities": 2}}}, "similarity_floors"),
    ({"similarity_floors": {"m": 0.5}}, "similarity_floors"),
    ({"similarity_floors": [0.5]}, "similarity_floors"),
]


def test_the_engine_keeps_only_its_own_settings():
    names = {f.name for f in RagSettings._meta.get_fields()}
    assert names == {
        "id",
        "updated_at",
        "similarity_floors",
        "relevance_cuts",
        "fusion_k",
        "ef_search",
        "exact_search_max_rows",
    }


def test_default_settings_are_valid(live_settings):
    live_settings.full_clean()


@pytest.mark.parametrize("changes, field", INVALID, ids=[f for _, f in INVALID])
def test_full_clean_rejects_out_of_range_values(live_settings, changes, field):
    for name, value in changes.items():
        setattr(live_settings, name, value)
    with pytest.raises(ValidationError) as caught:
        live_settings.full_clean()
    assert field in caught.value.message_dict


def test_admin_form_rejects_an_out_of_range_value(post_live_settings, live_settings):
    response = post_live_settings(live_settings, ef_search=5000)
    assert response.status_code == 200
    assert "ef_search" in response.context["adminform"].form.errors
    assert RagSettings.objects.get().ef_search == 200


def test_admin_change_is_used_by_the_next_read(post_live_settings, live_settings):
    assert rag_settings_get().ef_search == 200  # now cached in this process
    response = post_live_settings(live_settings, ef_search=123)
    assert response.status_code == 302, response.content[:2000]
    assert rag_settings_get().ef_search == 123


def test_admin_change_of_fusion_k_is_used_by_rrf(post_live_settings, live_settings):
    rrf([["warm"]])  # the settings are now cached in this process
    post_live_settings(live_settings, fusion_k=9)
    assert rrf([["a"]])[0].score == pytest.approx(1 / 10)


def test_admin_change_of_ef_search_is_used_by_vector_search(post_live_settings, live_settings):
    Doc.objects.create(category="live", embedding=[1.0] * 384)
    queryset = Doc.objects.filter(category="live")
    vector_search(queryset, [1.0] * 384, k=1, force_path="hnsw")
    post_live_settings(live_settings, ef_search=321)
    _, report = vector_search(queryset, [1.0] * 384, k=1, force_path="hnsw")
    assert report.ef_search == 321


def test_admin_changelist_goes_straight_to_the_row(admin_client, live_settings):
    response = admin_client.get("/admin/rag/ragsettings/")
    assert response.status_code == 302
    assert response["Location"].endswith(CHANGE_URL)
