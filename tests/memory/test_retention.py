"""Retention: age by storage time, summarise before deleting, switch, dry run, report, admin."""

from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from memory.models import ChatMessage, Kind

LEX = "/v1/messages/lexical_search"
SEM = "/v1/messages/semantic_search"
OLD_DAYS = 91  # stored one day before the default 90-day cut-off

IMPORTED = [
    ("h1", "2023-05-01T10:00:00Z", "我养了一只叫豆豆的橘猫，它最喜欢晒太阳。"),
    ("h2", "2023-05-01T10:01:00Z", "周末我们全家去杭州西湖划船看荷花。"),
    ("h3", "2023-05-02T09:00:00Z", "我在学弹吉他，每天练习半个小时。"),
]


def _items(chat_id="2023", rows=IMPORTED, prefix=""):
    return [
        {"message_id": prefix + mid, "ts": ts, "role": "user", "content": text, "chat_id": chat_id}
        for mid, ts, text in rows
    ]


def _age(**filters):
    """Make matching messages look stored ``OLD_DAYS`` days ago (only the DB knows when)."""
    when = timezone.now() - timedelta(days=OLD_DAYS)
    return ChatMessage.objects.filter(**filters).update(created_at=when)


def _ids(body):
    return [item["message_id"] for item in body["items"]]


@pytest.fixture
def imported(api_client, user, write):
    """Store three messages of 2023 (chat ``2023``) through the API, embedded."""
    write(api_client, user.username, _items(), status=201)
    return IMPORTED


@pytest.fixture
def admin_client(db, client):
    """A Django test client logged in as a superuser (the admin pages)."""
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser("root", "", "pw")
    client.force_login(admin)
    return client


def run_due_schedules():
    """Run every due django-q2 schedule as each queue's cluster's scheduler does (sync in tests)."""
    from django_q.conf import Conf
    from django_q.scheduler import scheduler

    from config.queues import QUEUES

    original = Conf.CLUSTER_NAME
    try:
        for queue in QUEUES:
            Conf.CLUSTER_NAME = queue  # each cluster's scheduler takes only its queue's schedules
            scheduler()
    finally:
        Conf.CLUSTER_NAME = original


def test_imported_history_survives_the_scheduled_sweep(
    api_client, user, imported, django_capture_on_commit_callbacks
):
    from django_q.models import Schedule, Success

    from memory.apps import register_memory_schedules

    register_memory_schedules(sender=None)
    past = timezone.now() - timedelta(seconds=1)
    # Only the retention schedule is due, as on a worker's first start; others wait.
    Schedule.objects.exclude(name="memory.retention_sweep").update(
        next_run=timezone.now() + timedelta(days=1)
    )
    Schedule.objects.filter(name="memory.retention_sweep").update(next_run=past)
    with django_capture_on_commit_callbacks(execute=True):
        run_due_schedules()
    assert Success.objects.filter(func="memory.tasks.retention_sweep").exists()
    assert ChatMessage.objects.filter(kind=Kind.MESSAGE).count() == 3
    lexical = api_client.post(
        LEX, {"user_id": user.username, "query_text": "豆豆"}, format="json"
    ).json()
    assert _ids(lexical) == ["h1"]
    semantic = api_client.post(
        SEM,
        {"user_id": user.username, "query_text": "西湖划船", "top_k": 10, "min_score": -1},
        format="json",
    ).json()
    # Every imported turn still has its vector; h2 (or h3, embedded with h2 before it) leads.
    assert sorted(_ids(semantic)) == ["h1", "h2", "h3"] and _ids(semantic)[0] in ("h2", "h3")


def test_due_chat_is_summarised_first_then_deleted_and_summary_found(
    api_client, user, imported, django_capture_on_commit_callbacks
):
    from memory.tasks import retention_sweep

    assert _age(user=user) == 3
    with django_capture_on_commit_callbacks(execute=True):
        result = retention_sweep()
    assert result["chats_summarised"] == 1 and result["messages_deleted"] == 3
    assert not ChatMessage.objects.filter(kind=Kind.MESSAGE).exists()
    summary = ChatMessage.objects.get(kind=Kind.SUMMARY)
    assert summary.covered_count == 3 and summary.chat_id == "2023"
    assert "豆豆" in summary.content and summary.embedding is not None
    # The summary stands in for the deleted turns: every search finds it without asking.
    lexical = api_client.post(
        LEX, {"user_id": user.username, "query_text": "豆豆"}, format="json"
    ).json()
    assert _ids(lexical) == [summary.message_id]
    semantic = api_client.post(
        SEM, {"user_id": user.username, "query_text": "橘猫晒太阳", "top_k": 1}, format="json"
    ).json()
    assert _ids(semantic) == [summary.message_id]
    assert semantic["items"][0]["provenance"]["source"]["type"] == "summary"


