"""Fixtures of the platform tests: one object of every project model, a headless browser,
a long Chinese chapter, logged-in browser tabs."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import sync_playwright

from tests.platform.pages import Screen
from writing.services import book_create, chapter_create

# Debian's Chromium (`apt-get install chromium chromium-driver`, as .ci/run does): Playwright
# drives it; it never downloads a browser of its own.
CHROMIUM = Path("/usr/bin/chromium")
ROOT_PASSWORD = "pw-root-long"  # the ``objects`` fixture's superuser
# Root runs the tests here and in CI: no sandbox. Nothing the browser does on its own (updates,
# sync, first-run pages, QUIC probes) may add a request or a console line to what is checked.
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def objects(db):
    """One object of every project model, with ASCII-only content; the superuser first."""
    from activities.models import Activity, Participation, WorkingMemory
    from activities.selectors import activity_settings_get
    from agent.models import AgentSession, PartnerIntent, SystemEvent, Webhook, WebhookDelivery
    from agent.selectors import agent_settings_get
    from config.models import WorkerHeartbeat
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
    from memory.selectors import memory_settings_get
    from rag.models import EmbeddingCache
    from rag.selectors import rag_settings_get
    from writing.models import (
        Book,
        Chapter,
        ChildChunk,
        ParentChunk,
        ParentSegment,
        StoryBlock,
    )
    from writing.selectors import writing_settings_get

    root = get_user_model().objects.create_superuser("root", password=ROOT_PASSWORD)
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
    for settings_get in (
        rag_settings_get,
        activity_settings_get,
        memory_settings_get,
        writing_settings_get,
        agent_settings_get,
    ):
        settings_get().save()  # each app's live settings row, with its defaults
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


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """Headless Chromium (Playwright starts it in a fresh profile), one per module.

    Without Chromium the browser tests skip, loudly; under CI (``CI`` set) they fail instead,
    since CI installs it. Playwright's sync API marks its event loop as running between calls,
    which Django's ORM takes for async code: allowed here, in this module's tests only.
    """
    if not CHROMIUM.exists():
        reason = (
            f"NO BROWSER: {CHROMIUM} is missing, so the pages were NOT tested in a browser. "
            "Install Debian's chromium and chromium-driver (`apt-get install chromium "
            "chromium-driver`, as .ci/run does)."
        )
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS
            )
            try:
                yield browser
            finally:
                browser.close()
    finally:
        if before is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


# A chapter as writers write them: dozens of long paragraphs of Chinese prose.
PARAGRAPH = (
    "雨从黄昏开始下，一直没有停。林深站在码头的尽头，看着湖面上一圈一圈散开的涟漪，"
    "想起父亲说过的话：船要在天亮前出发，风向一变，整个湖就会翻脸。他把缆绳绕在手腕上，"
    "听着远处传来的汽笛声，心里却在盘算另一件事——那封没有寄出的信，还压在旧箱子的底层。"
)
BLOCKS = [f"第{i + 1}段。" + PARAGRAPH * 3 for i in range(40)]


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
        screen = Screen(browser, live_server.url, language, content="".join(BLOCKS))
        screens.append(screen)
        screen.log_in("root", ROOT_PASSWORD)
        return screen

    yield factory
    for screen in screens:
        screen.close()
