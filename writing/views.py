"""REST API of the writing app (token-authenticated; owner or staff only)."""

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from config.fields import validated
from config.media import json_parsers
from config.replicas import search_reads
from config.serializers import ERR_400, ErrorSerializer
from writing import selectors, services
from writing import serializers as s
from writing.search import writing_search
from writing.selectors import chapter_detail

ERR_404 = OpenApiResponse(ErrorSerializer, description="No such object (or not yours).")


PAGING = (
    "Paged like every list: `?limit=` (1-200, default 50) and `?offset=`; `count` is the total."
)
CHUNKING = {"pending": 1, "running": 0, "ready": 2, "failed": 0}
CHAPTER_EXAMPLE = {
    "id": 12,
    "book": 3,
    "title": "第一回 灵根育孕源流出",
    "sequence": 1,
    "length": 6214,
    "block_count": 41,
    "chunk_state": "ready",
    "chunk_error": "",
    "chunked_at": "2025-05-01T09:30:12.402Z",
}
BOOK_EXAMPLE = {
    "id": 3,
    "title": "西游记",
    "created_at": "2025-05-01T09:29:58.113Z",
    "chapter_count": 3,
    "chunking": CHUNKING,
}


def _page(qs, query) -> tuple[int, list]:
    """Return ``(count, rows)``: the total and the rows of the page ``query`` asks for."""
    offset, limit = query["offset"], query["limit"]
    return qs.count(), list(qs[offset : offset + limit])


class BookListView(APIView):
    @extend_schema(
        operation_id="writing_book_list",
        summary="List your books",
        description="Your books by id, each with its chapter count and how many chapters are "
        "chunked (`ready`: searchable), `pending`, `running` or `failed`. A staff token lists "
        "every user's books. " + PAGING,
        parameters=[s.PageQuerySerializer],
        responses={200: s.BookListOutSerializer, 400: ERR_400},
        examples=[
            OpenApiExample(
                "One book", value={"count": 1, "results": [BOOK_EXAMPLE]}, response_only=True
            )
        ],
    )
    def get(self, request):
        query = validated(s.PageQuerySerializer, request.query_params)
        count, books = _page(selectors.books_list(user=request.user), query)
        return Response({"count": count, "results": s.BookSummarySerializer(books, many=True).data})

    @extend_schema(
        operation_id="writing_book_create",
        request=s.BookInSerializer,
        responses={201: s.BookOutSerializer, 400: ERR_400},
    )
    def post(self, request):
        data = validated(s.BookInSerializer, request.data)
        book = services.book_create(user=request.user, title=data["title"])
        return Response(s.BookOutSerializer(book).data, status=201)


class BookDetailView(APIView):
    @extend_schema(
        operation_id="writing_book_get",
        summary="Open one of your books",
        description="The book with its chunk-state counts and a summary of every chapter in "
        "reading order (`sequence`): id, title, length in characters, block count and chunk "
        "state. Another user's book is NOT_FOUND.",
        responses={200: s.BookDetailOutSerializer, 404: ERR_404},
        examples=[
            OpenApiExample(
                "A book of three chapters",
                value={
                    **BOOK_EXAMPLE,
                    "chapters": [
                        CHAPTER_EXAMPLE,
                        {**CHAPTER_EXAMPLE, "id": 13, "title": "第二回", "sequence": 2},
                        {
                            **CHAPTER_EXAMPLE,
                            "id": 14,
                            "title": "第三回",
                            "sequence": 3,
                            "chunk_state": "pending",
                            "chunked_at": None,
                        },
                    ],
                },
                response_only=True,
            )
        ],
    )
    def get(self, request, book_id: int):
        book = selectors.book_detail(user=request.user, book_id=book_id)
        return Response(s.BookDetailOutSerializer(book).data)

    @extend_schema(
        operation_id="writing_book_delete",
        request=None,
        responses={204: None, 404: ERR_404},
    )
    def delete(self, request, book_id: int):
        services.book_delete(user=request.user, book_id=book_id)
        return Response(status=204)


