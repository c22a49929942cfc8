"""Webhook SSRF: internal targets are refused at creation and again at delivery, never reached.

Names resolve through ``fake_dns`` (no real lookups) and ``no_connect`` records any connection
attempt: a refusal must come before the first packet. The public address below is only ever
vetted, never contacted.
"""

from __future__ import annotations

import pytest

from agent.models import DeliveryState, SystemEvent, Webhook, WebhookDelivery
from agent.tasks import webhook_deliveries_send

PUBLIC = "93.184.215.14"


def _create(client, user, url):
    return client.post(f"/v1/users/{user.username}/webhooks", {"url": url}, format="json")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "https://localhost/hook",
        "https://api.localhost/hook",
        "https://127.0.0.1/hook",
        "https://127.1/hook",
        "https://0x7f000001/hook",
        "https://2130706433/hook",
        "https://0177.0.0.1/hook",
        "https://[::1]/hook",
        "https://0.0.0.0/hook",
        "https://[::]/hook",
        "https://10.0.0.5/hook",
        "https://172.16.3.4/hook",
        "https://192.168.1.1/hook",
        "https://169.254.169.254/latest/meta-data/",
        "https://100.64.0.1/hook",
        "https://224.0.0.1/hook",
        "https://240.0.0.1/hook",
        "https://[fe80::1]/hook",
        "https://[fc00::1]/hook",
        "https://[::ffff:127.0.0.1]/hook",
        "https://[::ffff:7f00:1]/hook",
        "https://[64:ff9b::a00:1]/hook",
        "https://[2002:7f00:1::]/hook",
    ],
)
def test_an_internal_address_in_any_spelling_is_refused_at_creation(
    api_client, user, strict_targets, fake_dns, no_connect, url
):
    response = _create(api_client, user, url)

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_ARGUMENT"
    assert response.json()["error"]["details"]["field"] == "url"
    assert no_connect == [] and not Webhook.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "addresses", [["10.1.2.3"], ["169.254.169.254"], [PUBLIC, "127.0.0.1"], ["::1"]]
)
def test_a_name_resolving_to_an_internal_address_is_refused_at_creation(
    api_client, user, strict_targets, fake_dns, no_connect, addresses
):
    fake_dns["hooks.example.com"] = addresses

    response = _create(api_client, user, "https://hooks.example.com/hook")

    assert response.status_code == 400
    assert "public address" in response.json()["error"]["message"]
    assert no_connect == []


@pytest.mark.django_db
def test_a_name_that_does_not_resolve_is_refused_at_creation(
    api_client, user, strict_targets, fake_dns
):
    response = _create(api_client, user, "https://nowhere.example.com/hook")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_ARGUMENT"


@pytest.mark.django_db
@pytest.mark.parametrize("port", [22, 25, 5432, 6379, 11211, 27017])
def test_a_port_of_an_internal_service_is_refused(api_client, user, strict_targets, fake_dns, port):
    fake_dns["hooks.example.com"] = [PUBLIC]

    response = _create(api_client, user, f"https://hooks.example.com:{port}/hook")

    assert response.status_code == 400
    assert "port" in response.json()["error"]["message"]


@pytest.mark.django_db
def test_plain_http_is_refused_outside_development(api_client, user, strict_targets, fake_dns):
    fake_dns["hooks.example.com"] = [PUBLIC]

    response = _create(api_client, user, "http://hooks.example.com/hook")

    assert response.status_code == 400
    assert "https" in response.json()["error"]["message"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url", ["https://hooks.example.com/hook", "https://hooks.example.com:8443/"]
)
def test_a_public_https_target_is_accepted_without_connecting(
    api_client, user, strict_targets, fake_dns, no_connect, url
):
    fake_dns["hooks.example.com"] = [PUBLIC]

    response = _create(api_client, user, url)

    assert response.status_code == 201
    assert no_connect == []