def test_only_messages_stored_before_the_cutoff_are_deleted(api_client, user, imported):
    from memory.retention import retention_run

    _age(user=user, message_id__in=["h1", "h2"])
    report = retention_run(dry_run=False)
    assert report.messages_deleted == 2 and report.messages_kept_recent == 1
    # h3 was summarised with its chat but is young: it stays until it is due itself.
    assert list(ChatMessage.objects.filter(kind=Kind.MESSAGE).values_list("message_id")) == [
        ("h3",)
    ]


def test_late_message_older_than_the_summary_is_summarised_before_deletion(user):
    from memory.retention import retention_run

    now = timezone.now()
    common = {"user": user, "chat_id": "c", "role": "user", "search_text": ""}
    ChatMessage.objects.create(
        message_id="s_0",  # generated ids grow with time; the next summary's sorts after it
        kind=Kind.SUMMARY,
        role="system",
        ts=now - timedelta(days=10),
        covers_until_ts=now - timedelta(days=10),
        covered_count=1,
        summarised=True,
        content="第一次的摘要：讨论了搬家的安排。",
        user=user,
        chat_id="c",
        search_text="",
    )
    ChatMessage.objects.create(
        message_id="m1",
        ts=now - timedelta(days=12),
        summarised=True,
        content="下周搬家。",
        **common,
    )
    # Arrived after the summary with an older ts: within its span, but never summarised.
    ChatMessage.objects.create(
        message_id="late",
        ts=now - timedelta(days=11),
        content="新家的钥匙在物业那里领取。",
        **common,
    )
    _age(user=user, kind=Kind.MESSAGE)
    report = retention_run(dry_run=False)
    assert report.messages_deleted == 2 and report.chats_summarised == 1
    newest = ChatMessage.objects.filter(kind=Kind.SUMMARY).order_by("-ts", "-message_id").first()
    assert newest.message_id != "s_0" and "钥匙" in newest.content
    assert newest.covered_count == 2 and newest.covers_until_ts == now - timedelta(days=10)


def test_summarised_message_without_a_summary_is_not_deleted_unsummarised(user):
    from memory.retention import retention_run

    ChatMessage.objects.create(
        user=user,
        message_id="orphan",
        chat_id="c",
        role="user",
        ts=timezone.now(),
        summarised=True,  # its summary was deleted by hand in the admin
        content="孤儿消息的内容要先进摘要。",
        search_text="",
    )
    _age(message_id="orphan")
    report = retention_run(dry_run=False)
    assert report.chats_summarised == 1 and report.messages_deleted == 1
    assert "孤儿消息" in ChatMessage.objects.get(kind=Kind.SUMMARY).content


def test_switched_off_deletes_nothing(user, imported, memory_settings):
    from memory.tasks import retention_sweep

    memory_settings.retention_enabled = False
    memory_settings.save()
    _age(user=user)
    result = retention_sweep()
    assert result["enabled"] is False and result["messages_deleted"] == 0
    assert ChatMessage.objects.filter(kind=Kind.MESSAGE).count() == 3
    assert not ChatMessage.objects.filter(kind=Kind.SUMMARY).exists()


