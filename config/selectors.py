"""Reads of the platform's tables: API tokens, the database, the queues' heartbeats."""

from __future__ import annotations

import hashlib

from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone

from config.models import ApiToken, WorkerHeartbeat
from config.queues import QUEUES

# Longest key looked up: DRF's keys are 40 characters and ours 47 (config.services.KEY_TAG +
# 43); anything much longer is not a key, and is refused before hashing.
MAX_KEY_LENGTH = 128


def token_digest(key: str) -> str:
    """Return the stored form of ``key``: its SHA-256, hex.

    A plain hash, no salt or HMAC key: the key is 256 random bits (DRF's legacy keys 160), so
    neither a dictionary nor a rainbow table applies, and a lookup by digest stays one index
    probe; django-rest-knox stores its tokens the same way (SHA-512). An HMAC keyed with
    SECRET_KEY would invalidate every token when the key is rotated.
    """
    return hashlib.sha256(key.encode()).hexdigest()


def token_for_key(key: str) -> ApiToken | None:
    """Return the valid token whose key is ``key`` (with its user), or None."""
    if not isinstance(key, str) or not key or len(key) > MAX_KEY_LENGTH:
        return None
    try:
        digest = token_digest(key)
    except UnicodeError:  # a lone surrogate cannot be a key
        return None
    token = ApiToken.objects.select_related("user").filter(digest=digest).first()
    if token is None or not token.is_valid():
        return None
    return token


def tokens_of(user) -> QuerySet[ApiToken]:
    """Return every token of ``user`` (valid, expired and revoked), newest first."""
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-pk")


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
    now = timezone.now()
    seen = dict(WorkerHeartbeat.objects.filter(name__in=QUEUES).values_list("name", "seen_at"))
    return {q: (now - seen[q]).total_seconds() if q in seen else None for q in QUEUES}
