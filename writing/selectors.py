"""Reads of the writing app. Another user's book or chapter is NOT_FOUND (unless acting for any).

Acting for any user is the ``memory.act_for_any_user`` permission (``memory.identity``).
"""

from __future__ import annotations

from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce, Length
from django.utils.translation import gettext

from config import live
from config.errors import NotFound
from config.permissions import acts_for_any_user
from writing.models import Book, Chapter, ChunkState, WritingSettings

CHUNK_STATES = tuple(state.value for state in ChunkState)


def writing_settings_get() -> WritingSettings:
    """Return the live settings of writing (config.live: cached, dropped on save)."""
    return live.read(WritingSettings)


def books_visible(user):
    qs = Book.objects.all()
    return qs if acts_for_any_user(user) else qs.filter(owner=user)


def book_get(*, user, book_id) -> Book:
    book = books_visible(user).filter(pk=book_id).first()
    if book is None:
        raise NotFound(gettext("No such book."), details={"book": book_id})
    return book


def books_with_progress(qs):
    """Annotate books with ``chapter_count`` and ``<state>_count`` for every chunk state."""
    counts = {
        f"{state}_count": Count("chapters", filter=Q(chapters__chunk_state=state))
        for state in CHUNK_STATES
    }
    return qs.annotate(chapter_count=Count("chapters"), **counts)


def books_list(*, user):
    """Return the user's books (every book for staff) by id, with their chapter counts."""
    return books_with_progress(books_visible(user)).order_by("pk")


def book_detail(*, user, book_id) -> Book:
    """Return a visible book annotated like :func:`books_list`, with ``chapter_summaries``."""
    book = books_list(user=user).filter(pk=book_id).first()
    if book is None:
        raise NotFound(gettext("No such book."), details={"book": book_id})
    book.chapter_summaries = list(chapter_summaries(book=book))
    return book


def chunk_progress(books) -> dict[str, int]:
    """Sum the chunk-state counts of annotated books: ``{"chapters": n, "<state>": n, ...}``."""
    totals = {"chapters": 0, **dict.fromkeys(CHUNK_STATES, 0)}
    for book in books:
        totals["chapters"] += book.chapter_count
        for state in CHUNK_STATES:
            totals[state] += getattr(book, f"{state}_count")
    return totals


def chapter_summaries(*, book):
    """Return a book's chapters in order, with ``length`` (characters) and ``block_count``."""
    return (
        Chapter.objects.filter(book=book)
        .annotate(length=Coalesce(Sum(Length("blocks__content")), 0), block_count=Count("blocks"))
        .order_by("sequence", "pk")
    )


def chapter_get(*, user, chapter_id, for_update: bool = False) -> Chapter:
    qs = Chapter.objects.select_related("book")
    if not acts_for_any_user(user):
        qs = qs.filter(book__owner=user)
    if for_update:
        qs = qs.select_for_update(of=("self",))
    chapter = qs.filter(pk=chapter_id).first()
    if chapter is None:
        raise NotFound(gettext("No such chapter."), details={"chapter": chapter_id})
    return chapter


def chapter_detail(*, user, chapter_id) -> Chapter:
    """Return a chapter with its blocks in order (``block_list``, each with ``child_count``) and
    its ``parent_count`` and ``child_count`` (the chapter's chunk state is on the row)."""
    chapter = chapter_get(user=user, chapter_id=chapter_id)
    blocks = chapter.blocks.annotate(child_count=Count("children")).order_by("order")
    chapter.block_list = list(blocks)
    chapter.parent_count = chapter.parents.count()
    chapter.child_count = sum(block.child_count for block in chapter.block_list)
    return chapter
