"""Staff pages: the activity browser and the search playground."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_pages_are_staff_only(client, user):
    client.force_login(user)
    for url in ("/staff/activities/", "/staff/activities/search/"):
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_browser_shows_index_state_and_text(client, staff_user, demo_activities):
    client.force_login(staff_user)
    page = client.get("/staff/activities/", {"type": "水上", "index_state": "indexed"})
    assert page.status_code == 200
    html = page.content.decode()
    assert "室内冲浪" in html and "标题: " in html and "indexed" in html
    assert "重庆火锅" not in html


def test_playground_shows_scores_and_path(client, staff_user, demo_activities):
    client.force_login(staff_user)
    page = client.get(
        "/staff/activities/search/", {"q": "玩水", "lat": "31.23", "lng": "121.47", "radius": "50"}
    )
    html = page.content.decode()
    assert page.status_code == 200
    assert "semantic" in html and "similarity" in html and "boost" in html
    assert "室内冲浪" in html


def test_playground_refuses_an_over_long_query_without_searching(client, staff_user, settings):
    settings.RAG_QUERY_MAX_CHARS = 10
    client.force_login(staff_user)
    page = client.get("/staff/activities/search/", {"q": "玩" * 11})
    assert page.status_code == 200
    assert "longer than 10 characters" in page.content.decode()
    assert page.context["outcome"] is None


@pytest.mark.parametrize("limit", ["1e400", "nan", "-5", "100000"])
def test_playground_bounds_an_odd_limit(client, staff_user, limit):
    client.force_login(staff_user)
    page = client.get("/staff/activities/search/", {"q": "玩水", "limit": limit})
    assert page.status_code == 200
    assert page.context["error"] is None
