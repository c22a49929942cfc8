"""One language per page: every admin page and staff page, in English and in Chinese.

A superuser opens every registered model's changelist, add page and change page (one object
of each project model is created, with ASCII-only content) and every staff page, once with
``Accept-Language: en`` and once with ``zh-hans``. English pages have no Han character;
Chinese pages' visible text has no English word beyond a few proper names and technical
identifiers (paths, ``snake_case``, JSON keys). Also: the search playground shows each stage
of a time-phrase query, and the changelists' long text is shortened.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

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
DATA_WORDS = {"interactive", "bulk", "webhooks"}
HAN = re.compile(r"[\u3400-\u9fff]")
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
# Technical identifiers: paths, dotted names, snake_case, e5-small, "key": ... (not words).
IDENTIFIER = re.compile(r"[\w-]*[A-Za-z0-9](?:[/_.@:-][\w-]+)+|\"[^\"]*\"|\w*\d\w*")


def _visible_text(html: str) -> str:
    """Return the text nodes of a page: no scripts, styles, form contents, code or markup."""
    html = re.sub(r"(?is)<(script|style|textarea|code|pre|select)\b.*?</\1>", " ", html)
    # A search's output (match reasons in the query's language, the vibe and type labels it
    # read, which are the data's words): content, not the page's language.
    html = re.sub(r'(?s)<(td|dd) class="search-output">.*?</\1>', " ", html)
    html = re.sub(r"(?s)<!--.*?-->", " ", html)
    text = re.sub(r"(?s)<[^>]+>", " ", html)
    return re.sub(r"&\w+;|&#\d+;", " ", text)


def _english_words(html: str, url: str = "") -> set[str]:
    text = IDENTIFIER.sub(" ", _visible_text(html))
    words = set(ENGLISH_WORD.findall(text))
    allowed = ALLOWED_WORDS | CONTENT_WORDS | DATA_WORDS
    if url.startswith("/admin/django_q/"):
        allowed |= DJANGO_Q_WORDS
    return {w for w in words if w.lower() not in allowed}


def _around(text: str, needle: str) -> str:
    at = text.find(needle)
    return " ".join(text[max(0, at - 40) : at + 40].split())


def _check(client: Client, url: str, language: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language, follow=True)
    assert response.status_code == 200, (url, language, response.status_code)
    html = response.content.decode()
    if language == "en":
        text = _visible_text(html)
        found = HAN.findall(text)
        assert not found, f"{url}: {_around(text, found[0]) if found else ''}"
    else:
        assert HAN.search(html), url
        words = _english_words(html, url)
        text = IDENTIFIER.sub(" ", _visible_text(html))
        assert not words, f"{url}: {[_around(text, w) for w in sorted(words)]}"
    return html


@pytest.fixture
def objects(db):
    """One object of every project model, with ASCII-only content; the superuser first."""
    from activities.models import Activity, Participation, WorkingMemory
    from agent.models import AgentSession, PartnerIntent, SystemEvent, Webhook, WebhookDelivery
    from config.services import token_issue
    from memory.models import (
        ChatMessage,
        ContextEntry,
        Feedback,
        Kind,
        MemoryChange,
        Preference,
        SharedContext,
    )
    from rag.live import get_settings
    from rag.models import EmbeddingCache, WorkerHeartbeat
    from writing.models import (
        Book,
        Chapter,
        ChildChunk,
        ParentChunk,
        ParentSegment,
        StoryBlock,
    )

    root = get_user_model().objects.create_superuser("root", password="pw-root-long")
    ann = get_user_model().objects.create_user("ann", password="pw-ann-long")
    now = timezone.now()
    activity = Activity.objects.create(
        title="kayak " * 30,  # long: shortened in the changelist
        description="lake trip",
        type="kayak",
        start_at=now + timedelta(days=3),
        lat=31.2,
        lng=121.4,
        location_name="lake",
        max_participants=4,
        creator=root,
    )
    Participation.objects.create(user=ann, activity=activity)
    WorkingMemory.objects.create(user=ann, data={})
    event = SystemEvent.objects.create(user=ann, kind="daily_digest", period_key="2026-11-25")
    PartnerIntent.objects.create(user=ann, activity_type="kayak", description="lake trip")
    AgentSession.objects.create(user=ann, chat_id="trip")
    hook = Webhook.objects.create(owner=ann, url="https://lake.example/hook", secret="pad")
    WebhookDelivery.objects.create(webhook=hook, event=event)
    common = {"user": ann, "chat_id": "trip", "ts": now, "search_text": ""}
    message = ChatMessage.objects.create(
        message_id="one", role="user", content="quiet lake trip", **common
    )
    ChatMessage.objects.create(
        message_id="note", role="system", kind=Kind.SUMMARY, content="quiet trip", **common
    )
    Preference.objects.create(user=ann, category="trip", value="quiet")
    Feedback.objects.create(user=ann, target=message, target_message_id="one", rating=1)
    context = SharedContext.objects.create(owner=ann, title="trip")
    ContextEntry.objects.create(context=context, agent_name="pad", content="quiet")
    MemoryChange.objects.create(
        user=ann, actor="root", entity="preference", entity_id="1", action="update"
    )
    get_settings()
    EmbeddingCache.objects.create(model="pad", role="pad", content_hash="one", vector=[0.1, 0.2])
    WorkerHeartbeat.objects.create(name="one", seen_at=now)
    token_issue(user=ann, name="pad", key="1234567890" * 4)  # prefix 12345678: no word
    book = Book.objects.create(owner=ann, title="book")
    chapter = Chapter.objects.create(book=book, title="one")
    block = StoryBlock.objects.create(chapter=chapter, order=0, content="lake", content_hash="one")
    parent = ParentChunk.objects.create(
        chapter=chapter, first_block=block, text="lake", size=4, content_hash="one"
    )
    ParentSegment.objects.create(
        parent=parent, block=block, position=0, block_start=0, block_end=4, parent_start=0
    )
    ChildChunk.objects.create(
        parent=parent,
        story_block=block,
        chapter=chapter,
        book=book,
        chunk_order=0,
        text="lake",
        start=0,
        end=4,
        content_hash="one",
    )
    return {"root": root, "book": book, "chapter": chapter}


def _admin_urls(root) -> list[str]:
    request = RequestFactory().get("/admin/")
    request.user = root
    urls = []
    for model, model_admin in admin.site._registry.items():
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
        *(reverse("admin:app_list", args=[app]) for app in _project_apps()),
    ]
    return urls


def _project_apps() -> list[str]:
    return ["activities", "agent", "memory", "rag", "writing"]


def _staff_urls(objects) -> list[str]:
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


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_every_admin_and_staff_page_speaks_one_language(objects, language):
    client = Client()
    client.force_login(objects["root"])
    urls = _admin_urls(objects["root"]) + _staff_urls(objects)
    failures = []
    for url in urls:
        try:
            _check(client, url, language)
        except AssertionError as exc:
            failures.append(str(exc))
    assert not failures, "\n".join(failures)


def test_the_pages_cover_every_registered_model(objects):
    covered = {"/".join(url.split("/")[2:4]) for url in _admin_urls(objects["root"])}
    for model in admin.site._registry:
        assert f"{model._meta.app_label}/{model._meta.model_name}" in covered


def test_changelist_shortens_long_text(objects):
    client = Client()
    client.force_login(objects["root"])
    html = client.get(reverse("admin:activities_activity_changelist")).content.decode()
    text = _visible_text(html)  # the full title stays in the checkbox's aria-label
    assert "kayak " * 30 not in text and "…" in text


def test_admin_labels_follow_the_language(objects):
    client = Client()
    client.force_login(objects["root"])
    url = reverse("admin:activities_workingmemory_changelist")
    en = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    zh = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "Working memories" in en and "Working memorys" not in en
    assert "工作记忆" in zh and "选择 工作记忆 来修改" in zh.replace("\n", "")


def test_retention_report_dates_are_local_without_microseconds(objects):
    client = Client()
    client.force_login(objects["root"])
    html = client.get(reverse("admin:memory_chatmessageproxy_retention")).content.decode()
    cutoff = re.search(r"stored before \(cut-off\)</th><td>([^<]*)</td>", html).group(1)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0800", cutoff), cutoff
    zh = client.get(
        reverse("admin:memory_chatmessageproxy_retention"), HTTP_ACCEPT_LANGUAGE="zh-hans"
    ).content.decode()
    assert "存储早于（截止时间）" in zh and "试运行：未做任何修改" in zh


def test_playground_shows_every_stage_of_a_time_phrase_query(objects):
    client = Client()
    client.force_login(objects["root"])
    url = reverse("activities-staff-search")
    for language, words in (
        ("en", ["time phrase", "window", "Relevance cut", "path", "candidates"]),
        ("zh-hans", ["时间短语", "时间窗口", "相关性截断", "路径", "候选数"]),
    ):
        response = client.get(url, {"q": "this weekend kayak"}, HTTP_ACCEPT_LANGUAGE=language)
        html = response.content.decode()
        time = response.context["outcome"]["meta"]["understood"]["time"]
        assert time and time["phrase"], time
        stage = re.search(r'id="stage-time">(.*?)</dd>', html, re.S).group(1)
        assert time["phrase"] in stage and time["reason"], stage
        assert f'datetime="{time["start"]}"' in stage and f'datetime="{time["end"]}"' in stage
        assert all(word in html for word in words), language
        if not response.context["outcome"]["results"]:
            assert re.search(r'id="no-results">[^<]*:\s*\S', html)


def test_no_results_always_says_why(objects):
    client = Client()
    client.force_login(objects["root"])
    response = client.get(
        reverse("activities-staff-search"), {"q": "kayak", "type": "no-such-type"}
    )
    html = response.content.decode()
    assert not response.context["outcome"]["results"]
    assert "No results: no activity passes the filters" in html


# A datetime as ISO text (2026-11-25T02:00:00Z, +00:00) or named in UTC: not the admin's zone.
ISO_OR_UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d|\+00:?00\b|\bUTC\b")


def test_changelists_show_times_in_the_admins_time_zone(objects, settings):
    from memory.models import ChatMessage

    client = Client()
    client.force_login(objects["root"])
    failures = []
    changelists = [
        reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        for model in admin.site._registry
    ]
    for url in changelists:
        text = _visible_text(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
        failures += [f"{url}: {_around(text, m.group(0))}" for m in ISO_OR_UTC.finditer(text)]
    assert not failures, "\n".join(failures)
    # The message's ts, in the admin's zone and format, is what its row shows.
    stored = timezone.localtime(ChatMessage.objects.get(message_id="one").ts)
    url = reverse("admin:memory_chatmessageproxy_changelist")
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert str(stored.tzinfo) == settings.TIME_ZONE != "UTC"
    with translation.override("en"):
        assert date_format(stored, "DATETIME_FORMAT") in html