def test_dry_run_command_changes_nothing_and_reports_counts(api_client, user, write):
    write(api_client, user.username, _items("a", IMPORTED[:2]), status=201)
    write(api_client, user.username, _items("b", IMPORTED[2:], prefix="b"), status=201)
    _age(user=user)
    before = list(ChatMessage.objects.order_by("pk").values_list("pk", "summarised"))
    out = StringIO()
    call_command("memory_retention", "--dry-run", "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["dry_run"] is True
    assert report["messages_deleted"] == 3 and report["chats_summarised"] == 2
    assert report["messages_summarised_first"] == 3 and report["summaries_kept"] == 0
    assert list(ChatMessage.objects.order_by("pk").values_list("pk", "summarised")) == before
    text = StringIO()
    call_command("memory_retention", "--dry-run", stdout=text)
    lines = [line.split() for line in text.getvalue().splitlines()]
    assert ["messages", "would", "be", "deleted", "(a", "summary", "covers", "them)", "3"] in lines


def test_run_is_bounded_and_leaves_the_rest_for_a_follow_up(api_client, user, write, monkeypatch):
    from django_q.models import Schedule

    from memory import retention
    from memory.tasks import retention_sweep

    for chat in ("a", "b", "c"):
        write(api_client, user.username, _items(chat, IMPORTED[:1], prefix=chat), status=201)
    _age(user=user)
    monkeypatch.setattr(retention, "MAX_CHATS_PER_RUN", 2)
    first = retention_sweep()
    assert first["chats_summarised"] == 2 and first["messages_deleted"] == 2
    assert first["chats_left"] == 1 and first["messages_kept_uncovered"] == 1
    assert first["more_remaining"] is True
    assert Schedule.objects.get(name="memory.retention_follow_up").cluster == "bulk"
    second = retention_sweep()
    assert second["chats_summarised"] == 1 and second["more_remaining"] is False
    third = retention_sweep()
    assert third["messages_deleted"] == 0 and third["chats_summarised"] == 0
    assert ChatMessage.objects.filter(kind=Kind.SUMMARY).count() == 3


def test_failed_summary_keeps_the_messages(user, imported, monkeypatch):
    from memory import summarize
    from memory.retention import retention_run

    def broken(*args, **kwargs):
        raise RuntimeError("provider down")

    monkeypatch.setattr(summarize, "summarise_texts", broken)
    _age(user=user)
    report = retention_run(dry_run=False)
    assert report.chats_failed == 1 and report.messages_deleted == 0
    assert report.messages_kept_uncovered == 3
    assert ChatMessage.objects.filter(kind=Kind.MESSAGE, summarised=False).count() == 3


def test_concurrent_run_is_skipped(user, imported):
    from django.db import connection

    from memory.retention import LOCK_KEY, retention_run

    other = connection.get_new_connection(connection.get_connection_params())
    try:
        other.autocommit = True
        other.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", [LOCK_KEY])
        _age(user=user)
        report = retention_run(dry_run=False)
    finally:
        other.close()
    assert report.skipped and report.messages_deleted == 0
    assert ChatMessage.objects.filter(kind=Kind.MESSAGE).count() == 3


def test_admin_page_shows_dry_run_and_runs_now(admin_client, user, imported):
    _age(user=user)
    url = "/admin/memory/chatmessageproxy/retention/"
    page = admin_client.get(url)
    assert page.status_code == 200
    assert "messages would be deleted (a summary covers them)" in page.content.decode()
    assert ChatMessage.objects.filter(kind=Kind.MESSAGE).count() == 3
    ran = admin_client.post(url, follow=True)
    assert ran.status_code == 200 and "3 messages deleted" in ran.content.decode()
    assert not ChatMessage.objects.filter(kind=Kind.MESSAGE).exists()
    assert "/retention/" in admin_client.get("/admin/memory/chatmessageproxy/").content.decode()


def test_admin_page_refuses_non_staff(client, user, imported):
    client.force_login(user)
    _age(user=user)
    response = client.post("/admin/memory/chatmessageproxy/retention/")
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert ChatMessage.objects.filter(kind=Kind.MESSAGE).count() == 3


def test_retention_is_scheduled_daily(db):
    from django_q.models import Schedule

    call_command("migrate", "memory", verbosity=0)
    schedule = Schedule.objects.get(name="memory.retention_sweep")
    assert schedule.func == "memory.tasks.retention_sweep"
    assert schedule.schedule_type == Schedule.DAILY


def test_rating_of_a_deleted_message_stays(user, imported):
    from memory.models import Feedback
    from memory.retention import retention_run
    from memory.services import feedback_create

    feedback_create(user=user, target_message_id="h1", rating=1)
    _age(user=user)
    assert retention_run(dry_run=False).messages_deleted == 3
    rating = Feedback.objects.get(user=user)
    assert rating.target_id is None and rating.target_message_id == "h1"


def test_cached_vectors_of_deleted_texts_go(cold_lru, api_client, user, write):
    from memory.retention import retention_run
    from rag.embeddings import content_hash
    from rag.models import EmbeddingCache

    write(api_client, user.username, _items(), status=201)
    hashes = [content_hash(m.embedding_text()) for m in ChatMessage.objects.all()]
    assert EmbeddingCache.objects.filter(content_hash__in=hashes).count() == 3
    _age(user=user)
    report = retention_run(dry_run=False)
    assert report.messages_deleted == 3 and report.cache_rows_deleted >= 3
    assert not EmbeddingCache.objects.filter(content_hash__in=hashes).exists()
