"""Webhooks: register where a user's proactive events go, sign and send them, log each try.

Writes here are services (keyword-only ``<entity>_<action>``). Delivery runs in the worker
(``agent.tasks.webhook_deliveries_send``) under the ``config.work`` state machine: a delivery is
claimed before the POST, retried with backoff, and failed with a visible error at the end.

Targets are vetted against SSRF at creation and again at delivery (``agent.webhook_targets``);
each POST has ``WEBHOOK_DEADLINE_SECONDS`` in all; a webhook whose POSTs keep failing is
disabled (``WEBHOOK_DISABLE_AFTER_FAILURES``). The owner sees only whether a delivery arrived:
a receiver's status and connection errors stay in the server's log and the admin.

Receivers check ``X-Memory-Signature: sha256=<hex>``, the HMAC-SHA256 of
``<X-Memory-Timestamp>.<raw body>`` under the webhook's secret (see :func:`signature`), and
may drop a timestamp older than a few minutes (replays). ``X-Memory-Event-Id`` repeats on a
retry: receivers deduplicate with it.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import secrets
import time
from contextlib import contextmanager

import httpx
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext

from agent.models import DeliveryState, DisabledReason, SystemEvent, Webhook, WebhookDelivery
from agent.webhook_targets import check_url, pin
from config.errors import InvalidArgument, NotFound
from config.fields import response_datetime
from config.permissions import acts_for_any_user
from config.queues import WEBHOOKS, enqueue
from config.streams import give_back_slot, take_slot

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
        "created": response_datetime(event.created),
        "read_at": response_datetime(event.read_at),
    }


def webhook_create(*, owner, url: str, kinds: list[str], all_users: bool = False) -> Webhook:
    """Register a webhook for ``owner``'s events (``all_users``: everyone's, service only)."""
    if all_users and not acts_for_any_user(owner):
        raise InvalidArgument(
            gettext("all_users is for clients that act for any user only."),
            details={"field": "all_users"},
        )
    check_url(url)
    with transaction.atomic():
        if Webhook.objects.select_for_update().filter(owner=owner).count() >= (
            MAX_WEBHOOKS_PER_OWNER
        ):
            raise InvalidArgument(
                gettext("At most %(max)d webhooks per user.") % {"max": MAX_WEBHOOKS_PER_OWNER},
                details={"field": "url"},
            )
        return Webhook.objects.create(
            owner=owner,
            url=url,
            secret=secrets.token_hex(32),
            kinds=sorted(set(kinds)),
            all_users=all_users,
        )


def webhook_update(*, owner, webhook_id: int, active: bool) -> Webhook:
    """Turn one of ``owner``'s webhooks on or off; turning it on clears a disabling."""
    hook = Webhook.objects.filter(owner=owner, pk=webhook_id).first()
    if hook is None:
        raise NotFound(gettext("No such webhook."))
    hook.active = active
    if active:
        hook.consecutive_failures = 0
        hook.disabled_at = None
        hook.disabled_reason = ""
    hook.save(update_fields=["active", "consecutive_failures", "disabled_at", "disabled_reason"])
    return hook


def webhook_record_success(*, webhook_id: int) -> None:
    """Note a delivered POST: the run of failures is over."""
    Webhook.objects.filter(pk=webhook_id, consecutive_failures__gt=0).update(consecutive_failures=0)


def webhook_record_failure(*, webhook_id: int) -> bool:
    """Count a failed POST; disable the webhook at the limit. Return whether it is disabled now."""
    limit = settings.WEBHOOK_DISABLE_AFTER_FAILURES
    Webhook.objects.filter(pk=webhook_id).update(consecutive_failures=F("consecutive_failures") + 1)
    disabled = Webhook.objects.filter(
        pk=webhook_id, active=True, consecutive_failures__gte=limit
    ).update(
        active=False,
        disabled_at=timezone.now(),
        disabled_reason=DisabledReason.CONSECUTIVE_FAILURES,
    )
    if disabled:
        logger.warning("webhook %s disabled after %s consecutive failures", webhook_id, limit)
    return bool(disabled)


def webhook_delete(*, owner, webhook_id: int) -> None:
    """Delete one of ``owner``'s webhooks (its delivery log goes with it)."""
    deleted, _ = Webhook.objects.filter(owner=owner, pk=webhook_id).delete()
    if not deleted:
        raise NotFound(gettext("No such webhook."))


def webhooks_for(event: SystemEvent):
    """Return the active webhooks that receive ``event``."""
    hooks = (
        Webhook.objects.filter(active=True)
        .filter(Q(owner_id=event.user_id) | Q(all_users=True))
        .select_related("owner")
    )
    # An all-users webhook receives others' events only while its owner may act for any user.
    return [
        h
        for h in hooks
        if h.wants(event.kind) and (h.owner_id == event.user_id or acts_for_any_user(h.owner))
    ]


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


