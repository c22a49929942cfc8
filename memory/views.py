"""REST API of chat messages: write, list, neighbours, chat context, the three searches.

Every view resolves the ``user_id`` it is given (path or body) with
:func:`memory.identity.resolve_user`: the caller itself, or anybody for a staff token.
"""

from django.db import transaction
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from config.errors import InvalidArgument
from config.fields import validated
from config.media import json_parsers
from config.replicas import search_reads
from config.serializers import ERR_400, ErrorSerializer
from memory import search, search_semantic, selectors, services, understanding
from memory import serializers as s
from memory import serializers_search as ss
from memory.identity import resolve_user
from memory.shapes import clean_return_fields, message_item, page, provenance, trim
from memory.validation import BATCH_KEYS, clean_filter, parse_ts, refuse_unknown_keys

ERR_404 = OpenApiResponse(ErrorSerializer, description="No such user or message (or not yours).")
ERR_409 = OpenApiResponse(ErrorSerializer, description="A message_id exists with other content.")


def body(request) -> dict:
    if not isinstance(request.data, dict):
        raise InvalidArgument(gettext("The request body must be a JSON object."))
    return request.data


class MessagesView(APIView):
    parser_classes = json_parsers()  # items is a list of objects

    @extend_schema(
        operation_id="memory_messages_write",
        request=s.MessagesWriteInSerializer,
        responses={
            200: s.MessagesWriteOutSerializer,
            201: s.MessagesWriteOutSerializer,
            400: ERR_400,
            404: ERR_404,
            409: ERR_409,
        },
    )
    def post(self, request, user_id: str):
        # One transaction: a staff write may create the user, and a batch rejected as
        # INVALID_ARGUMENT or CONFLICT must roll that creation back with it. The user is
        # resolved first so a normal token naming somebody else gets NOT_FOUND, whatever it sent.
        with transaction.atomic():
            user = resolve_user(request.user, user_id, create=True)
            data = body(request)
            refuse_unknown_keys(data, BATCH_KEYS, field="body")
            result = services.messages_write(user=user, items=data.get("items"))
        return Response(result, status=201 if result["created"] else 200)

    @extend_schema(
        operation_id="memory_messages_list",
        parameters=[s.MessageListQuerySerializer],
        responses={200: s.MessageListOutSerializer, 400: ERR_400, 404: ERR_404},
    )
    def get(self, request, user_id: str):
        user = resolve_user(request.user, user_id)
        query = validated(s.MessageListQuerySerializer, request.query_params)
        flt = clean_filter({key: query.get(key) for key in ("role", "chat_id", "kind")})
        for key in ("since", "until"):
            if query.get(key):
                flt[key] = parse_ts(query[key], field=key)
        rows, next_cursor = selectors.messages_list(
            user=user, flt=flt, page_size=query["page_size"], cursor=query.get("cursor")
        )
        return Response(page([message_item(r) for r in rows], next_cursor))


class NeighborsView(APIView):
    @extend_schema(
        operation_id="memory_messages_neighbors",
        parameters=[s.NeighborsQuerySerializer],
        responses={200: s.NeighborsOutSerializer, 400: ERR_400, 404: ERR_404},
    )
    def get(self, request, user_id: str, message_id: str):
        user = resolve_user(request.user, user_id)
        query = validated(s.NeighborsQuerySerializer, request.query_params)
        rows = selectors.neighbors(
            user=user, message_id=message_id, before=query["before"], after=query["after"]
        )
        return Response({"items": [message_item(r) for r in rows]})


class ChatContextView(APIView):
    @extend_schema(
        operation_id="memory_chat_context",
        parameters=[s.ContextQuerySerializer],
        responses={200: s.ChatContextOutSerializer, 400: ERR_400, 404: ERR_404},
    )
    def get(self, request, user_id: str, chat_id: str):
        user = resolve_user(request.user, user_id)
        query = validated(s.ContextQuerySerializer, request.query_params)
        ctx = selectors.chat_context(user=user, chat_id=chat_id, budget=query["budget"])
        ctx["summary"] = message_item(ctx["summary"]) if ctx["summary"] else None
        ctx["messages"] = [message_item(r) for r in ctx["messages"]]
        return Response(ctx)


def _search_inputs(request, serializer_class):
    """Return a search request's data, whose memory it searches, its return_fields and filter."""
    data = validated(serializer_class, body(request))
    user = resolve_user(request.user, data.get("user_id") or request.user.get_username())
    fields = clean_return_fields(data.get("return_fields"))
    flt = clean_filter(data.get("filter"))
    return data, user, fields, flt


