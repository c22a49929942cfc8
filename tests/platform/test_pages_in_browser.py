"""The pages as people see them: Debian's Chromium opens them as a logged-in admin.

Every admin changelist and change page of the registered models, the staff pages, the
playgrounds and the API documentation (Swagger UI, ReDoc), in English and in Chinese, in a
1400-pixel-wide window: no console error, no failed request for an asset, nothing wider than
the window, and (but for the API documentation, whose text is the schema's English) no string
of the other language in what the browser rendered. The playgrounds' answers are read from
the screen as a person reads them. One browser for the module (``browser``); each
test opens one tab and reuses it for every page.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.platform.pages import WINDOW, admin_urls, language_problem, staff_urls
from writing.services import book_create, chapter_create

pytestmark = [pytest.mark.slow, pytest.mark.browser]

LANGUAGES = ["en", "zh-hans"]
ROOT_PASSWORD = "pw-root-long"  # the ``objects`` fixture's superuser
# A chapter as writers write them: dozens of long paragraphs of Chinese prose.
PARAGRAPH = (
    "雨从黄昏开始下，一直没有停。林深站在码头的尽头，看着湖面上一圈一圈散开的涟漪，"
    "想起父亲说过的话：船要在天亮前出发，风向一变，整个湖就会翻脸。他把缆绳绕在手腕上，"
    "听着远处传来的汽笛声，心里却在盘算另一件事——那封没有寄出的信，还压在旧箱子的底层。"
)
BLOCKS = [f"第{i + 1}段。" + PARAGRAPH * 3 for i in range(40)]


class Screen:
    """One browser tab in one language, recording what went wrong on the page it shows."""

    def __init__(self, browser, base_url: str, language: str):
        self.base_url = base_url
        self.language = language
        # A context of its own: a person's browser in that language (cache and cookies too).
        self.context = browser.new_context(
            viewport=WINDOW, locale=language, extra_http_headers={"Accept-Language": language}
        )
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"script error: {error}"))
        self.page.on(
            "requestfailed", lambda r: self.errors.append(f"failed: {r.url} ({r.failure})")
        )
        self.page.on(
            "response",
            lambda r: r.status >= 400 and self.errors.append(f"HTTP {r.status}: {r.url}"),
        )

    def _console(self, message) -> None:
        if message.type == "error":
            self.errors.append(f"console error: {message.text}")

    def log_in(self, username: str, password: str) -> None:
        self.page.goto(self.base_url + reverse("admin:login"))
        self.page.fill("#id_username", username)
        self.page.fill("#id_password", password)
        with self.page.expect_navigation():
            self.page.click("input[type=submit]")
        assert "/admin/login/" not in self.page.url, self.page.url

    def open(self, path: str) -> list[str]:
        """Open ``path`` and wait for it to load; return what is wrong with it so far."""
        self.errors = []
        response = self.page.goto(self.base_url + path)
        if not (response and response.ok):
            self.errors.append(f"HTTP {response and response.status}")
        return self.check(path)

    def check(self, path: str) -> list[str]:
        """Return what is wrong with the page shown: failed requests, console errors, width."""
        problems = list(self.errors)
        width = self.page.evaluate("document.documentElement.scrollWidth")
        if width > WINDOW["width"]:
            problems.append(f"{width} px wide, wider than the {WINDOW['width']} px window")
        return [f"{path} ({self.language}): {p}" for p in problems]

    def rendered(self, selector: str) -> None:
        """Wait until a script-drawn page shows ``selector`` (its content, fetched and drawn)."""
        self.page.wait_for_selector(selector, timeout=120_000)

    def speaks_other_language(self, path: str) -> list[str]:
        content = "".join(BLOCKS)
        problem = language_problem(self.page.content(), path, self.language, content)
        return [f"{path} ({self.language}): other language: {problem}"] if problem else []

    def text(self, selector: str) -> str:
        """Return the text a person sees in ``selector`` (as laid out: CSS applied)."""
        return self.page.inner_text(selector)

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def long_chapter(objects):
    """A chapter of 40 long paragraphs of Chinese prose in ann's book, chunked and embedded."""
    ann = get_user_model().objects.get(username="ann")
    book = book_create(user=ann, title="lake")
    return chapter_create(user=ann, book_id=book.pk, title="lake", sequence=1, blocks=BLOCKS)


@pytest.fixture
def screen_for(browser, live_server, objects, long_chapter):
    """Return a factory: a logged-in admin's tab in a language, closed after the test."""
    screens = []

    def factory(language: str) -> Screen:
        screen = Screen(browser, live_server.url, language)
        screens.append(screen)
        screen.log_in("root", ROOT_PASSWORD)
        return screen

    yield factory
    for screen in screens:
        screen.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_renders_cleanly_in_one_language(screen_for, objects, long_chapter, language):
    screen = screen_for(language)
    chapter_pages = [
        reverse("admin:writing_chapter_change", args=[long_chapter.pk]),
        reverse("writing-inspect", args=[long_chapter.pk]),
        reverse("writing-playground", args=[long_chapter.book_id]) + "?q=码头",
    ]
    problems = []
    for path in admin_urls(objects["root"], add_pages=False) + staff_urls(objects) + chapter_pages:
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
