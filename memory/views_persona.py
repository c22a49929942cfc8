"""REST API of preferences, feedback (ratings), user erasure and shared contexts."""

from django.db import transaction
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from config.fields import validated
from config.serializers import ERR_400
from memory import selectors, services
from memory import serializers as s
from memory.identity import resolve_user
from memory.shapes import page
from memory.views import ERR_404, body


class PreferencesView(APIView):
    @extend_schema(
        operation_id="memory_preferences_upsert",
        request=s.PreferenceInSerializer,
        responses={
            200: s.PreferenceSerializer,
            201: s.PreferenceSerializer,
            400: ERR_400,
            404: ERR_404,
        },
    )
    def post(self, request, user_id: str):
        # One transaction: a user created for a staff write is rolled back if the write fails.
        with transaction.atomic():
            user = resolve_user(request.user, user_id, create=True)
            data = validated(s.PreferenceInSerializer, body(request))
            pref, created = services.preference_upsert(
                user=user, category=data["category"], value=data["value"], actor=request.user
            )
        return Response(s.PreferenceSerializer(pref).data, status=201 if created else 200)

    @extend_schema(
        operation_id="memory_preferences_list",
        parameters=[s.PreferenceQuerySerializer],
        responses={200: s.PreferenceListSerializer, 400: ERR_400, 404: ERR_404},
        description="The user's preferences in force (with `history=true`, also the ones later, "
        "contradicting preferences replaced: `superseded_at`, `superseded_by`).",
    )
    def get(self, request, user_id: str):
        user = resolve_user(request.user, user_id)
        query = validated(s.PreferenceQuerySerializer, request.query_params)
        items = selectors.preferences_list(user=user, history=query["history"])
        return Response(s.PreferenceListSerializer({"items": items}).data)


class FeedbackView(APIView):
    @extend_schema(
        operation_id="memory_feedback_create",
        request=s.FeedbackInSerializer,
        responses={201: s.FeedbackSerializer, 400: ERR_400, 404: ERR_404},
    )
    def post(self, request, user_id: str):
        # One transaction: a user created for a staff write is rolled back if the write fails.
        # A user created here has no messages to rate, so feedback for an unknown user is
        # always NOT_FOUND (target_message_id) and creates nobody.
        with transaction.atomic():
            user = resolve_user(request.user, user_id, create=True)
            data = validated(s.FeedbackInSerializer, body(request))
            fb = services.feedback_create(
                user=user,
                target_message_id=data["target_message_id"],
                rating=int(data["rating"]),
                comment=data.get("comment", ""),
            )
        return Response(s.FeedbackSerializer(fb).data, status=201)


FEEDBACK_EXAMPLE = {
    "id": 7,
    "target_type": "activity",
    "target_id": "42",
    "target_label": "周六下午桌游局",
    "rating": -1,
    "comment": "太吵了",
    "created_at": "2025-05-03T10:00:00+08:00",
}


class RatingsView(APIView):
    @extend_schema(
        operation_id="feedback_rate",
        summary="Rate what a chat reply recommended or said",
        description="Rate an activity or a message (the `items` of a chat reply) -1 or +1, "
        "with an optional comment. A -1 on an activity keeps it out of the user's next "
        "searches and recommendations; a +1 makes activities of its type and vibe rank higher. "
        "Rating the same target again replaces the rating (200); a new rating answers 201.",
        request=s.FeedbackRateInSerializer,
        responses={
            200: s.FeedbackItemSerializer,
            201: s.FeedbackItemSerializer,
            400: ERR_400,
            404: ERR_404,
        },
        examples=[
            OpenApiExample(
                "A useful answer",
                value={
                    "target_type": "message",
                    "target_id": "m2",
                    "rating": 1,
                    "comment": "很有用",
                },
                request_only=True,
            ),
            OpenApiExample("The rating", value=FEEDBACK_EXAMPLE, response_only=True),
        ],
    )
    def post(self, request):
        data = validated(s.FeedbackRateInSerializer, body(request))
        fb, created = services.feedback_rate(
            user=request.user,
            target_type=data["target_type"],
            target_id=data["target_id"],
            rating=int(data["rating"]),
            comment=data.get("comment", ""),
        )
        return Response(s.FeedbackItemSerializer(fb).data, status=201 if created else 200)

    @extend_schema(
        operation_id="feedback_list",
        summary="List your ratings",
        description="The caller's own ratings, newest first, each naming what was rated; page "
        "with `cursor` (the previous page's `next_cursor`).",
        parameters=[s.FeedbackListQuerySerializer],
        responses={200: s.FeedbackListSerializer, 400: ERR_400},
        examples=[
            OpenApiExample("One page", value={"items": [FEEDBACK_EXAMPLE]}, response_only=True),
        ],
    )
    def get(self, request):
        query = validated(s.FeedbackListQuerySerializer, request.query_params)
        items, next_cursor = selectors.feedback_list(
            user=request.user, page_size=query["page_size"], cursor=query.get("cursor")
        )
        return Response(s.FeedbackListSerializer(page(items, next_cursor)).data)


