"""Webhook delivery limits: one user's receivers cannot stall anybody's background work.

A POST has one wall-clock deadline whatever the receiver does; deliveries run on their own
queue, one task each; an owner's POSTs share a few slots; a webhook that keeps failing is
disabled until its owner turns it back on.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connections

from agent.models import DeliveryState, SystemEvent, Webhook, WebhookDelivery
from agent.tasks import webhook_deliveries_send
from agent.webhooks import _SLOT_LOCK_SPACE


def _hook(client, user, url) -> dict:
    response = client.post(f"/v1/users/{user.username}/webhooks", {"url": url}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def _event(user, n: int) -> SystemEvent:
    return SystemEvent.objects.create(user=user, kind="daily_digest", period_key=f"d{n}")


@pytest.mark.django_db
@pytest.mark.parametrize("mode", ["silent", "dribble"])
def test_a_tarpit_receiver_is_abandoned_within_the_deadline(
    api_client, user, tarpit, settings, django_capture_on_commit_callbacks, mode
):
    settings.WEBHOOK_DEADLINE_SECONDS = 1.0
    _hook(api_client, user, tarpit(mode))

    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        event = _event(user, 1)
    elapsed = time.monotonic() - started

    delivery = WebhookDelivery.objects.get(event=event)
    assert delivery.delivery_state == DeliveryState.FAILED
    assert "no answer within 1 s" in delivery.delivery_error
    assert elapsed < 4  # 1 s deadline; per-read timeouts would wait for ever on "dribble"


# Why a webhook was disabled, as its owner reads it in each language.
DISABLED_AFTER_3 = {
    "en": "Disabled after 3 consecutive failed deliveries.",
    "zh-hans": "连续 3 次投递失败，已停用。",
}
NOT_DELIVERED = {"en": "not delivered", "zh-hans": "未送达"}


@pytest.mark.django_db
@pytest.mark.parametrize("language", list(DISABLED_AFTER_3))
def test_a_webhook_failing_n_times_in_a_row_is_disabled_and_visible(
    api_client, user, receiver, settings, django_capture_on_commit_callbacks, language
):
    settings.WEBHOOK_DISABLE_AFTER_FAILURES = 3
    receiver.status = 500
    hook = _hook(api_client, user, receiver.url)

    for n in range(4):
        with django_capture_on_commit_callbacks(execute=True):
            _event(user, n)

    url = f"/v1/users/{user.username}/webhooks"
    [listed] = api_client.get(url, HTTP_ACCEPT_LANGUAGE=language).json()["webhooks"]
    deliveries = api_client.get(
        f"{url}/{hook['id']}/deliveries", HTTP_ACCEPT_LANGUAGE=language
    ).json()["deliveries"]
    assert len(receiver.requests) == 3  # the fourth event found no active webhook
    assert listed["id"] == hook["id"] and listed["active"] is False
    assert listed["disabled_at"] and listed["disabled_code"] == "consecutive_failures"
    assert listed["disabled_reason"] == DISABLED_AFTER_3[language]
    assert {d["error"] for d in deliveries} == {NOT_DELIVERED[language]}
    # Stored as a code, not as text in the language of whoever was asking.
    assert Webhook.objects.get().disabled_reason == "consecutive_failures"


@pytest.mark.django_db
def test_a_success_resets_the_run_of_failures(
    api_client, user, receiver, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_DISABLE_AFTER_FAILURES = 2
    _hook(api_client, user, receiver.url)

    for n, status in enumerate([500, 200, 500]):
        receiver.status = status
        with django_capture_on_commit_callbacks(execute=True):
            _event(user, n)

    hook = Webhook.objects.get()
    assert (hook.active, hook.consecutive_failures) == (True, 1)


@pytest.mark.django_db
def test_the_owner_re_enables_a_disabled_webhook_by_update(
    api_client, user, receiver, django_capture_on_commit_callbacks
):
    hook = _hook(api_client, user, receiver.url)
    Webhook.objects.filter(pk=hook["id"]).update(
        active=False, consecutive_failures=10, disabled_reason="consecutive_failures"
    )
    url = f"/v1/users/{user.username}/webhooks/{hook['id']}"

    updated = api_client.patch(url, {"active": True}, format="json")
    with django_capture_on_commit_callbacks(execute=True):
        _event(user, 1)

    assert updated.status_code == 200
    assert (updated.json()["active"], updated.json()["disabled_reason"]) == (True, "")
    assert updated.json()["disabled_code"] == ""
    assert len(receiver.requests) == 1
    assert Webhook.objects.get().consecutive_failures == 0


@pytest.mark.django_db
def test_another_user_cannot_update_a_webhook(api_client, other_client, user, receiver):
    hook = _hook(api_client, user, receiver.url)

    response = other_client.patch(
        f"/v1/users/{user.username}/webhooks/{hook['id']}", {"active": False}, format="json"
    )

    assert response.status_code == 404
    assert Webhook.objects.get().active is True


@pytest.mark.django_db
def test_a_pending_delivery_of_a_disabled_webhook_is_failed_without_a_post(user, receiver):
    hook = Webhook.objects.create(owner=user, url=receiver.url, secret="s", active=False)
    delivery = WebhookDelivery.objects.create(webhook=hook, event=_event(user, 1))

    webhook_deliveries_send([delivery.pk])

    delivery.refresh_from_db()
    assert (delivery.delivery_state, delivery.delivery_error) == ("failed", "webhook disabled")
    assert receiver.requests == []


@pytest.fixture
def owner_slots_taken(user, settings):
    """Hold every delivery slot of ``user`` from another database session, as busy workers do."""
    settings.WEBHOOK_MAX_CONCURRENT_PER_OWNER = 1
    held, release = threading.Event(), threading.Event()

    def hold():
        try:
            with connections["default"].cursor() as cursor:
                cursor.execute("SELECT pg_advisory_lock(%s, %s)", [_SLOT_LOCK_SPACE, user.pk])
                held.set()
                release.wait(30)
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [_SLOT_LOCK_SPACE, user.pk])
        finally:
            connections.close_all()

    thread = threading.Thread(target=hold)
    thread.start()
    assert held.wait(30)
    yield
    release.set()
    thread.join()


@pytest.mark.django_db
def test_a_delivery_waits_when_its_owner_has_every_slot_busy(user, receiver, owner_slots_taken):
    from django_q.models import Schedule

    hook = Webhook.objects.create(owner=user, url=receiver.url, secret="s")
    delivery = WebhookDelivery.objects.create(webhook=hook, event=_event(user, 1))

    webhook_deliveries_send([delivery.pk])

    delivery.refresh_from_db()
    assert receiver.requests == []
    assert (delivery.delivery_state, delivery.delivery_attempts) == ("pending", 0)
    assert Schedule.objects.get(name=f"agent.webhooks.wait:{delivery.pk}").cluster == "webhooks"


@pytest.mark.django_db
def test_deliveries_run_on_the_webhooks_queue_one_task_each(
    user, receiver, monkeypatch, django_capture_on_commit_callbacks
):
    import django_q.tasks

    run = django_q.tasks.async_task
    sent = []

    def record(func, *args, **kwargs):
        sent.append((func, kwargs.get("cluster"), args))
        return run(func, *args, **kwargs)

    monkeypatch.setattr(django_q.tasks, "async_task", record)
    for _ in range(2):
        Webhook.objects.create(owner=user, url=receiver.url, secret="s")

    with django_capture_on_commit_callbacks(execute=True):
        _event(user, 1)

    hooks = [s for s in sent if s[0].startswith("agent.tasks.")]
    assert {(func, cluster) for func, cluster, _ in hooks} == {
        ("agent.tasks.event_fanout", "webhooks"),
        ("agent.tasks.webhook_deliveries_send", "webhooks"),
    }
    assert [len(a[0]) for f, _, a in hooks if f.endswith("send")] == [1, 1]
    assert len(receiver.requests) == 2
