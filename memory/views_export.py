"""GET /v1/users/{user_id}/export: everything the service holds about a user, as JSON Lines."""

from __future__ import annotations

import json

from django.conf import settings
from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import serializers

from config.errors import UNAVAILABLE, classify_or_internal, error_body
from config.export import user_data_export
from config.media import JSON_LINES_MEDIA_TYPE, JsonLinesAPIView
from config.streams import CappedStream, stream_slot
from memory.identity import resolve_user
from memory.views import ERR_404


class ExportUserSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    user_id = serializers.CharField()
    date_joined = serializers.DateTimeField(allow_null=True)


class ExportKindSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The kind, as in the erasure report.")
    app = serializers.CharField()
    model = serializers.CharField()
    rows = serializers.BooleanField(help_text="Whether this kind's rows follow as `row` lines.")
    count = serializers.IntegerField()
    description = serializers.CharField()
    left_out_columns = serializers.ListField(child=serializers.CharField())


class ExportManifestSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["manifest"])
    format = serializers.IntegerField()
    generated_at = serializers.DateTimeField()
    user = ExportUserSerializer()
    counts = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Exactly the erasure report's counts (DELETE /v1/users/{user_id}).",
    )
    kinds = ExportKindSerializer(many=True)


class ExportRowSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["row"])
    kind = serializers.CharField()
    model = serializers.CharField()
    data = serializers.DictField(help_text="The row's columns (relations as ids, no vectors).")


class ExportEndSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["end"])
    rows = serializers.DictField(child=serializers.IntegerField())


class ExportErrorLineSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["error"])
    error = serializers.DictField()


EXPORT_LINE = PolymorphicProxySerializer(
    component_name="ExportLine",
    serializers={
        "manifest": ExportManifestSerializer,
        "row": ExportRowSerializer,
        "end": ExportEndSerializer,
        "error": ExportErrorLineSerializer,
    },
    resource_type_field_name="type",
)
EXPORT_DESCRIPTION = (
    "Everything the service holds about the user (messages, summaries, preferences, feedback, "
    "shared contexts they own, activities and participations, books and chapters, events, "
    "webhooks), as JSON Lines (send `Accept: application/x-ndjson` or `*/*`): first a "
    "`manifest` line whose `counts` are exactly the erasure report's, then one `row` line per "
    "row, then an `end` line with the rows written per kind (a stream without it was cut). "
    "Vectors and webhook secrets are left out. A normal user exports only itself; a service "
    "token (the act_for_any_user permission) names any user."
)


def _lines(user):
    try:
        for item in user_data_export(user=user):
            yield (json.dumps(item, ensure_ascii=False, default=str) + "\n").encode()
    except Exception as exc:  # noqa: BLE001 - the stream ends with an error line, no end line
        _, code, message, details = classify_or_internal(exc, "export", "Internal error.")
        line = {"type": "error", **error_body(code, message, details)}
        yield (json.dumps(line, ensure_ascii=False) + "\n").encode()


def _deadline_line() -> bytes:
    message = f"The export took longer than {settings.EXPORT_MAX_SECONDS:g} s and was cut."
    line = {"type": "error", **error_body(UNAVAILABLE, message)}
    return (json.dumps(line, ensure_ascii=False) + "\n").encode()


class UserExportView(JsonLinesAPIView):
    @extend_schema(
        operation_id="memory_user_export",
        responses={
            (200, JSON_LINES_MEDIA_TYPE): OpenApiResponse(
                EXPORT_LINE, description=EXPORT_DESCRIPTION
            ),
            (404, "application/json"): ERR_404,
        },
        description="Export a user's data as JSON Lines (manifest, rows, end).",
    )
    def get(self, request, user_id: str):
        user = resolve_user(request.user, user_id)
        # A slot of the caller's and of the service's (429 when none is free), given back when
        # the response closes; cut after EXPORT_MAX_SECONDS (config/streams.py).
        lines = CappedStream(
            _lines(user),
            stream_slot(request.user.pk),
            max_seconds=settings.EXPORT_MAX_SECONDS,
            on_deadline=_deadline_line(),
            environ=request.META,
        )
        response = StreamingHttpResponse(lines, content_type=JSON_LINES_MEDIA_TYPE)
        response["Content-Disposition"] = f'attachment; filename="export-{user.pk}.jsonl"'
        response["Cache-Control"] = "no-store"
        return response
