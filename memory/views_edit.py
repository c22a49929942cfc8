"""Editable memory: correct or delete one message, preference or shared-context entry.

Each change is made by the services in :mod:`memory.edits`, recorded with who made it (the
token's user: the user, or a staff client acting for them) and shown in the admin.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from config.fields import validated
from config.serializers import ERR_400
from memory import selectors, services
from memory import serializers as s
from memory.identity import resolve_user
from memory.shapes import message_item
from memory.views import ERR_404, body


class MessageDetailView(APIView):
    @extend_schema(
        operation_id="memory_message_update",
        summary="Correct a message",
        request=s.MessageUpdateInSerializer,
        responses={200: s.MessageSerializer, 400: ERR_400, 404: ERR_404},
        description="Correct a message's content, role or speaker. A new content changes its "
        "full-text row at once, its vector is re-made by the worker (embed_state pending), and "
        "the summaries that quoted it drop the old sentences (or are marked stale when an LLM "
        "wrote them). A new speaker (empty clears it) needs no new vector: hybrid search reads "
        "who said a turn when it ranks.",
        examples=[
            OpenApiExample("Name who said it", value={"speaker": "Caroline"}, request_only=True),
            OpenApiExample(
                "Correct the content",
                value={"content": "Moving to Lisbon in May."},
                request_only=True,
            ),
        ],
    )
    def patch(self, request, user_id: str, message_id: str):
        user = resolve_user(request.user, user_id)
        data = validated(s.MessageUpdateInSerializer, body(request))
        row = services.message_update(
            user=user,
            message_id=message_id,
            actor=request.user,
            content=data.get("content"),
            role=data.get("role"),
            speaker=data.get("speaker"),
        )
        return Response(message_item(row))

    @extend_schema(
        operation_id="memory_message_delete",
        request=None,
        responses={204: None, 404: ERR_404},
        description="Delete one message; summaries that quoted it drop its sentences.",
    )
    def delete(self, request, user_id: str, message_id: str):
        user = resolve_user(request.user, user_id)
        services.message_delete(user=user, message_id=message_id, actor=request.user)
        return Response(status=204)


class PreferenceDetailView(APIView):
    @extend_schema(
        operation_id="memory_preference_update",
        request=s.PreferenceUpdateInSerializer,
        responses={200: s.PreferenceSerializer, 400: ERR_400, 404: ERR_404},
        description="Correct a preference in force (one it now contradicts is replaced).",
    )
    def patch(self, request, user_id: str, preference_id: int):
        user = resolve_user(request.user, user_id)
        data = validated(s.PreferenceUpdateInSerializer, body(request))
        pref = services.preference_update(
            user=user, preference_id=preference_id, actor=request.user, **data
        )
        return Response(s.PreferenceSerializer(pref).data)

    @extend_schema(
        operation_id="memory_preference_delete",
        request=None,
        responses={204: None, 404: ERR_404},
    )
    def delete(self, request, user_id: str, preference_id: int):
        user = resolve_user(request.user, user_id)
        services.preference_delete(user=user, preference_id=preference_id, actor=request.user)
        return Response(status=204)


class ContextEntryDetailView(APIView):
    @extend_schema(
        operation_id="memory_context_entry_update",
        request=s.ContextEntryUpdateInSerializer,
        responses={200: s.ContextSerializer, 400: ERR_400, 404: ERR_404},
        description="Correct one entry of a shared context (its owner, or staff).",
    )
    def patch(self, request, context_id: int, entry_id: int):
        data = validated(s.ContextEntryUpdateInSerializer, body(request))
        services.context_entry_update(
            user=request.user,
            context_id=context_id,
            entry_id=entry_id,
            actor=request.user,
            content=data["content"],
        )
        out = selectors.fetch_context(user=request.user, context_id=context_id)
        return Response(s.ContextSerializer(out).data)

    @extend_schema(
        operation_id="memory_context_entry_delete",
        request=None,
        responses={204: None, 404: ERR_404},
    )
    def delete(self, request, context_id: int, entry_id: int):
        services.context_entry_delete(
            user=request.user, context_id=context_id, entry_id=entry_id, actor=request.user
        )
        return Response(status=204)
