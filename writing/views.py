"""REST API of the writing app (token-authenticated; owner or staff only)."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from config.media import json_parsers
from rag.replicas import search_reads
from rag.serializers import ErrorSerializer
from writing import serializers as s
from writing import services
from writing.search import writing_search
from writing.selectors import chapter_detail

TAGS = ["writing"]
ERR_400 = OpenApiResponse(ErrorSerializer, description="Invalid request.")
ERR_404 = OpenApiResponse(ErrorSerializer, description="No such object (or not yours).")


def _validated(serializer_class, data):
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class BookListView(APIView):
    @extend_schema(
        operation_id="writing_book_create",
        request=s.BookInSerializer,
        responses={201: s.BookOutSerializer, 400: ERR_400},
        tags=TAGS,
    )
    def post(self, request):
        data = _validated(s.BookInSerializer, request.data)
        book = services.book_create(user=request.user, title=data["title"])
        return Response(s.BookOutSerializer(book).data, status=201)


class BookDetailView(APIView):
    @extend_schema(
        operation_id="writing_book_delete",
        request=None,
        responses={204: None, 404: ERR_404},
        tags=TAGS,
    )
    def delete(self, request, book_id: int):
        services.book_delete(user=request.user, book_id=book_id)
        return Response(status=204)


class ChapterListView(APIView):
    parser_classes = json_parsers()  # blocks is a list of objects

    @extend_schema(
        operation_id="writing_chapter_create",
        request=s.ChapterInSerializer,
        responses={201: s.ChapterOutSerializer, 400: ERR_400, 404: ERR_404},
        tags=TAGS,
    )
    def post(self, request):
        data = _validated(s.ChapterInSerializer, request.data)
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
        tags=TAGS,
    )
    def get(self, request, chapter_id: int):
        body = chapter_detail(user=request.user, chapter_id=chapter_id)
        return Response(s.ChapterOutSerializer(body).data)

    @extend_schema(
        operation_id="writing_chapter_save",
        request=s.ChapterSaveSerializer,
        responses={200: s.ChapterOutSerializer, 400: ERR_400, 404: ERR_404},
        tags=TAGS,
    )
    def put(self, request, chapter_id: int):
        data = _validated(s.ChapterSaveSerializer, request.data)
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
        tags=TAGS,
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
        tags=TAGS,
    )
    def patch(self, request, chapter_id: int):
        data = _validated(s.WritingAutosaveInSerializer, request.data)
        services.chapter_autosave(user=request.user, chapter_id=chapter_id, blocks=data["blocks"])
        body = chapter_detail(user=request.user, chapter_id=chapter_id)
        return Response(s.ChapterOutSerializer(body).data)


class WritingSearchView(APIView):
    parser_classes = json_parsers()  # chapters is a list

    @extend_schema(
        operation_id="writing_search",
        request=s.WritingSearchInSerializer,
        responses={200: s.WritingSearchOutSerializer, 400: ERR_400, 404: ERR_404},
        tags=TAGS,
    )
    def post(self, request):
        data = _validated(s.WritingSearchInSerializer, request.data)
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
