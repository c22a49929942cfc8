"""The agent API: one chat turn (JSON or server-sent events) and the proactive events feed."""

from __future__ import annotations

import json

from django.conf import settings
from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from agent import serializers as s
from agent.chat import generate_chat, stream_chat
from agent.models import SystemEvent
from config.api_docs import event_stream
from config.errors import UNAVAILABLE, classify_or_internal, error_body
from config.fields import validated
from config.media import EventStreamAPIView, json_parsers
from config.serializers import ERR_400, ErrorSerializer
from config.streams import CappedStream, stream_slot
from memory.identity import resolve_user
from memory.selectors import context_for

ERR_404 = OpenApiResponse(ErrorSerializer, description="No such user (or not yours).")
ERR_404_CONTEXT = OpenApiResponse(
    ErrorSerializer, description="No such shared context `context_id` (or not yours)."
)
ERR_406 = OpenApiResponse(
    ErrorSerializer, description="The client accepts neither text/event-stream nor */*."
)
SSE_DESCRIPTION = (
    "Server-sent events (send `Accept: text/event-stream`), each `event: <name>` and "
    "`data: <one line of JSON>`, in this order: one `intent` {intent, mode, confidence, source, "
    "chat_id}; per tool a `tool_call` {name, arguments} and its `tool_result` {name, result}; "
    "`delta` {text} pieces of the reply; finally `done` (the body of POST /api/agent/chat plus "
    "engine, preferences, elapsed_ms) or, if the turn failed after the stream began, `error` "
    "in the error shape. Errors before the stream begins answer in JSON with their status."
)
CHAT_STREAM_EVENT = event_stream(
    "ChatStreamEvent",
    {
        "intent": s.StreamIntentSerializer,
        "tool_call": s.StreamToolCallSerializer,
        "tool_result": s.StreamToolResultSerializer,
        "delta": s.StreamDeltaSerializer,
        "done": s.StreamDoneSerializer,
        "error": ErrorSerializer,
    },
)


def _turn_arguments(request) -> dict:
    data = validated(s.ChatRequestSerializer, request.data)
    location = data.get("location")
    context_id = data.get("context_id")
    if context_id is not None:
        context_for(user=request.user, context_id=context_id)  # NOT_FOUND unless the user's
    return {
        "user": request.user,
        "message": data["message"],
        "chat_id": data.get("chat_id") or None,
        "location": (location["lat"], location["lng"]) if location else None,
        "context_id": context_id,
    }


def sse_frame(name: str, data: dict) -> bytes:
    """Return one server-sent event."""
    payload = json.dumps(data, ensure_ascii=False, default=str)
    return f"event: {name}\ndata: {payload}\n\n".encode()


class ChatView(APIView):
    parser_classes = json_parsers()  # location is an object

    @extend_schema(
        operation_id="agent_chat",
        request=s.ChatRequestSerializer,
        responses={200: s.ChatResponseSerializer, 400: ERR_400, 404: ERR_404_CONTEXT},
        description="Answer one message: intent, mode, the tools called and the reply.",
    )
    def post(self, request):
        # The serializer keeps the answer's fields, not the stream's (engine, elapsed_ms...).
        result = generate_chat(**_turn_arguments(request))
        return Response(s.ChatResponseSerializer(result).data)


class ChatStreamView(EventStreamAPIView):
    parser_classes = json_parsers()  # location is an object

    @extend_schema(
        operation_id="agent_chat_stream",
        request=s.ChatRequestSerializer,
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                CHAT_STREAM_EVENT, description=SSE_DESCRIPTION
            ),
            (400, "application/json"): ERR_400,
            (404, "application/json"): ERR_404_CONTEXT,
            (406, "application/json"): ERR_406,
        },
        description="The same turn as POST /api/agent/chat, as server-sent events.",
    )
    def post(self, request):
        arguments = _turn_arguments(request)  # invalid input answers 400 before streaming

        def events():
            try:
                for event in stream_chat(**arguments):
                    yield sse_frame(event.name, event.data)
            except Exception as exc:  # noqa: BLE001 - the stream ends with an error event
                _, code, message, details = classify_or_internal(
                    exc, "agent stream", "Internal error."
                )
                yield sse_frame("error", error_body(code, message, details))

        # A slot of the caller's and of the service's (429 when none is free), given back when
        # the response closes; cut after CHAT_STREAM_MAX_SECONDS (config/streams.py).
        limit = settings.CHAT_STREAM_MAX_SECONDS
        message = f"The turn took longer than {limit:g} s and was cut."
        frames = CappedStream(
            events(),
            stream_slot(request.user.pk),
            max_seconds=limit,
            on_deadline=sse_frame("error", error_body(UNAVAILABLE, message)),
            environ=request.META,
        )
        response = StreamingHttpResponse(frames, content_type="text/event-stream")
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"  # let proxies pass each event at once
        return response


class UserEventsView(APIView):
    @extend_schema(
        operation_id="agent_user_events",
        parameters=[
            OpenApiParameter("kind", str, enum=[k for k, _ in s.EventKind.choices]),
            OpenApiParameter("limit", int, description="At most this many (1-200, default 50)."),
            OpenApiParameter("unread", bool, description="Only events not yet marked read."),
        ],
        responses={200: s.EventListSerializer, 400: ERR_400, 404: ERR_404},
        description="The proactive events the triggers wrote for a user, newest first.",
    )
    def get(self, request, user_id: str):

        user = resolve_user(request.user, user_id)
        query = validated(s.EventListQuerySerializer, request.query_params)
        events = SystemEvent.objects.filter(user=user)
        if query.get("kind"):
            events = events.filter(kind=query["kind"])
        if query["unread"]:
            events = events.filter(read_at__isnull=True)
        rows = events.order_by("-created", "-pk")[: query["limit"]]
        return Response(s.EventListSerializer({"events": list(rows)}).data)
