"""Event delivery API: mark an event read, stream events (SSE, resumable), manage webhooks."""

from __future__ import annotations

import json
import threading
import time
from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.http import StreamingHttpResponse
from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework.response import Response
from rest_framework.views import APIView

from agent import serializers as s
from agent.models import EventKind, SystemEvent, Webhook, WebhookDelivery
from agent.views import ERR_404, ERR_406
from agent.webhooks import webhook_create, webhook_delete, webhook_update
from config.api_docs import event_stream
from config.errors import InvalidArgument, NotFound
from config.fields import BIGINT_MAX, refuse_body, validated
from config.media import EventStreamAPIView, json_parsers
from config.serializers import ERR_400
from config.streams import CappedStream
from memory.identity import resolve_user

# Events written concurrently may commit out of id order: each poll also looks this far back
# for ids it has not sent (within one connection).
LOOKBACK_SECONDS = 30
KEEPALIVE_SECONDS = 15
RETRY_MS = 2000
STREAM_BATCH = 100
BUSY_RETRY_MS = 5000

_open_streams = threading.BoundedSemaphore(max(1, settings.EVENTS_STREAM_MAX_OPEN))

EVENTS_STREAM_EVENT = event_stream(
    "UserEventsStreamEvent", {kind: s.EventSerializer for kind, _ in EventKind.choices}
)
STREAM_DESCRIPTION = (
    "Server-sent events (send `Accept: text/event-stream`): one per proactive event, "
    "`id: <event id>`, `event: <kind>`, `data: <the event as in GET .../events>`, oldest "
    "first. Without Last-Event-ID the stream starts with the unread events; with it (the "
    "header every EventSource sends on reconnect, or `last_event_id`), with the events after "
    "that id. The stream ends after `wait` seconds (comments keep it alive meanwhile) and "
    "tells the client to reconnect after 2 s."
)


def _frame(event: SystemEvent) -> bytes:
    data = json.dumps(s.EventSerializer(event).data, ensure_ascii=False, default=str)
    return f"id: {event.pk}\nevent: {event.kind}\ndata: {data}\n\n".encode()


def _last_event_id(request, query: dict) -> int | None:
    header = request.headers.get("Last-Event-ID")
    if header is None or not header.strip():
        return query.get("last_event_id")
    value = header.strip()
    if not value.isdigit() or int(value) > BIGINT_MAX:
        raise InvalidArgument(
            gettext("Last-Event-ID must be an event id."), details={"field": "Last-Event-ID"}
        )
    return int(value)


def event_frames(user, *, kind: str | None, after: int | None, wait: float):
    """Yield SSE frames of the user's events: unread ones (or those after ``after``), then new.

    Polls every ``EVENTS_STREAM_POLL_SECONDS`` until ``wait`` seconds have passed; each poll is
    a short query (no transaction is held between polls). When ``EVENTS_STREAM_MAX_OPEN``
    streams of this process wait already, sends what is there and ends at once, telling the
    client to come back in 5 s: a waiting stream holds a server thread, and the other requests
    must always find one.
    """
    waiting = wait > 0 and _open_streams.acquire(blocking=False)
    try:
        # Too many streams waiting in this process: send what is there, end, retry later.
        retry = RETRY_MS if waiting or wait == 0 else BUSY_RETRY_MS
        yield from _frames_until(
            user, kind=kind, after=after, wait=wait if waiting else 0, retry=retry
        )
    finally:
        if waiting:
            _open_streams.release()


def _frames_until(user, *, kind, after, wait, retry):
    yield f"retry: {retry}\n\n".encode()
    events = SystemEvent.objects.filter(user=user).order_by("pk")
    if kind:
        events = events.filter(kind=kind)
    if after is None:
        first = list(events.filter(read_at__isnull=True)[:STREAM_BATCH])
        cursor = events.order_by("-pk").values_list("pk", flat=True).first() or 0
    else:
        first = list(events.filter(pk__gt=after)[:STREAM_BATCH])
        cursor = after
    sent: set[int] = set()
    deadline = time.monotonic() + wait
    last_write = time.monotonic()
    batch = first
    while True:
        for event in batch:
            sent.add(event.pk)
            cursor = max(cursor, event.pk)
            yield _frame(event)
            last_write = time.monotonic()
        if len(batch) == STREAM_BATCH:  # more waiting: send them before sleeping
            batch = list(events.filter(pk__gt=cursor)[:STREAM_BATCH])
            continue
        now = time.monotonic()
        if now >= deadline:
            return
        time.sleep(min(settings.EVENTS_STREAM_POLL_SECONDS, deadline - now))
        recent = timezone.now() - timedelta(seconds=LOOKBACK_SECONDS)
        batch = [
            e
            for e in events.filter(Q(pk__gt=cursor) | Q(created__gte=recent, pk__lte=cursor))[
                : STREAM_BATCH + len(sent)
            ]
            if e.pk not in sent and (e.pk > cursor or after is not None or e.read_at is None)
        ][:STREAM_BATCH]
        if not batch and time.monotonic() - last_write >= KEEPALIVE_SECONDS:
            last_write = time.monotonic()
            yield b": keepalive\n\n"


