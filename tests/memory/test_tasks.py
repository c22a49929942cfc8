"""Message embedding ends ready or visibly failed, whatever ended its task."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from config.queues import BULK, QUEUES, enqueue_now
from config.work import reconcile_all
from memory import tasks
from memory.models import ChatMessage, EmbedState
from tests.memory.memory_helpers import ts

pytestmark = pytest.mark.django_db


def _post(client, user, n):
    """Store ``n`` messages without running their embedding task (it is 'lost')."""
    items = [
        {"message_id": f"k{i}", "ts": ts(i), "role": "user", "content": f"丢失的任务{i}"}
        for i in range(n)
    ]
    response = client.post(f"/v1/users/{user.username}/messages", {"items": items}, format="json")
    assert response.status_code == 201
    return list(ChatMessage.objects.filter(user=user).values_list("pk", flat=True))


def _left_running(pks, *, attempts=1, ago=timedelta(hours=1)):
    """Leave rows as an embedding task killed mid-work leaves them."""
    ChatMessage.objects.filter(pk__in=pks).update(
        embed_state=EmbedState.RUNNING,
        embed_attempts=attempts,
        embed_state_at=timezone.now() - ago,
    )


def test_task_marks_rows_running_before_it_calls_the_provider(api_client, user):
    pks = _post(api_client, user, 2)
    seen = []

    def spy(texts, **kwargs):
        seen.extend(
            ChatMessage.objects.filter(pk__in=pks).values_list("embed_state", "embed_attempts")
        )
        return [[0.1] * 384 for _ in texts]

    with mock.patch("memory.tasks.embed_texts", side_effect=spy):
        assert tasks.messages_embed(pks) == "embedded 2"
    assert seen == [(EmbedState.RUNNING, 1)] * 2
    rows = ChatMessage.objects.filter(pk__in=pks)
    assert set(rows.values_list("embed_state", "embed_attempts")) == {(EmbedState.READY, 0)}


def test_rows_left_running_are_requeued_and_embedded(
    api_client, user, django_capture_on_commit_callbacks
):
    pks = _post(api_client, user, 3)
    _left_running(pks)
    with django_capture_on_commit_callbacks(execute=True):
        assert reconcile_all()["memory.embed"]["requeued_running"] == 3
    rows = ChatMessage.objects.filter(pk__in=pks)
    assert set(rows.values_list("embed_state", flat=True)) == {EmbedState.READY}
    assert all(r.embedding is not None for r in rows)


def test_exhausted_rows_end_failed_and_the_api_shows_it(api_client, user):
    pks = _post(api_client, user, 1)
    _left_running(pks, attempts=tasks.MAX_ATTEMPTS)
    assert reconcile_all()["memory.embed"]["failed"] == 1
    row = ChatMessage.objects.get(pk=pks[0])
    assert row.embed_state == EmbedState.FAILED
    assert row.embed_error == f"timed out or worker lost after {tasks.MAX_ATTEMPTS} attempts"
    listed = api_client.get(f"/v1/users/{user.username}/messages").json()
    assert [m["embed_state"] for m in listed["items"]] == ["failed"]
    assert tasks.messages_embed(pks).startswith("not claimed")


def test_a_duplicate_task_leaves_rows_another_task_is_embedding(api_client, user):
    pks = _post(api_client, user, 2)
    _left_running(pks, ago=timedelta(seconds=1))
    with mock.patch("memory.tasks.embed_texts") as embed:
        assert tasks.messages_embed(pks).startswith("not claimed")
    embed.assert_not_called()


@pytest.mark.parametrize("queue", QUEUES)
def test_a_failed_embedding_retries_on_the_queue_it_ran_on(api_client, user, queue):
    from django_q.models import Schedule

    from rag.providers.embedding import ProviderError

    pks = _post(api_client, user, 2)
    with mock.patch("memory.tasks.embed_texts", side_effect=ProviderError("down")):
        enqueue_now("memory.tasks.messages_embed", pks, queue=queue)
    [retry] = Schedule.objects.filter(name__startswith="memory.embed.retry:")
    assert retry.cluster == queue


def test_retention_follow_up_runs_on_bulk(db):
    from django_q.models import Schedule

    tasks._schedule_follow_up()
    assert Schedule.objects.get(name="memory.retention_follow_up").cluster == BULK
