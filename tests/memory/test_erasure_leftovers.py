"""Erasure leaves nothing behind outside the apps' own rows.

The admin's log entries about the user's rows are scrubbed, those the user made go; the
django-q rows (finished, queued, scheduled) of tasks naming the user's rows are deleted; a
vector an embedding task in flight stores after the erasure is forgotten by a later pass; the
account goes, with its token and its sessions.
"""

from __future__ import annotations

import ast
import pickle
from datetime import timedelta

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.utils import timezone
from django_q.models import OrmQ, Schedule, Task
from django_q.signing import SignedPackage
from rest_framework.test import APIClient

from config.models import ApiToken
from memory.models import ChatMessage, ChatMessageProxy, Preference
from rag.embeddings import content_hash, embedding_cache_forget_hashes
from rag.models import EmbeddingCache

pytestmark = pytest.mark.django_db


def _log(actor, obj, text: str) -> LogEntry:
    return LogEntry.objects.create(
        user=actor,
        content_type=ContentType.objects.get_for_model(obj, for_concrete_model=False),
        object_id=str(obj.pk),
        object_repr=text,
        action_flag=CHANGE,
        change_message=f"changed to {text}",
    )


@pytest.fixture
def prefs(api_client, other_client, user, other_user):
    for client, who in ((api_client, user), (other_client, other_user)):
        path = f"/v1/users/{who.username}/preferences"
        client.post(path, {"category": "food", "value": f"{who.username} 不吃辣"}, format="json")
    return Preference.objects.get(user=user), Preference.objects.get(user=other_user)


def test_admin_log_entries_about_the_user_are_scrubbed_and_theirs_go(
    api_client, staff_user, user, other_user, prefs, plain_chat
):
    mine, theirs = prefs
    about_mine = _log(staff_user, mine, mine.value)
    message = ChatMessageProxy.objects.filter(user=user).first()  # the admin logs the proxy
    about_message = _log(staff_user, message, message.content)
    about_account = _log(staff_user, user, user.username)
    made_by_user = _log(user, theirs, "user acted as staff once")
    about_theirs = _log(staff_user, theirs, theirs.value)

    deleted = api_client.delete(f"/v1/users/{user.username}").json()["deleted"]

    assert deleted["admin_log_entries"] == 4
    for entry in (about_mine, about_message, about_account):
        entry.refresh_from_db()
        assert (entry.object_repr, entry.change_message) == ("(erased)", "")
        assert entry.user_id == staff_user.pk  # who acted, and when, stays
    assert not LogEntry.objects.filter(pk=made_by_user.pk).exists()
    about_theirs.refresh_from_db()
    assert about_theirs.object_repr == theirs.value


def _task(func: str, args) -> Task:
    now = timezone.now()
    return Task.objects.create(
        id=f"t{Task.objects.count()}",
        name=func,
        func=func,
        args=args,
        started=now,
        stopped=now,
        success=True,
    )


def test_task_rows_naming_the_users_rows_are_deleted(api_client, user, other_user, plain_chat):
    from memory.services import messages_write

    now = timezone.now().isoformat()
    messages_write(user=other_user, items=[{"ts": now, "role": "user", "content": "b 的消息"}])
    mine = list(ChatMessage.objects.filter(user=user).values_list("pk", flat=True))
    theirs = list(ChatMessage.objects.filter(user=other_user).values_list("pk", flat=True))
    Task.objects.all().delete()
    OrmQ.objects.all().delete()
    my_task = _task("memory.tasks.messages_embed", (mine,))
    my_summary = _task("memory.tasks.chat_summarize", (user.pk, "c1"))
    their_task = _task("memory.tasks.messages_embed", (theirs,))
    payload = {"id": "q1", "name": "q1", "func": "memory.tasks.messages_embed", "args": (mine,)}
    queued = OrmQ.objects.create(
        key="bulk", payload=SignedPackage.dumps(payload), lock=timezone.now()
    )
    retry = Schedule.objects.create(
        name="memory.embed_retry:x",
        func="memory.tasks.messages_embed",
        args=repr((mine[:1],)),
        schedule_type=Schedule.ONCE,
        next_run=timezone.now() + timedelta(hours=1),
    )

    deleted = api_client.delete(f"/v1/users/{user.username}").json()["deleted"]

    assert deleted["task_rows"] == 4
    assert not Task.objects.filter(pk__in=[my_task.pk, my_summary.pk]).exists()
    assert not OrmQ.objects.filter(pk=queued.pk).exists()
    assert not Schedule.objects.filter(pk=retry.pk).exists()
    assert Task.objects.filter(pk=their_task.pk).exists()
    assert pickle.loads(pickle.dumps(their_task.args))  # untouched, still readable


def test_a_vector_stored_by_a_task_in_flight_is_forgotten_after_the_erasure(
    api_client, user, plain_chat, settings
):
    text = ChatMessage.objects.filter(user=user).first().embedding_text()

    api_client.delete(f"/v1/users/{user.username}")
    # An embedding task that read the row before the erasure stores its vector after it.
    late = EmbeddingCache.objects.create(
        model="m@3", role="passage", content_hash=content_hash(text), vector=[0.1, 0.2, 0.3]
    )
    scheduled = Schedule.objects.get(func="rag.embeddings.embedding_cache_forget_hashes")

    timeout = settings.Q_CLUSTER["timeout"]
    assert scheduled.next_run >= timezone.now() + timedelta(seconds=timeout)
    embedding_cache_forget_hashes(*ast.literal_eval(scheduled.args))
    assert not EmbeddingCache.objects.filter(pk=late.pk).exists()


def test_the_account_goes_with_its_token_and_sessions(api_client, user, other_user):
    browser = APIClient()
    browser.force_login(user)
    theirs = APIClient()
    theirs.force_login(other_user)
    assert Session.objects.count() == 2

    response = api_client.delete(f"/v1/users/{user.username}")

    assert response.status_code == 200 and response.json()["deleted"]["account"] == 1
    assert not type(user).objects.filter(pk=user.pk).exists()
    assert not ApiToken.objects.filter(user_id=user.pk).exists()
    assert Session.objects.count() == 1
    assert browser.get(f"/v1/users/{user.username}/preferences").status_code in (401, 403)
    assert theirs.get(f"/v1/users/{other_user.username}/preferences").status_code == 200