class UserEventsStreamView(EventStreamAPIView):
    @extend_schema(
        operation_id="agent_user_events_stream",
        parameters=[
            s.EventStreamQuerySerializer,
            OpenApiParameter(
                "Last-Event-ID",
                str,
                location=OpenApiParameter.HEADER,
                description="Resume after this event id (sent by EventSource on reconnect).",
            ),
        ],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                EVENTS_STREAM_EVENT, description=STREAM_DESCRIPTION
            ),
            (400, "application/json"): ERR_400,
            (404, "application/json"): ERR_404,
            (406, "application/json"): ERR_406,
        },
        description="A user's proactive events as they are written (server-sent events).",
    )
    def get(self, request, user_id: str):
        user = resolve_user(request.user, user_id)
        data = validated(s.EventStreamQuerySerializer, request.query_params)
        after = _last_event_id(request, data)
        cap = settings.EVENTS_STREAM_MAX_SECONDS
        wait = min(data.get("wait", cap), cap)
        frames = event_frames(user, kind=data.get("kind"), after=after, wait=wait)
        # Capped per process already (EVENTS_STREAM_MAX_OPEN); this bounds the time a client
        # that stops reading can hold the thread (config/streams.py).
        frames = CappedStream(
            frames,
            None,
            max_seconds=wait + KEEPALIVE_SECONDS,
            on_deadline=f"retry: {RETRY_MS}\n\n".encode(),
            environ=request.META,
        )
        response = StreamingHttpResponse(frames, content_type="text/event-stream")
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"
        return response


class EventReadView(APIView):
    @extend_schema(
        operation_id="agent_user_event_read",
        request=None,
        responses={200: s.EventSerializer, 404: ERR_404},
        description="Mark an event read (idempotent: the first read time is kept), so a digest "
        "is not shown twice; unread events are what a new stream starts with.",
    )
    def post(self, request, user_id: str, event_id: int):
        refuse_body(request)
        user = resolve_user(request.user, user_id)
        SystemEvent.objects.filter(user=user, pk=event_id, read_at__isnull=True).update(
            read_at=timezone.now()
        )
        event = SystemEvent.objects.filter(user=user, pk=event_id).first()
        if event is None:
            raise NotFound(gettext("No such event."))
        return Response(s.EventSerializer(event).data)


class WebhooksView(APIView):
    parser_classes = json_parsers()  # kinds is a list

    @extend_schema(
        operation_id="agent_webhooks_list",
        responses={200: s.WebhookListSerializer, 404: ERR_404},
        description="The user's webhooks (secrets are shown only at creation).",
    )
    def get(self, request, user_id: str):
        user = resolve_user(request.user, user_id)
        hooks = Webhook.objects.filter(owner=user).order_by("-created", "-pk")
        return Response(s.WebhookListSerializer({"webhooks": list(hooks)}).data)

    @extend_schema(
        operation_id="agent_webhooks_create",
        request=s.WebhookInSerializer,
        responses={201: s.WebhookCreatedSerializer, 400: ERR_400, 404: ERR_404},
        description="Register a webhook: every new event of the user (of every user, for a "
        "staff client with all_users) is POSTed to it as JSON, signed with HMAC-SHA256 in "
        "X-Memory-Signature, retried with backoff; the delivery log is in the admin and at "
        "GET .../webhooks/{id}/deliveries.",
    )
    def post(self, request, user_id: str):
        user = resolve_user(request.user, user_id)
        hook = webhook_create(owner=user, **validated(s.WebhookInSerializer, request.data))
        return Response(s.WebhookCreatedSerializer(hook).data, status=201)


class WebhookDetailView(APIView):
    parser_classes = json_parsers()

    @extend_schema(
        operation_id="agent_webhooks_update",
        summary="Turn a webhook on or off",
        request=s.WebhookUpdateSerializer,
        responses={200: s.WebhookSerializer, 400: ERR_400, 404: ERR_404},
        examples=[
            OpenApiExample(
                "Re-enable a disabled webhook", value={"active": True}, request_only=True
            )
        ],
        description="A webhook whose deliveries failed WEBHOOK_DISABLE_AFTER_FAILURES times in "
        "a row is disabled (active false, disabled_at and disabled_reason set) and receives "
        'nothing; {"active": true} turns it back on and clears that, {"active": false} '
        "pauses it.",
    )
    def patch(self, request, user_id: str, webhook_id: int):
        hook = webhook_update(
            owner=resolve_user(request.user, user_id),
            webhook_id=webhook_id,
            **validated(s.WebhookUpdateSerializer, request.data),
        )
        return Response(s.WebhookSerializer(hook).data)

    @extend_schema(
        operation_id="agent_webhooks_delete",
        request=None,
        responses={204: None, 404: ERR_404},
        description="Delete a webhook and its delivery log.",
    )
    def delete(self, request, user_id: str, webhook_id: int):
        webhook_delete(owner=resolve_user(request.user, user_id), webhook_id=webhook_id)
        return Response(status=204)


class WebhookDeliveriesView(APIView):
    @extend_schema(
        operation_id="agent_webhook_deliveries",
        responses={200: s.DeliveryListSerializer, 404: ERR_404},
        description="The newest 100 deliveries of a webhook: pending, delivered or failed, and "
        "attempts. What the receiver answered or why a connection failed is not shown (it "
        "stays in the server's log).",
    )
    def get(self, request, user_id: str, webhook_id: int):
        user = resolve_user(request.user, user_id)
        if not Webhook.objects.filter(owner=user, pk=webhook_id).exists():
            raise NotFound(gettext("No such webhook."))
        rows = WebhookDelivery.objects.filter(webhook_id=webhook_id).order_by("-created", "-pk")
        return Response(s.DeliveryListSerializer({"deliveries": list(rows[:100])}).data)
