import logging

from django.db import DatabaseError
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from config import selectors as platform_selectors
from config.errors import UNAVAILABLE, error_body
from config.serializers import ErrorSerializer
from rag import selectors, warmup
from rag.embeddings import provider_health
from rag.serializers import HealthSerializer

logger = logging.getLogger(__name__)

# The heartbeat schedules run every minute on each queue; five missed beats mean it stopped.
WORKER_STALE_SECONDS = 300


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
                description='status "ok", or "degraded" while the embedding provider fails or a '
                "queue's worker has not been seen for 5 minutes.",
            ),
            503: OpenApiResponse(ErrorSerializer, description="The database is unreachable."),
        },
    )
    def get(self, request):
        try:
            platform_selectors.database_reachable()
            age = platform_selectors.worker_heartbeat_age()
            queues = platform_selectors.worker_queue_ages()
        except DatabaseError as exc:
            # Anybody may ask: the database's address and error stay in the log.
            logger.warning("health: database unreachable: %s", exc)
            return Response(
                error_body(UNAVAILABLE, gettext("The database is unreachable.")), status=503
            )
        embedding = {**selectors.embedding_info(), **provider_health()}
        # A queue whose cluster was seen once but not for a while has stopped: its work waits.
        stale = [q for q, a in queues.items() if a is not None and a > WORKER_STALE_SECONDS]
        body = {
            "ready": warmup.is_ready(),
            # The service still answers with a failing provider (searches degrade): 200.
            "status": "degraded" if embedding["state"] == "failing" or stale else "ok",
            "database": "ok",
            "worker_heartbeat_age_seconds": age,
            "worker_queues": queues,
            "embedding": embedding,
            "llm": selectors.llm_info(),
        }
        return Response(HealthSerializer(body).data)
