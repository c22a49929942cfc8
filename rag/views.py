from django.db import DatabaseError
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from config.errors import UNAVAILABLE, error_body
from rag import selectors
from rag.embeddings import provider_health
from rag.serializers import ErrorSerializer, HealthSerializer


class HealthView(APIView):
    """Report whether the service can work: database, worker, embedding provider.

    503 only when the database is down (nothing works then); a failing embedding provider
    answers 200 with ``status: "degraded"``, since every search still answers (degraded).
    """

    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_classes = []

    @extend_schema(
        operation_id="health",
        summary="Service health",
        responses={
            200: OpenApiResponse(
                HealthSerializer,
                description='status "ok", or "degraded" while the embedding provider fails.',
            ),
            503: OpenApiResponse(ErrorSerializer, description="The database is unreachable."),
        },
        tags=["platform"],
    )
    def get(self, request):
        try:
            selectors.database_reachable()
            age = selectors.worker_heartbeat_age()
        except DatabaseError as exc:
            return Response(
                error_body(UNAVAILABLE, "The database is unreachable.", {"reason": str(exc)}),
                status=503,
            )
        embedding = {**selectors.embedding_info(), **provider_health()}
        body = {
            # The service still answers with a failing provider (searches degrade): 200.
            "status": "degraded" if embedding["state"] == "failing" else "ok",
            "database": "ok",
            "worker_heartbeat_age_seconds": age,
            "embedding": embedding,
            "llm": selectors.llm_info(),
        }
        return Response(HealthSerializer(body).data)
