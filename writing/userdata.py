"""The user data the writing app holds, declared to ``config.userdata`` (erasure and export).

Everything hangs off the user's books: chapters, story blocks, parent chunks and their
segments, child chunks and their vectors. Kinds are listed leaves first, the erase order.
"""

from __future__ import annotations

from config.userdata import Kind, UserData
from writing.chunking import sentence_texts
from writing.models import Book, Chapter, ChildChunk, ParentChunk, ParentSegment, StoryBlock


def _texts(user):
    """Yield every text of the user's books that chunking may have embedded through the cache.

    Child chunks (their vectors) and the sentences of parents and of blocks (chunking embeds
    them to find the cuts).
    """
    yield from ChildChunk.objects.filter(book__owner=user).values_list("text", flat=True)
    parents = ParentChunk.objects.filter(chapter__book__owner=user).values_list("text", flat=True)
    blocks = StoryBlock.objects.filter(chapter__book__owner=user).values_list("content", flat=True)
    for text in parents.iterator(chunk_size=500):
        yield from sentence_texts(text)
    for text in blocks.iterator(chunk_size=500):
        yield text
        yield from sentence_texts(text)


def declaration() -> UserData:
    """Return the writing app's declaration of a user's data."""
    return UserData(
        "writing",
        kinds=(
            Kind(
                "chunk_vectors",
                ChildChunk,
                lambda user: ChildChunk.objects.filter(book__owner=user, embedding__isnull=False),
                erased_with="child_chunks",
                description="vectors of the user's child chunks",
            ),
            Kind("child_chunks", ChildChunk, "book__owner"),
            Kind("parent_segments", ParentSegment, "parent__chapter__book__owner"),
            Kind("parent_chunks", ParentChunk, "chapter__book__owner"),
            Kind("story_blocks", StoryBlock, "chapter__book__owner"),
            Kind("chapters", Chapter, "book__owner"),
            Kind("books", Book, "owner"),
        ),
        texts=_texts,
        tasks={"writing.tasks.chapter_chunk": Chapter},
    )
