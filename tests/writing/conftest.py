"""Fixtures of the writing tests.

Chunk sizes are shrunk (children 20-40 characters, parents 15-120) so short synthetic
texts exercise merging, splitting and packing with few real embeddings.
"""

from __future__ import annotations

import pytest


@pytest.fixture
def small_chunks(writing_settings):
    """Live settings with small chunk sizes; return the settings row."""
    writing_settings.child_min_chars = 20
    writing_settings.child_max_chars = 40
    writing_settings.parent_min_chars = 15
    writing_settings.parent_max_chars = 120
    writing_settings.context_window_chars = 60
    writing_settings.debounce_seconds = 3.0
    writing_settings.save()
    return writing_settings


@pytest.fixture
def book(user):
    """A book of ``user``."""
    from writing.services import book_create

    return book_create(user=user, title="测试之书")


# Blocks of 40-90 characters: each is its own parent (>= parent_min, <= parent_max).
BLOCKS = [
    "孙悟空在花果山水帘洞里称王。他每天带着群猴在山中玩耍，采花觅果，十分快活。",
    "唐僧奉旨前往西天取经。一路上经过许多国家，遇到很多妖怪，多亏徒弟们保护。",
    "猪八戒原是天蓬元帅，因调戏嫦娥被贬下凡。他贪吃好睡，却也常常帮助师父。",
    "沙和尚挑着行李默默前行。他原是卷帘大将，失手打碎琉璃盏被贬到流沙河。",
]


@pytest.fixture
def blocks():
    """Four story blocks that each form one parent under ``small_chunks``."""
    return list(BLOCKS)


@pytest.fixture
def make_chapter(user, book, django_capture_on_commit_callbacks):
    """Create a chapter through the service and run its chunking task (on commit)."""
    from writing.services import chapter_create

    def factory(contents, *, sequence=1, title="第一回", target_book=None, owner=None):
        with django_capture_on_commit_callbacks(execute=True):
            chapter = chapter_create(
                user=owner or user,
                book_id=(target_book or book).pk,
                title=title,
                sequence=sequence,
                blocks=[{"content": c} for c in contents],
            )
        chapter.refresh_from_db()
        return chapter

    return factory


@pytest.fixture
def provider_calls(monkeypatch):
    """Count texts sent to the embedding provider (cache misses); return the list of texts."""
    from rag import embeddings

    provider = embeddings.get_provider()
    sent: list[str] = []
    original = provider.embed

    def counting(texts, role):
        sent.extend(texts)
        return original(texts, role)

    monkeypatch.setattr(provider, "embed", counting)
    return sent


@pytest.fixture
def pending_chapters(user, book):
    """Three chapters of ``book`` created out of order (sequence 3, 1, 2); return them.

    Their chunking is queued on commit, which never comes inside the test's transaction:
    they stay pending, and no text is embedded.
    """
    from writing.services import chapter_create

    return [
        chapter_create(
            user=user,
            book_id=book.pk,
            title=f"第{n}回",
            sequence=n,
            blocks=[{"content": "花果山" * n}, {"content": "水帘洞。"}],
        )
        for n in (3, 1, 2)
    ]
