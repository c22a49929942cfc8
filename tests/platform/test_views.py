"""The home page at ``/`` and the admin's links to the staff pages (config/views.py)."""

from __future__ import annotations

import pytest
from django.test import Client

STAFF_LINKS = (
    'href="/staff/activities/"',
    'href="/staff/activities/search/"',
    'href="/staff/writing/"',
)


@pytest.fixture
def staff_browser(staff_user):
    """A browser session logged in as the staff user."""
    client = Client()
    client.force_login(staff_user)
    return client


@pytest.fixture
def user_browser(user):
    """A browser session logged in as a normal (non-staff) user."""
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_home_page_says_what_the_service_is_and_links_admin_docs_and_health():
    response = Client().get("/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "semantic memory" in html
    for link in ('href="/admin/"', 'href="/api/docs/"', 'href="/api/redoc/"', 'href="/api/health"'):
        assert link in html


@pytest.mark.django_db
def test_home_page_shows_the_staff_pages_to_staff(staff_browser):
    html = staff_browser.get("/").content.decode()
    assert all(link in html for link in STAFF_LINKS)


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["anonymous", "user"])
def test_home_page_hides_the_staff_pages_from_others(who, user_browser):
    client = Client() if who == "anonymous" else user_browser
    html = client.get("/").content.decode()
    assert not any(link in html for link in STAFF_LINKS)


@pytest.mark.django_db
def test_admin_index_links_to_the_staff_pages(staff_browser):
    response = staff_browser.get("/admin/")
    html = response.content.decode()
    assert response.status_code == 200
    assert all(link in html for link in STAFF_LINKS)


@pytest.mark.django_db
def test_admin_view_site_link_leads_to_the_home_page(staff_browser):
    html = staff_browser.get("/admin/").content.decode()
    assert 'href="/"' in html


@pytest.mark.django_db
def test_the_site_icon_is_served(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg")
