"""writing: a writer's new or edited chapter is chunked on interactive, an import on bulk."""

from __future__ import annotations

import pytest
from django_q.models import OrmQ

from config.queues import BULK, INTERACTIVE

BLOCKS = [
    "孙悟空在花果山水帘洞里称王，每天带着群猴在山中玩耍。",
    "唐僧奉旨前往西天取经，一路上遇到很多妖怪。",
    "猪八戒原是天蓬元帅，因调戏嫦娥被贬下凡。",
]


@pytest.fixture
def real_queue(monkeypatch):
    """Make django-q2 enqueue into its broker table instead of running tasks inline."""
    from django_q.conf import Conf

    monkeypatch.setattr(Conf, "SYNC", False)


def chunk_queues() -> list[str]:
    """Return the queue of each queued chunking task, oldest first."""
    rows = OrmQ.objects.order_by("pk")
    return [r.key for r in rows if r.task["func"] == "writing.tasks.chapter_chunk"]


def create(user, book, sequence):
    from writing.services import chapter_create

    return chapter_create(
        user=user, book_id=book.pk, title=f"第{sequence}回", sequence=sequence, blocks=BLOCKS[:2]
    )


def test_a_book_posted_chapter_by_chapter_is_chunked_on_bulk(
    real_queue, user, book, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        for sequence in range(1, 5):
            create(user, book, sequence)
    # The first chapter is a writer's; the ones that follow while it waits are an import.
    assert chunk_queues() == [INTERACTIVE, BULK, BULK, BULK]


def test_an_edit_goes_interactive_even_during_an_import(
    real_queue, user, book, django_capture_on_commit_callbacks
):
    from writing.services import chapter_save

    with django_capture_on_commit_callbacks(execute=True):
        first = create(user, book, 1)
        create(user, book, 2)
    OrmQ.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        chapter_save(user=user, chapter_id=first.pk, blocks=BLOCKS[1:3])
    assert chunk_queues() == [INTERACTIVE]
