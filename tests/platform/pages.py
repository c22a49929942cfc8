"""What the page tests share: the pages of the admin and of the staff, and language checks.

Used by the test client's walk (``test_admin_language.py``) and the browser's
(``test_pages_in_browser.py``): one list of pages, one rule for "a string of the other
language".
"""

from __future__ import annotations

import re

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


def admin_urls(root, *, add_pages: bool = True) -> list[str]:
    """Return every admin page of the registered models (add pages too if ``add_pages``)."""
    request = RequestFactory().get("/admin/")
    request.user = root
    urls = []
    for model, model_admin in admin.site._registry.items():
        info = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        urls.append(reverse(f"{info}_changelist"))
        if add_pages and model_admin.has_add_permission(request):
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
