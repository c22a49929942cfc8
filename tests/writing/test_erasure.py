"""Erasing a user's writing data (``writing.userdata``) through ``DELETE /v1/users/{id}``."""

from __future__ import annotations

import pytest

from rag.embeddings import content_hash
from rag.models import EmbeddingCache
from writing.chunking import sentence_texts
from writing.models import Book, Chapter, ChildChunk, ParentChunk, ParentSegment, StoryBlock

pytestmark = pytest.mark.django_db

# Longer than the small parent maximum (120): split at sentence cliffs, so its sentences are
# embedded (and cached) too.
LONG_BLOCK = (
    "春天来了，河边的柳树发出了新芽。孩子们在草地上放风筝，笑声传得很远。"
    "傍晚时分，渔船一只只回到港口，渔民们把鱼搬上岸。夜里下起了小雨，街灯在雨中显得格外温柔。"
    "第二天清早，集市上挤满了人，卖菜的吆喝声此起彼伏。"
)


def _cached(texts) -> set[str]:
    by_hash = {content_hash(t): t for t in texts}
    rows = EmbeddingCache.objects.filter(content_hash__in=list(by_hash))
    return {by_hash[h] for h in rows.values_list("content_hash", flat=True)}


def test_delete_user_erases_books_chapters_blocks_chunks_and_their_vectors(
    cold_lru, api_client, user, other_user, small_chunks, blocks, make_chapter
):
    from writing.services import book_create

    make_chapter(blocks, sequence=1)
    make_chapter([LONG_BLOCK], sequence=2, title="第二回")
    theirs = book_create(user=other_user, title="别人的书")
    make_chapter(blocks[:2], target_book=theirs, owner=other_user)
    children = list(ChildChunk.objects.filter(book__owner=user).values_list("text", flat=True))
    sentences = sentence_texts(LONG_BLOCK)
    assert _cached(children + sentences) == set(children + sentences)
    theirs_before = ChildChunk.objects.filter(book=theirs).count()

    response = api_client.delete(f"/v1/users/{user.username}")

    deleted = response.json()["deleted"]
    assert (deleted["books"], deleted["chapters"], deleted["story_blocks"]) == (1, 2, 5)
    assert deleted["child_chunks"] == deleted["chunk_vectors"] == len(children)
    assert deleted["parent_chunks"] >= 5 and deleted["parent_segments"] >= 5
    for model, lookup in (
        (Book, "owner"),
        (Chapter, "book__owner"),
        (StoryBlock, "chapter__book__owner"),
        (ParentChunk, "chapter__book__owner"),
        (ParentSegment, "parent__chapter__book__owner"),
        (ChildChunk, "book__owner"),
    ):
        assert not model.objects.filter(**{lookup: user}).exists(), model.__name__
    # The other user's identical block texts share cache rows and were deleted with them
    # (only a cache); the texts only the erased user wrote are gone for good.
    assert _cached(children + sentences) == set()
    assert ChildChunk.objects.filter(book=theirs).count() == theirs_before
    assert response.status_code == 200
