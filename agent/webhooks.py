"""Webhooks: register where a user's proactive events go, sign and send them, log each try.

Writes here are services (keyword-only ``<entity>_<action>``). Delivery runs in the worker
(``agent.tasks.webhook_deliveries_send``) under the ``rag.work`` state machine: a delivery is
claimed before the POST, retried with backoff, and failed with a visible error at the end.

Receivers check ``X-Memory-Signature: sha256=<hex>``, the HMAC-SHA256 of
``<X-Memory-Timestamp>.<raw body>`` under the webhook's secret (see :func:`signature`), and
may drop a timestamp older than a few minutes (replays). ``X-Memory-Event-Id`` repeats on a
retry: receivers deduplicate with it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import time
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from agent.models import DeliveryState, SystemEvent, Webhook, WebhookDelivery
from config.errors import InvalidArgument, NotFound

logger = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Memory-Signature"
TIMESTAMP_HEADER = "X-Memory-Timestamp"
EVENT_ID_HEADER = "X-Memory-Event-Id"
MAX_WEBHOOKS_PER_OWNER = 20


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """Return the ``sha256=<hex>`` signature of ``body`` sent at ``timestamp``."""
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def verify(secret: str, timestamp: str, body: bytes, header: str) -> bool:
    """Return whether ``header`` is the signature of ``body`` (constant time): for receivers."""
    return hmac.compare_digest(signature(secret, timestamp, body), header or "")


def event_body(event: SystemEvent) -> dict:
    """Return the JSON a webhook receives for ``event`` (the events API's shape, plus user)."""
    return {
        "id": event.pk,
        "user_id": event.user.get_username(),
        "kind": event.kind,
        "period_key": event.period_key,
        "payload": event.payload,
        "created": event.created.isoformat(),
        "read_at": event.read_at.isoformat() if event.read_at else None,
    }


def _check_url(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidArgument("url must be an http(s) URL with a host.", details={"field": "url"})
    if parts.username or parts.password:
        raise InvalidArgument("url must not carry credentials.", details={"field": "url"})


def webhook_create(*, owner, url: str, kinds: list[str], all_users: bool = False) -> Webhook:
    """Register a webhook for ``owner``'s events (all users' for staff with ``all_users``)."""
    _check_url(url)
    if all_users and not owner.is_staff:
        raise InvalidArgument(
            "all_users is for staff clients only.", details={"field": "all_users"}
        )
    with transaction.atomic():
        if Webhook.objects.select_for_update().filter(owner=owner).count() >= (
            MAX_WEBHOOKS_PER_OWNER
        ):
            raise InvalidArgument(
                f"At most {MAX_WEBHOOKS_PER_OWNER} webhooks per user.", details={"field": "url"}
            )
        return Webhook.objects.create(
            owner=owner,
            url=url,
            secret=secrets.token_hex(32),
            kinds=sorted(set(kinds)),
            all_users=all_users,
        )


def webhook_delete(*, owner, webhook_id: int) -> None:
    """Delete one of ``owner``'s webhooks (its delivery log goes with it)."""
    deleted, _ = Webhook.objects.filter(owner=owner, pk=webhook_id).delete()
    if not deleted:
        raise NotFound("No such webhook.")


def webhooks_for(event: SystemEvent):
    """Return the active webhooks that receive ``event``."""
    hooks = Webhook.objects.filter(active=True).filter(
        Q(owner_id=event.user_id) | Q(all_users=True, owner__is_staff=True)
    )
    return [h for h in hooks if h.wants(event.kind)]


def deliveries_create(*, event: SystemEvent) -> list[int]:
    """Create the pending deliveries of ``event`` (one per receiving webhook); return their ids.

    Idempotent: a delivery already logged for a (webhook, event) pair is kept as it is.
    """
    ids = []
    for hook in webhooks_for(event):
        delivery, _ = WebhookDelivery.objects.get_or_create(webhook=hook, event=event)
        if delivery.delivery_state == DeliveryState.PENDING:
            ids.append(delivery.pk)
    return ids


def delivery_post(delivery: WebhookDelivery) -> int:
    """POST the delivery's event to its webhook; return the status, raise on failure.

    Anything but a 2xx answer is a failure (raised as ``RuntimeError`` with the status), so
    the caller records it and retries.
    """
    import httpx

    body = json.dumps(event_body(delivery.event), ensure_ascii=False).encode()
    stamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "semantic-memory-webhooks/1",
        TIMESTAMP_HEADER: stamp,
        EVENT_ID_HEADER: str(delivery.event_id),
        SIGNATURE_HEADER: signature(delivery.webhook.secret, stamp, body),
    }
    response = httpx.post(
        delivery.webhook.url,
        content=body,
        headers=headers,
        timeout=settings.WEBHOOK_TIMEOUT_SECONDS,
        follow_redirects=False,
    )
    if not 200 <= response.status_code < 300:
        raise RuntimeError(f"receiver answered {response.status_code}")
    return response.status_code


def delivery_retry(*, delivery_ids: list[int]) -> int:
    """Make failed deliveries pending again with fresh attempts (admin action); return count."""
    return WebhookDelivery.objects.filter(
        pk__in=delivery_ids, delivery_state=DeliveryState.FAILED
    ).update(
        delivery_state=DeliveryState.PENDING,
        delivery_attempts=0,
        delivery_error="",
        delivery_state_at=timezone.now(),
    )
