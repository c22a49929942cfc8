"""The caller's own API tokens: list, issue, rotate, revoke (identity from the request)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from config import serializers as s
from config.fields import refuse_body, validated
from config.media import json_parsers
from config.selectors import tokens_of
from config.serializers import ERR_400, ErrorSerializer
from config.services import IssuedToken, token_issue, token_revoke, token_rotate

ERR_404 = OpenApiResponse(ErrorSerializer, description="No such token (or not yours).")


def _issued(issued: IssuedToken) -> dict:
    return {**s.TokenSerializer(issued.token).data, "key": issued.key}


class TokensView(APIView):
    parser_classes = json_parsers()

    @extend_schema(
        operation_id="tokens_list",
        responses={200: s.TokenListSerializer},
        description="The caller's API tokens, newest first, revoked and expired ones included: "
        "prefixes only (a key is shown once, when issued).",
    )
    def get(self, request):
        return Response(s.TokenListSerializer({"tokens": list(tokens_of(request.user))}).data)

    @extend_schema(
        operation_id="tokens_create",
        request=s.TokenCreateSerializer,
        responses={201: s.TokenIssuedSerializer, 400: ERR_400},
        description="Issue the caller a new API token. The answer holds the key, the only time "
        "it is shown: the service stores its SHA-256 only.",
    )
    def post(self, request):
        issued = token_issue(user=request.user, **validated(s.TokenCreateSerializer, request.data))
        return Response(_issued(issued), status=201)


class TokenDetailView(APIView):
    @extend_schema(
        operation_id="tokens_revoke",
        request=None,
        responses={200: s.TokenSerializer, 404: ERR_404},
        description="Revoke one of the caller's tokens: it stops authenticating at once and "
        "stays listed with revoked_at. Revoking a revoked token changes nothing.",
    )
    def delete(self, request, token_id: int):
        refuse_body(request)
        return Response(s.TokenSerializer(token_revoke(user=request.user, token_id=token_id)).data)


class TokenRotateView(APIView):
    @extend_schema(
        operation_id="tokens_rotate",
        request=None,
        responses={201: s.TokenIssuedSerializer, 400: ERR_400, 404: ERR_404},
        description="Issue a token with the same name and lifetime and revoke this one, in one "
        "step. The answer holds the new key, the only time it is shown.",
    )
    def post(self, request, token_id: int):
        refuse_body(request)
        return Response(_issued(token_rotate(user=request.user, token_id=token_id)), status=201)
