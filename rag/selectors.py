"""Reads of the rag engine."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.utils import timezone

from rag.models import WorkerHeartbeat


def database_reachable() -> bool:
    """Return whether the database answers a trivial query."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return cursor.fetchone()[0] == 1


def worker_heartbeat_age() -> float | None:
    """Return seconds since a worker was last seen, or None if never."""
    last = WorkerHeartbeat.objects.order_by("-seen_at").values_list("seen_at", flat=True).first()
    if last is None:
        return None
    return (timezone.now() - last).total_seconds()


def worker_queue_ages() -> dict[str, float | None]:
    """Return seconds since each queue's cluster was last seen (None: never), per queue."""
    from rag.queues import QUEUES

    now = timezone.now()
    seen = dict(WorkerHeartbeat.objects.filter(name__in=QUEUES).values_list("name", "seen_at"))
    return {q: (now - seen[q]).total_seconds() if q in seen else None for q in QUEUES}


def embedding_info() -> dict:
    """Describe the configured embedding provider without loading its model."""
    from rag.embeddings import get_provider

    provider = get_provider()
    return {
        "provider": provider.name,
        "model": provider.model,
        "dimensions": provider.dimensions,
    }


def llm_info() -> dict:
    """Describe the configured LLM provider."""
    cfg = settings.RAG_LLM
    enabled = cfg.get("PROVIDER") not in (None, "", "none")
    return {
        "provider": cfg.get("PROVIDER") or "none",
        "enabled": enabled,
        "model": cfg.get("MODEL") if enabled else None,
    }