class DeliveryFailed(Exception):
    """A POST that did not end in a 2xx answer (the message is for the server's log only)."""


async def _post(url: str, *, headers: dict, body: bytes, sni: str) -> int:
    # trust_env=False: no proxy from the environment may carry the POST elsewhere. Only the
    # status line and headers are awaited; the body is never read.
    async with httpx.AsyncClient(trust_env=False, follow_redirects=False) as client:
        request = client.build_request(
            "POST", url, content=body, headers=headers, extensions={"sni_hostname": sni}
        )
        response = await client.send(request, stream=True)
        await response.aclose()
        return response.status_code


def _post_within(deadline: float, url: str, **kwargs) -> int:
    """Run the POST to completion or cancel it at ``deadline`` seconds, whatever it waits on."""
    try:
        return asyncio.run(asyncio.wait_for(_post(url, **kwargs), timeout=deadline))
    except TimeoutError:
        raise DeliveryFailed(
            f"no answer within {settings.WEBHOOK_DEADLINE_SECONDS:g} s (deadline)"
        ) from None
    except httpx.HTTPError as exc:
        raise DeliveryFailed(f"{type(exc).__name__}: {exc}") from None


def delivery_post(delivery: WebhookDelivery) -> int:
    """POST the delivery's event to its webhook; return the status, raise on failure.

    The host is resolved and vetted once (``pin``) and the connection goes to that address,
    with the name in Host and TLS SNI (the certificate is checked against the name). The whole
    POST, connect to answer, has ``WEBHOOK_DEADLINE_SECONDS``. Anything but a 2xx answer, a
    refused target included, raises ``DeliveryFailed`` or ``InvalidArgument`` before or instead
    of a connection, so the caller records it and retries.
    """
    started = time.monotonic()
    target = pin(delivery.webhook.url)
    remaining = settings.WEBHOOK_DEADLINE_SECONDS - (time.monotonic() - started)
    if remaining <= 0:
        raise DeliveryFailed("name resolution used up the deadline")
    body = json.dumps(event_body(delivery.event), ensure_ascii=False).encode()
    stamp = str(int(time.time()))
    headers = {
        "Host": target.host_header(),
        "Content-Type": "application/json",
        "User-Agent": "semantic-memory-webhooks/1",
        TIMESTAMP_HEADER: stamp,
        EVENT_ID_HEADER: str(delivery.event_id),
        SIGNATURE_HEADER: signature(delivery.webhook.secret, stamp, body),
    }
    status = _post_within(
        remaining, target.url(delivery.webhook.url), headers=headers, body=body, sni=target.host
    )
    if not 200 <= status < 300:
        raise DeliveryFailed(f"receiver answered {status}")
    return status


# Advisory lock namespace of the per-owner delivery slots ("WHK" in ASCII).
_SLOT_LOCK_SPACE = 0x57484B


@contextmanager
def owner_slot(owner_id: int):
    """Hold one of the owner's ``WEBHOOK_MAX_CONCURRENT_PER_OWNER`` delivery slots, or yield False.

    A slot is a PostgreSQL session advisory lock: it holds across workers and machines and is
    released with the connection if the worker dies mid-POST.
    """
    cap = max(1, settings.WEBHOOK_MAX_CONCURRENT_PER_OWNER)
    held = take_slot(_SLOT_LOCK_SPACE, (owner_id * cap) % (2**31 - cap), cap)
    try:
        yield held is not None
    finally:
        if held is not None:
            give_back_slot(_SLOT_LOCK_SPACE, held)


def enqueue_deliveries(ids: list[int], *, queue: str | None = None) -> None:
    """Send these deliveries asynchronously, one task each, on the webhooks queue.

    ``queue`` is accepted for the reconciler's sake and ignored: a receiver's POST never runs on
    the interactive or bulk workers. One task per delivery keeps each task within one
    ``WEBHOOK_DEADLINE_SECONDS``, far below the worker timeout.
    """
    for pk in ids:
        enqueue("agent.tasks.webhook_deliveries_send", [pk], queue=WEBHOOKS, group="agent.webhooks")


def delivery_retry(*, delivery_ids: list[int]) -> int:
    """Make failed deliveries pending again with fresh attempts and queue them; return count.

    Deliveries among ``delivery_ids`` that are not failed are left alone (and not queued).
    """
    with transaction.atomic():
        failed = list(
            WebhookDelivery.objects.select_for_update()
            .filter(pk__in=delivery_ids, delivery_state=DeliveryState.FAILED)
            .values_list("pk", flat=True)
        )
        WebhookDelivery.objects.filter(pk__in=failed).update(
            delivery_state=DeliveryState.PENDING,
            delivery_attempts=0,
            delivery_error="",
            delivery_state_at=timezone.now(),
        )
        transaction.on_commit(lambda: enqueue_deliveries(failed))
    return len(failed)
