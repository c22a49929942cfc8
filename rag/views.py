from django.db import DatabaseError
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from config.errors import UNAVAILABLE, error_body
from rag import selectors
from rag.serializers import ErrorSerializer, HealthSerializer


class HealthView(APIView):
    """Report whether the service can work: database, worker, embedding provider."""

    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_classes = []

    @extend_schema(
        operation_id="health",
        summary="Service health",
        responses={
            200: HealthSerializer,
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
        body = {
            "status": "ok",
            "database": "ok",
            "worker_heartbeat_age_seconds": age,
            "embedding": selectors.embedding_info(),
            "llm": selectors.llm_info(),
        }
        return Response(HealthSerializer(body).data)
