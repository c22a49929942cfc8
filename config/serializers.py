"""Shapes the platform owns: the one error body of every API, and the API token operations."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from config.fields import ClosedSerializer
from config.services import MAX_EXPIRY_DAYS


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    details = serializers.DictField()


class ErrorSerializer(serializers.Serializer):
    """The one error shape of the API."""

    error = ErrorDetailSerializer()


# The 400 of every operation that reads input (the message names the field).
ERR_400 = OpenApiResponse(ErrorSerializer, description="Invalid request.")


class TokenSerializer(serializers.Serializer):
    """A token as listed: its prefix, never its key or digest."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    prefix = serializers.CharField(help_text="The first characters of the key, to recognise it.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(allow_null=True)
    revoked_at = serializers.DateTimeField(allow_null=True)
    active = serializers.SerializerMethodField(help_text="Not revoked and not expired.")

    def get_active(self, token) -> bool:
        return token.is_valid()


class TokenListSerializer(serializers.Serializer):
    tokens = TokenSerializer(many=True)


class TokenCreateSerializer(ClosedSerializer):
    name = serializers.CharField(max_length=100, required=False, default="", allow_blank=True)
    expires_in_days = serializers.IntegerField(
        min_value=1,
        max_value=MAX_EXPIRY_DAYS,
        required=False,
        allow_null=True,
        default=None,
        help_text="Lifetime in days; null or absent: no expiry.",
    )


class TokenIssuedSerializer(TokenSerializer):
    """A token just issued: the key is in this answer and nowhere else, ever."""

    key = serializers.CharField(help_text="The API key. Shown once: store it now.")
