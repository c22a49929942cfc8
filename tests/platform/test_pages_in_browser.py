"""The pages as people see them: Debian's Chromium opens them as a logged-in admin.

Every admin changelist, add and change page of the registered models, the staff pages, the
playgrounds and the API documentation (Swagger UI, ReDoc), in English and in Chinese, in a
1400-pixel-wide window: no console error, no failed request for an asset, nothing wider than
the window, and (but for the API documentation: Swagger UI and ReDoc have no translations,
and only the schema's descriptions of the API and its tags follow the language) no string of
the other language in what the browser rendered. The playgrounds' answers are read from the
screen as a person reads them; Swagger UI's "Try it out" is used as a person uses it. One
browser for the module (``browser``, in conftest.py); each test opens one tab
(``screen_for``) and reuses it for every page.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.platform.pages import admin_urls, staff_urls

pytestmark = [pytest.mark.slow, pytest.mark.browser]

LANGUAGES = ["en", "zh-hans"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_renders_cleanly_in_one_language(screen_for, objects, long_chapter, language):
    screen = screen_for(language)
    chapter_pages = [
        reverse("admin:writing_chapter_change", args=[long_chapter.pk]),
        reverse("writing-inspect", args=[long_chapter.pk]),
        reverse("writing-playground", args=[long_chapter.book_id]) + "?q=码头",
    ]
    problems = []
    for path in admin_urls(objects["root"]) + staff_urls(objects) + chapter_pages:
        problems += screen.open(path)
        problems += screen.speaks_other_language(path)
    # The API documentation: drawn by scripts from the schema, then checked.
    for name, drawn in (("swagger-ui", ".opblock"), ("redoc", "[data-section-id]")):
        screen.open(reverse(name))
        screen.rendered(drawn)
        problems += screen.check(reverse(name))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_playgrounds_show_their_answers(screen_for, long_chapter, language):
    screen = screen_for(language)
    screen.open(reverse("activities-staff-search") + "?q=kayak")
    assert "kayak" in screen.text("table"), screen.text("body")
    screen.open(reverse("writing-playground", args=[long_chapter.book_id]) + "?q=码头的尽头")
    shown = screen.text("table")
    assert "林深站在码头的尽头" in shown, shown


def test_swagger_try_it_out_executes_an_example_as_shipped(screen_for, objects):
    """Authorize with a token, "Try it out" on a POST, "Execute": the example answers 2xx."""
    from config.services import token_issue

    key = token_issue(user=objects["root"], name="swagger").key
    screen = screen_for("en")
    page = screen.page
    screen.open(reverse("swagger-ui"))
    screen.rendered(".opblock")
    # The token scheme's value is the whole header: "Token <key>" (README, "Get an API token").
    page.click("button.authorize")
    scheme = page.locator(".auth-container").filter(has_text="tokenAuth")
    scheme.locator("input").fill(f"Token {key}")
    scheme.locator("button.authorize").click()
    page.click("button.btn-done")
    operation = page.locator("#operations-Writing-writing_book_create")
    operation.locator(".opblock-summary").click()
    operation.locator("button.try-out__btn").click()
    operation.locator("button.execute").click()
    status = operation.locator(".live-responses-table .response .response-col_status")
    status.wait_for(timeout=60_000)
    shown = operation.locator(".live-responses-table").inner_text()
    assert status.inner_text().strip() == "201", shown
    assert "西游记" in shown, shown
    assert screen.check(reverse("swagger-ui")) == []
