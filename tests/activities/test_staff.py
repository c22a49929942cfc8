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