@pytest.mark.django_db
def test_a_name_rebound_to_an_internal_address_after_creation_is_refused_at_delivery(
    api_client, user, strict_targets, fake_dns, no_connect, django_capture_on_commit_callbacks
):
    fake_dns["hooks.example.com"] = [PUBLIC]
    assert _create(api_client, user, "https://hooks.example.com/hook").status_code == 201
    fake_dns["hooks.example.com"] = ["127.0.0.1"]  # the owner's DNS now points inside

    with django_capture_on_commit_callbacks(execute=True):
        event = SystemEvent.objects.create(user=user, kind="daily_digest", period_key="d1")

    delivery = WebhookDelivery.objects.get(event=event)
    assert delivery.delivery_state == DeliveryState.FAILED
    assert "loopback" in delivery.delivery_error  # the server-side detail
    assert no_connect == []


@pytest.mark.django_db
def test_a_delivery_resolves_once_and_connects_to_that_address_with_the_name_as_host(
    api_client, user, receiver, fake_dns, django_capture_on_commit_callbacks
):
    # Private targets are allowed here (test settings): the pinned address is the receiver's.
    fake_dns["hooks.example.com"] = ["127.0.0.1"]
    url = f"http://hooks.example.com:{receiver.port}/hook"
    assert _create(api_client, user, url).status_code == 201

    with django_capture_on_commit_callbacks(execute=True):
        SystemEvent.objects.create(user=user, kind="daily_digest", period_key="d1")

    [request] = receiver.requests
    assert request["headers"]["Host"] == f"hooks.example.com:{receiver.port}"
    assert fake_dns.lookups == ["hooks.example.com"]


@pytest.mark.django_db
def test_the_owner_sees_only_that_a_delivery_failed_never_the_receivers_answer(
    api_client, user, receiver, django_capture_on_commit_callbacks
):
    receiver.status = 418
    hook = _create(api_client, user, receiver.url).json()
    with django_capture_on_commit_callbacks(execute=True):
        SystemEvent.objects.create(user=user, kind="daily_digest", period_key="d1")

    url = f"/v1/users/{user.username}/webhooks/{hook['id']}/deliveries"
    [delivery] = api_client.get(url).json()["deliveries"]

    assert (delivery["state"], delivery["error"]) == ("failed", "not delivered")
    assert "status_code" not in delivery and "418" not in str(delivery)
    assert "418" in WebhookDelivery.objects.get().delivery_error  # kept for the server side


@pytest.mark.django_db
def test_the_owner_sees_no_connection_error_details(
    api_client, user, tarpit, django_capture_on_commit_callbacks
):
    closed = tarpit("silent").rsplit(":", 1)[0] + ":9/hook"  # nothing listens on port 9
    hook = _create(api_client, user, closed).json()
    with django_capture_on_commit_callbacks(execute=True):
        SystemEvent.objects.create(user=user, kind="daily_digest", period_key="d1")

    url = f"/v1/users/{user.username}/webhooks/{hook['id']}/deliveries"
    [delivery] = api_client.get(url).json()["deliveries"]

    assert delivery == {**delivery, "state": "failed", "error": "not delivered"}
    assert "Connect" in WebhookDelivery.objects.get().delivery_error


@pytest.mark.django_db
def test_a_delivery_of_a_target_refused_at_delivery_never_connects(
    user, strict_targets, fake_dns, no_connect
):
    # A webhook stored before the rules existed (or by the admin) is vetted again at delivery.
    hook = Webhook.objects.create(owner=user, url="https://10.0.0.8/hook", secret="s")
    event = SystemEvent.objects.create(user=user, kind="daily_digest", period_key="d1")
    delivery = WebhookDelivery.objects.get_or_create(webhook=hook, event=event)[0]

    webhook_deliveries_send([delivery.pk])

    delivery.refresh_from_db()
    assert delivery.delivery_state == DeliveryState.FAILED and "private" in delivery.delivery_error
    assert no_connect == []
