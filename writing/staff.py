"""Staff pages: chapter list, chunk inspection (with an SVG chart), search playground."""

from __future__ import annotations

from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from config.errors import ServiceError
from writing.models import Book, Chapter
from writing.search import writing_search
from writing.selectors import books_with_progress, chunk_progress
from writing.svg import similarity_chart


@staff_member_required
def index(request):
    books = list(
        books_with_progress(Book.objects.select_related("owner"))
        .prefetch_related("chapters")
        .order_by("pk")
    )
    return render(
        request, "writing/index.html", {"books": books, "progress": chunk_progress(books)}
    )


def _marked_text(text: str, spans: list[tuple[int, int]]) -> list[dict]:
    """Return the parent text cut into child pieces for alternating highlighting."""
    return [
        {"text": text[start:end], "index": i, "start": start, "end": end}
        for i, (start, end) in enumerate(spans)
    ]


@staff_member_required
def chapter_inspect(request, chapter_id: int):
    chapter = get_object_or_404(Chapter.objects.select_related("book"), pk=chapter_id)
    parents = []
    for parent in chapter.parents.select_related("first_block").prefetch_related(
        "children", "segments"
    ):
        children = sorted(parent.children.all(), key=lambda c: c.chunk_order)
        analysis = parent.analysis or {}
        sentences = analysis.get("sentences", [])
        ends = {end: i for i, (_, end) in enumerate(sentences)}
        child_ends = [ends[c.end] for c in children[:-1] if c.end in ends]
        parents.append(
            {
                "obj": parent,
                "segments": list(parent.segments.all()),
                "children": children,
                "pieces": _marked_text(parent.text, [(c.start, c.end) for c in children]),
                "chart": mark_safe(  # noqa: S308 - built from numbers by writing.svg
                    similarity_chart(analysis.get("sims", []), analysis.get("cuts", []), child_ends)
                ),
                "sentence_count": len(sentences),
                "cuts": analysis.get("cuts", []),
            }
        )
    parents.sort(key=lambda p: (p["obj"].first_block.order, p["obj"].first_block_start))
    return render(
        request,
        "writing/chapter_inspect.html",
        {"chapter": chapter, "blocks": chapter.blocks.order_by("order"), "parents": parents},
    )


@staff_member_required
def book_search(request, book_id: int):
    book = get_object_or_404(Book, pk=book_id)
    query = request.GET.get("q", "").strip()
    order = request.GET.get("order", "relevance")
    top_k = request.GET.get("top_k", "5")
    context = {"book": book, "query": query, "order": order, "top_k": top_k, "results": None}
    if len(query) > settings.RAG_QUERY_MAX_CHARS:
        context["error"] = _("The query is longer than %(max)d characters.") % {
            "max": settings.RAG_QUERY_MAX_CHARS
        }
    elif query:
        try:
            found = writing_search(
                user=request.user, query=query, book=book.pk, top_k=int(top_k), order=order
            )
            context["results"] = found["results"]
            context["median"] = found["median_parent_size"]
        except (ServiceError, ValueError) as exc:
            context["error"] = str(exc)
    return render(request, "writing/search.html", context)