class BookChapterListView(APIView):
    @extend_schema(
        operation_id="writing_book_chapter_list",
        summary="List the chapters of one of your books",
        description="Chapter summaries in reading order (`sequence`), without their text: "
        "`GET /api/chapters/{id}/` returns a chapter's blocks. Another user's book is "
        "NOT_FOUND. " + PAGING,
        parameters=[s.PageQuerySerializer],
        responses={200: s.ChapterListOutSerializer, 400: ERR_400, 404: ERR_404},
        examples=[
            OpenApiExample(
                "The first page of one",
                value={"count": 3, "results": [CHAPTER_EXAMPLE]},
                response_only=True,
            )
        ],
    )
    def get(self, request, book_id: int):
        book = selectors.book_get(user=request.user, book_id=book_id)
        query = validated(s.PageQuerySerializer, request.query_params)
        count, chapters = _page(selectors.chapter_summaries(book=book), query)
        return Response(
            {"count": count, "results": s.ChapterSummarySerializer(chapters, many=True).data}
        )


class ChapterListView(APIView):
    parser_classes = json_parsers()  # blocks is a list of objects

    @extend_schema(
        operation_id="writing_chapter_create",
        request=s.ChapterInSerializer,
        responses={201: s.ChapterOutSerializer, 400: ERR_400, 404: ERR_404},
    )
    def post(self, request):
        data = validated(s.ChapterInSerializer, request.data)
        chapter = services.chapter_create(
            user=request.user,
            book_id=data["book"],
            title=data["title"],
            sequence=data["sequence"],
            blocks=data["blocks"],
        )
        body = chapter_detail(user=request.user, chapter_id=chapter.pk)
        return Response(s.ChapterOutSerializer(body).data, status=201)


class ChapterDetailView(APIView):
    parser_classes = json_parsers()  # blocks is a list of objects

    @extend_schema(
        operation_id="writing_chapter_get",
        responses={200: s.ChapterOutSerializer, 404: ERR_404},
    )
    def get(self, request, chapter_id: int):
        body = chapter_detail(user=request.user, chapter_id=chapter_id)
        return Response(s.ChapterOutSerializer(body).data)

    @extend_schema(
        operation_id="writing_chapter_save",
        request=s.ChapterSaveSerializer,
        responses={200: s.ChapterOutSerializer, 400: ERR_400, 404: ERR_404},
    )
    def put(self, request, chapter_id: int):
        data = validated(s.ChapterSaveSerializer, request.data)
        services.chapter_save(
            user=request.user,
            chapter_id=chapter_id,
            book_id=data.get("book"),
            title=data.get("title"),
            sequence=data.get("sequence"),
            blocks=data["blocks"],
        )
        body = chapter_detail(user=request.user, chapter_id=chapter_id)
        return Response(s.ChapterOutSerializer(body).data)

    @extend_schema(
        operation_id="writing_chapter_delete",
        request=None,
        responses={204: None, 404: ERR_404},
    )
    def delete(self, request, chapter_id: int):
        services.chapter_delete(user=request.user, chapter_id=chapter_id)
        return Response(status=204)


class ChapterAutosaveView(APIView):
    parser_classes = json_parsers()  # blocks is a list of objects

    @extend_schema(
        operation_id="writing_chapter_autosave",
        request=s.WritingAutosaveInSerializer,
        responses={200: s.ChapterOutSerializer, 400: ERR_400, 404: ERR_404},
    )
    def patch(self, request, chapter_id: int):
        data = validated(s.WritingAutosaveInSerializer, request.data)
        services.chapter_autosave(user=request.user, chapter_id=chapter_id, blocks=data["blocks"])
        body = chapter_detail(user=request.user, chapter_id=chapter_id)
        return Response(s.ChapterOutSerializer(body).data)


class WritingSearchView(APIView):
    parser_classes = json_parsers()  # chapters is a list

    @extend_schema(
        operation_id="writing_search",
        request=s.WritingSearchInSerializer,
        responses={200: s.WritingSearchOutSerializer, 400: ERR_400, 404: ERR_404},
    )
    def post(self, request):
        data = validated(s.WritingSearchInSerializer, request.data)
        with search_reads(request.user):  # a replica, when configured and caught up
            body = writing_search(
                user=request.user,
                query=data["query"],
                book=data.get("book"),
                chapters=data.get("chapters") or None,
                top_k=data["top_k"],
                order=data["order"],
            )
        return Response(s.WritingSearchOutSerializer(body).data)
