"""What the page tests share: the admin's and staff's pages, language checks, a browser tab.

Used by the test client's walk (``test_admin_language.py``) and the browser's
(``test_pages_in_browser.py``): one list of pages, one rule for "a string of the other
language".
"""

from __future__ import annotations

import re

from django.apps import apps
from django.contrib import admin
from django.test import RequestFactory
from django.urls import reverse

# The browser window every page must fit in (no horizontal scrolling).
WINDOW = {"width": 1400, "height": 900}
PROJECT_APPS = ["activities", "agent", "memory", "rag", "writing"]
# User content: every object below is made of these words (stripped before the zh check).
CONTENT_WORDS = {"root", "ann", "kayak", "lake", "trip", "quiet", "book", "one", "note", "pad"}
# Proper names and acronyms a Chinese page may show as they are.
ALLOWED_WORDS = {
    "api",
    "mcp",
    "json",
    "url",
    "llm",
    "hnsw",
    "token",
    "webhook",
    "postgresql",
    "pgvector",
    "openapi",
    "redoc",
    "swagger",
    "django",
    "orm",
    "utc",
    "gmt",
    "http",
    "https",
    "control",  # key names in Django's own help text
    "command",
    "mac",
    "ldap",
}
# django-q2's own words its catalog leaves in English or keeps (cron, kwarg, an example name,
# field names without a translation): allowed on its pages only.
DJANGO_Q_WORDS = {"cron", "kwarg", "john", "name", "key", "cluster", "success"}
# Rows django-q2's migrations and this project's settings write (cluster and schedule names).
# and a task's result ("done") on django-q2's pages.
DATA_WORDS = {"interactive", "bulk", "webhooks", "done"}
HAN = re.compile(r"[\u3400-\u9fff]")
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
# Technical identifiers: paths, dotted names, snake_case, e5-small, "key": ... (not words).
IDENTIFIER = re.compile(r"[\w-]*[A-Za-z0-9](?:[/_.@:-][\w-]+)+|\"[^\"]*\"|\w*\d\w*")


def visible_text(html: str) -> str:
    """Return the text nodes of a page: no scripts, styles, form contents, code or markup."""
    html = re.sub(r"(?is)<(script|style|textarea|code|pre|select)\b.*?</\1>", " ", html)
    # A search's output (match reasons in the query's language, the vibe and type labels it
    # read, which are the data's words): content, not the page's language.
    html = re.sub(r'(?s)<(td|dd) class="search-output">.*?</\1>', " ", html)
    html = re.sub(r"(?s)<!--.*?-->", " ", html)
    text = re.sub(r"(?s)<[^>]+>", " ", html)
    return re.sub(r"&\w+;|&#\d+;", " ", text)


def english_words(html: str, url: str = "") -> set[str]:
    text = IDENTIFIER.sub(" ", visible_text(html))
    words = set(ENGLISH_WORD.findall(text))
    allowed = ALLOWED_WORDS | CONTENT_WORDS | DATA_WORDS
    if url.startswith("/admin/django_q/"):
        allowed |= DJANGO_Q_WORDS
    return {w for w in words if w.lower() not in allowed}


def around(text: str, needle: str) -> str:
    at = text.find(needle)
    return " ".join(text[max(0, at - 40) : at + 40].split())


# A run of Chinese text (Han, CJK punctuation, full-width forms).
HAN_RUN = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef\d]+")


def language_problem(html: str, url: str, language: str, content: str = "") -> str | None:
    """Return what in a page's HTML is of the other language than ``language``, or None.

    English: no Han character in the visible text but runs of ``content`` (user content a
    test made in Chinese). Chinese: some Han text, and no English word but proper names,
    identifiers and user content.
    """
    text = visible_text(html)
    if content:
        text = HAN_RUN.sub(lambda m: " " if m.group() in content else m.group(), text)
    if language == "en":
        found = HAN.findall(text)
        return f"{url}: {around(text, found[0])}" if found else None
    if not HAN.search(html):
        return f"{url}: no Chinese at all"
    words = english_words(html, url)
    text = IDENTIFIER.sub(" ", text)
    return f"{url}: {[around(text, w) for w in sorted(words)]}" if words else None


def registered_models() -> list:
    """Return every model with an admin, through the admin site's public API."""
    return [m for m in apps.get_models() if admin.site.is_registered(m)]


def admin_urls(root) -> list[str]:
    """Return every admin page of the registered models: changelist, add and change pages."""
    request = RequestFactory().get("/admin/")
    request.user = root
    urls = []
    for model in registered_models():
        model_admin = admin.site.get_model_admin(model)
        info = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        urls.append(reverse(f"{info}_changelist"))
        if model_admin.has_add_permission(request):
            urls.append(reverse(f"{info}_add"))
        obj = model_admin.get_queryset(request).first()
        if obj is not None:
            urls.append(reverse(f"{info}_change", args=[obj.pk]))
    urls += [
        reverse("admin:index"),
        reverse("admin:memory_chatmessageproxy_retention"),
        *(reverse("admin:app_list", args=[app]) for app in PROJECT_APPS),
    ]
    return urls


def staff_urls(objects) -> list[str]:
    """Return every staff page and playground, about the objects of the ``objects`` fixture."""
    book, chapter = objects["book"], objects["chapter"]
    return [
        "/",
        reverse("activities-staff-browser"),
        reverse("activities-staff-search"),
        reverse("activities-staff-search") + "?q=kayak",
        reverse("writing-staff-index"),
        reverse("writing-inspect", args=[chapter.pk]),
        reverse("writing-playground", args=[book.pk]) + "?q=lake",
    ]


class Screen:
    """One browser tab in one language, recording what went wrong on the page it shows."""

    def __init__(self, browser, base_url: str, language: str, *, content: str = ""):
        self.base_url = base_url
        self.language = language
        self.content = content  # user content in Chinese, not a string of the page's language
        # A context of its own: a person's browser in that language (cache and cookies too).
        self.context = browser.new_context(
            viewport=WINDOW, locale=language, extra_http_headers={"Accept-Language": language}
        )
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"script error: {error}"))
        self.page.on("requestfailed", self._failed)
        self.page.on(
            "response",
            lambda r: r.status >= 400 and self.errors.append(f"HTTP {r.status}: {r.url}"),
        )

    def _failed(self, request) -> None:
        # A request the browser cancelled (net::ERR_ABORTED: the next navigation left before a
        # CSS background image of the page before had arrived) did not fail; a missing asset
        # answers 404 (the "response" handler) and a broken one another net:: error.
        if "ERR_ABORTED" not in (request.failure or ""):
            self.errors.append(f"failed: {request.url} ({request.failure})")

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
        problem = language_problem(self.page.content(), path, self.language, self.content)
        return [f"{path} ({self.language}): other language: {problem}"] if problem else []

    def text(self, selector: str) -> str:
        """Return the text a person sees in ``selector`` (as laid out: CSS applied)."""
        return self.page.inner_text(selector)

    def close(self) -> None:
        self.context.close()