class LexicalSearchView(APIView):
    parser_classes = json_parsers()  # filter is an object, return_fields a list

    @extend_schema(
        operation_id="memory_lexical_search",
        request=ss.LexicalSearchInSerializer,
        responses={200: ss.LexicalSearchOutSerializer, 400: ERR_400, 404: ERR_404},
    )
    def post(self, request):
        data, user, fields, flt = _search_inputs(request, ss.LexicalSearchInSerializer)
        page_size = data.get("page_size") or search.DEFAULT_PAGE_SIZE
        operator = data.get("default_operator") or "or"
        query = {
            "user": user,
            "query_text": data["query_text"],
            "flt": flt,
            "page_size": page_size,
            "cursor": data.get("cursor"),
            "default_operator": operator,
        }
        with search_reads(request.user):
            understood = None
            if data["understand"]:
                tz = understanding.time_zone(data.get("time_zone"))
                hits, next_cursor, understood = understanding.lexical(
                    **query, tz=tz, now=data.get("now")
                )
            else:
                hits, next_cursor = search.lexical_search(**query)
        out = {
            "items": [
                {
                    **trim(message_item(h.row), fields),
                    "provenance": provenance(
                        h.row, retrieved_by="lexical", scores={"lexical_score": h.score}
                    ),
                }
                for h in hits
            ],
            "highlights": [
                {
                    "message_id": h.row.message_id,
                    "snippets": search.snippets(h.row.content, data["query_text"]),
                }
                for h in hits
            ],
            "scores": [{"message_id": h.row.message_id, "score": h.score} for h in hits],
            "understood": understood,
        }
        if next_cursor:
            out["next_cursor"] = next_cursor
        return Response(out)


def _hit_item(hit, fields, retrieved_by: str) -> dict:
    """Return a search hit: the message's fields, the pass's scores and their provenance."""
    scores = {k: v for k, v in hit.extra.items() if k.endswith(("_score", "_rank"))}
    return {
        **trim(message_item(hit.row), fields),
        **hit.extra,
        "provenance": provenance(hit.row, retrieved_by=retrieved_by, scores=scores),
    }


class SemanticSearchView(APIView):
    parser_classes = json_parsers()  # filter is an object, query_embedding a list

    @extend_schema(
        operation_id="memory_semantic_search",
        request=ss.SemanticSearchInSerializer,
        responses={200: ss.SemanticSearchOutSerializer, 400: ERR_400, 404: ERR_404},
    )
    def post(self, request):
        data, user, fields, flt = _search_inputs(request, ss.SemanticSearchInSerializer)
        has_text = bool(data.get("query_text"))
        has_vec = data.get("query_embedding") is not None
        if has_text == has_vec:
            raise InvalidArgument(
                gettext("Send exactly one of query_text and query_embedding."),
                details={"fields": ["query_text", "query_embedding"]},
            )
        # No floor unless asked: the relevance cut decides. An absolute floor fits no model
        # (e5's 0.80 cut a 15-message chat to 0-6 rows for top_k 10, docs/RELEVANCE.md).
        floor = data.get("min_score")
        report: dict = {}
        with search_reads(request.user):
            if data["understand"]:
                hits, reason, understood = understanding.semantic(
                    user=user,
                    query_text=data.get("query_text"),
                    query_embedding=data.get("query_embedding"),
                    flt=flt,
                    top_k=data["top_k"],
                    min_score=floor,
                    tz=understanding.time_zone(data.get("time_zone")),
                    now=data.get("now"),
                )
            else:
                understood = None
                vector, reason = search_semantic.try_query_vector(
                    data.get("query_text"), data.get("query_embedding")
                )
                if vector is None:  # the text could not be embedded in time: lexical hits instead
                    hits = search_semantic.lexical_fallback(
                        user=user, query_text=data["query_text"], flt=flt, top_k=data["top_k"]
                    )
                else:
                    hits = search_semantic.semantic_search(
                        user=user,
                        flt=flt,
                        top_k=data["top_k"],
                        vector=vector,
                        min_score=floor,
                        report=report,
                    )
        retrieved_by = "lexical_fallback" if reason else "semantic"
        items = [_hit_item(h, fields, retrieved_by) for h in hits]
        return Response(
            {
                "items": items,
                "floor": floor,
                "reason": report.get("reason"),
                "degraded": bool(reason),
                "degraded_reason": reason,
                "understood": understood,
            }
        )


class HybridSearchView(APIView):
    parser_classes = json_parsers()  # filter is an object, query_embedding a list

    @extend_schema(
        operation_id="memory_hybrid_search",
        request=ss.HybridSearchInSerializer,
        responses={200: ss.HybridSearchOutSerializer, 400: ERR_400, 404: ERR_404},
    )
    def post(self, request):
        data, user, fields, flt = _search_inputs(request, ss.HybridSearchInSerializer)
        with search_reads(request.user):
            answer = understanding.hybrid_answer(
                user=user,
                query_text=data["query_text"],
                query_embedding=data.get("query_embedding"),
                flt=flt,
                top_k=data["top_k"],
                min_score=data.get("min_score"),
                tz=understanding.time_zone(data.get("time_zone")),
                now=data.get("now"),
                understand=data["understand"],
            )
        retrieved_by = "range" if answer.read_as == understanding.RANGE else "hybrid"
        items = [_hit_item(h, fields, retrieved_by) for h in answer.hits]
        return Response(
            {
                "items": items,
                "read_as": answer.read_as,
                "degraded": bool(answer.degraded_reason),
                "degraded_reason": answer.degraded_reason,
                "understood": answer.understood,
            }
        )
