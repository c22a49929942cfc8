"""memory: a few new messages are embedded on the interactive queue, an import on bulk."""

from __future__ import annotations

import pytest
from django_q.models import OrmQ

from config.queues import BULK, INTERACTIVE, INTERACTIVE_MAX_ROWS
from tests.memory.memory_helpers import ts


@pytest.fixture
def real_queue(monkeypatch):
    """Make django-q2 enqueue into its broker table instead of running tasks inline."""
    from django_q.conf import Conf

    monkeypatch.setattr(Conf, "SYNC", False)


def embed_queues() -> set[str]:
    rows = OrmQ.objects.all()
    return {r.key for r in rows if r.task["func"] == "memory.tasks.messages_embed"}


def items(n: int) -> list[dict]:
    return [
        {"ts": ts(i), "role": "user", "content": f"第{i}条消息", "chat_id": "c1"} for i in range(n)
    ]


def test_one_new_message_is_embedded_on_the_interactive_queue(real_queue, write, api_client, user):
    write(api_client, user.username, items(1), status=201)
    assert embed_queues() == {INTERACTIVE}


def test_an_imported_history_is_embedded_on_the_bulk_queue(real_queue, write, api_client, user):
    write(api_client, user.username, items(INTERACTIVE_MAX_ROWS + 1), status=201)
    assert embed_queues() == {BULK}
