"""REST API of preferences, feedback, user erasure and shared contexts."""

from django.db import transaction
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from memory import selectors, services
from memory import serializers as s
from memory.identity import resolve_user
from memory.views import ERR_400, ERR_404, TAGS, body, validated


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
        tags=TAGS,
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
        tags=TAGS,
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
        tags=TAGS,
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


class UserDataView(APIView):
    @extend_schema(
        operation_id="memory_user_delete",
        request=None,
        responses={200: s.UserDeleteOutSerializer, 404: ERR_404},
        tags=TAGS,
    )
    def delete(self, request, user_id: str):
        user = resolve_user(request.user, user_id)
        return Response({"deleted": services.user_erase(user=user)})


class ContextsView(APIView):
    @extend_schema(
        operation_id="memory_context_create",
        request=s.ContextCreateInSerializer,
        responses={201: s.ContextSerializer, 400: ERR_400, 404: ERR_404},
        tags=TAGS,
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
        tags=TAGS,
    )
    def get(self, request, context_id: int):
        out = selectors.fetch_context(user=request.user, context_id=context_id)
        return Response(s.ContextSerializer(out).data)


class ContextEntriesView(APIView):
    @extend_schema(
        operation_id="memory_context_append",
        request=s.ContextEntryInSerializer,
        responses={201: s.ContextSerializer, 400: ERR_400, 404: ERR_404},
        tags=TAGS,
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
