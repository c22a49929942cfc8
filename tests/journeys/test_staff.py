"""Staff, over real HTTP: log in, open the search playground and the staff pages, zh and en.

On the journey service (``manage.py serve``, tests/journeys/conftest.py). The staff user logs in
through the admin's login form (the staff pages need a session, not a token) with a browser's
``Accept-Language`` (Simplified Chinese, then English), opens the activity browser, the writing
index and the search playground with a time query, and sees what the search understood of it.
"""

from __future__ import annotations

import re
from datetime import timedelta

import httpx
import pytest

from agent import extract
from tests.journeys.conftest import STAFF
from tests.platform.live_service import staff_password

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = [pytest.mark.slow, pytest.mark.real_clock]

LANGUAGES = {"zh": "zh-CN,zh;q=0.9", "en": "en-US,en;q=0.9"}
# Next weekend: its window opens at a midnight, whereas this weekend asked on a weekend opens
# at the instant of asking, which the test and the server read a moment apart.
TIME_QUERY = {"zh": "下周末玩水", "en": "swim next weekend"}
PLAYGROUND_TITLE = {"zh": "搜索试验台", "en": "Search playground"}
STAFF_PAGES = ("/staff/activities/", "/staff/writing/")


@pytest.fixture(params=list(LANGUAGES))
def staff(request, journey_service):
    """``(lang, client)``: an HTTP client logged in as the staff user, in one language."""
    lang = request.param
    client = httpx.Client(
        base_url=journey_service.url,
        timeout=120,
        headers={"Accept-Language": LANGUAGES[lang]},
    )
    form = client.get("/admin/login/", params={"next": "/staff/activities/"})
    assert form.status_code == 200, form.text[:500]
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text).group(1)
    logged_in = client.post(
        "/admin/login/?next=/staff/activities/",
        data={"username": STAFF, "password": staff_password(STAFF), "csrfmiddlewaretoken": csrf},
    )
    assert logged_in.status_code == 302, logged_in.text[:2000]
    assert logged_in.headers["location"] == "/staff/activities/"
    yield lang, client
    client.close()


def test_staff_pages_answer_a_logged_in_staff_user(staff):
    _, client = staff
    for path in STAFF_PAGES:
        page = client.get(path)
        assert page.status_code == 200, path
        assert "/admin/login/" not in str(page.url), path


def test_the_playground_searches_a_time_query(staff):
    lang, client = staff
    page = client.get("/staff/activities/search/", params={"q": TIME_QUERY[lang]})
    assert page.status_code == 200
    assert PLAYGROUND_TITLE[lang] in page.text  # in the staff user's language
    assert 'class="badge failed"' not in page.text  # neither an error nor a degraded search


def test_the_playground_shows_the_understood_time(staff):
    lang, client = staff
    window = extract.time_range_of(extract.read(TIME_QUERY[lang]))
    page = client.get("/staff/activities/search/", params={"q": TIME_QUERY[lang]})
    assert page.status_code == 200
    # The window's bounds: the search states its end exclusive (the next midnight), the
    # agent's reader inclusive (23:59): either spelling names the same window.
    assert window.start.isoformat()[:16] in page.text
    exclusive = (window.end + timedelta(seconds=1)).replace(second=0, microsecond=0)
    assert {window.end.isoformat()[:16], exclusive.isoformat()[:16]} & set(
        re.findall(r"\d{4}-\d\d-\d\dT\d\d:\d\d", page.text)
    ), page.text[:3000]
