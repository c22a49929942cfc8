"""The agent admin: a failed webhook delivery is retried by one service call."""

from __future__ import annotations

import pytest

from agent.models import DeliveryState, SystemEvent, Webhook, WebhookDelivery
from agent.selectors import agent_settings_get

DELIVERIES = "/admin/agent/webhookdelivery/"


@pytest.mark.django_db
def test_the_retry_action_sends_failed_deliveries_again_and_leaves_the_others(
    admin_client, user, receiver, django_capture_on_commit_callbacks
):
    hook = Webhook.objects.create(owner=user, url=receiver.url, secret="s")
    failed, delivered = (
        WebhookDelivery.objects.create(
            webhook=hook,
            event=SystemEvent.objects.create(user=user, kind="daily_digest", period_key=key),
            delivery_state=state,
            delivery_attempts=5,
            delivery_error="HTTP 500" if state == DeliveryState.FAILED else "",
        )
        for key, state in (("d1", DeliveryState.FAILED), ("d2", DeliveryState.DELIVERED))
    )

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            DELIVERIES, {"action": "retry", "_selected_action": [failed.pk, delivered.pk]}
        )

    assert response.status_code == 302
    failed.refresh_from_db()
    delivered.refresh_from_db()
    assert (failed.delivery_state, failed.delivery_error) == (DeliveryState.DELIVERED, "")
    assert (delivered.delivery_state, delivered.delivery_attempts) == (DeliveryState.DELIVERED, 5)
    assert len(receiver.requests) == 1  # only the failed one was posted again


def test_the_live_settings_page_saves_and_the_next_read_uses_it(agent_settings, post_live_settings):
    assert agent_settings_get().interest_spike_count == 3  # now cached
    response = post_live_settings(agent_settings, interest_spike_count=5, interest_spike_days=7)
    assert response.status_code == 302, response.content[-2000:]
    row = agent_settings_get()
    assert (row.interest_spike_count, row.interest_spike_days) == (5, 7)