class UserDataView(APIView):
    @extend_schema(
        operation_id="memory_user_delete",
        request=None,
        responses={200: s.UserDeleteOutSerializer, 404: ERR_404},
    )
    def delete(self, request, user_id: str):
        user = resolve_user(request.user, user_id)
        return Response({"deleted": services.user_erase(user=user)})


class ContextsView(APIView):
    @extend_schema(
        operation_id="memory_contexts_list",
        summary="List shared contexts",
        description="The shared contexts the caller owns (staff: `user_id`'s), most recently "
        "created first, each with its entry count and latest entry; read one whole with GET "
        "/v1/contexts/{context_id}. Page with `cursor` (the previous page's `next_cursor`).",
        parameters=[s.ContextListQuerySerializer],
        responses={200: s.ContextListSerializer, 400: ERR_400, 404: ERR_404},
        examples=[
            OpenApiExample(
                "One page",
                value={
                    "items": [
                        {
                            "id": 3,
                            "owner": "alice",
                            "title": "搬家计划",
                            "created_at": "2025-05-01T09:00:00+08:00",
                            "updated_at": "2025-05-03T10:00:00+08:00",
                            "entry_count": 2,
                            "latest_entry": {
                                "id": 9,
                                "agent_name": "agent",
                                "content": "周六上午搬，预算 800 元",
                                "created_at": "2025-05-03T10:00:00+08:00",
                            },
                        }
                    ]
                },
                response_only=True,
            )
        ],
    )
    def get(self, request):
        query = validated(s.ContextListQuerySerializer, request.query_params)
        owner = request.user
        if query.get("user_id"):
            owner = resolve_user(request.user, query["user_id"])
        items, next_cursor = selectors.contexts_list(
            user=owner, page_size=query["page_size"], cursor=query.get("cursor")
        )
        return Response(s.ContextListSerializer(page(items, next_cursor)).data)

    @extend_schema(
        operation_id="memory_context_create",
        request=s.ContextCreateInSerializer,
        responses={201: s.ContextSerializer, 400: ERR_400, 404: ERR_404},
    )
    def post(self, request):
        data = validated(s.ContextCreateInSerializer, body(request))
        # One transaction: a user created for a staff write is rolled back if the write fails.
        with transaction.atomic():
            owner = request.user
            if data.get("user_id"):
                owner = resolve_user(request.user, data["user_id"], create=True)
            context = services.context_create(
                owner=owner,
                title=data["title"],
                entry=data["entry"],
                agent_name=data["agent_name"],
            )
        out = selectors.fetch_context(user=owner, context_id=context.pk)
        return Response(s.ContextSerializer(out).data, status=201)


class ContextDetailView(APIView):
    @extend_schema(
        operation_id="memory_context_get",
        responses={200: s.ContextSerializer, 404: ERR_404},
    )
    def get(self, request, context_id: int):
        out = selectors.fetch_context(user=request.user, context_id=context_id)
        return Response(s.ContextSerializer(out).data)


class ContextEntriesView(APIView):
    @extend_schema(
        operation_id="memory_context_append",
        request=s.ContextEntryInSerializer,
        responses={201: s.ContextSerializer, 400: ERR_400, 404: ERR_404},
    )
    def post(self, request, context_id: int):
        data = validated(s.ContextEntryInSerializer, body(request))
        services.update_context(
            user=request.user,
            context_id=context_id,
            agent_name=data["agent_name"],
            content=data["content"],
        )
        out = selectors.fetch_context(user=request.user, context_id=context_id)
        return Response(s.ContextSerializer(out).data, status=201)
