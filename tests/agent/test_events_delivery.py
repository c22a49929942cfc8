"""Event delivery: read marks, the resumable events stream (SSE) and signed webhooks.

Streams are read as SSE clients read them (``Accept: text/event-stream``, ``Last-Event-ID`` on
reconnect), once over real HTTP; webhooks are POSTed over real HTTP to a receiver thread (the
``receiver`` fixture) that checks the signature as a real receiver would.
"""

from __future__ import annotations

import json

import httpx
import pytest
from django.utils import timezone

from agent.models import DeliveryState, SystemEvent, WebhookDelivery
from agent.webhooks import EVENT_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, verify

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = pytest.mark.real_clock

SSE = {"HTTP_ACCEPT": "text/event-stream"}


def _event(user, n: int, kind: str = "daily_digest") -> SystemEvent:
    return SystemEvent.objects.create(
        user=user, kind=kind, period_key=f"2026-11-{n:02d}", payload={"text": f"第{n}条"}
    )


def _frames(response) -> list[dict]:
    """Return the events of an SSE body as ``[{"id", "event", "data"}]`` (comments skipped)."""
    body = b"".join(response.streaming_content).decode()
    out = []
    for block in body.split("\n\n"):
        fields = {}
        for line in block.splitlines():
            if line.startswith(":") or ":" not in line:
                continue
            key, _, value = line.partition(":")
            fields[key] = value.strip()
        if "event" in fields:
            out.append(
                {"id": int(fields["id"]), "event": fields["event"], **json.loads(fields["data"])}
            )
    return out


# --- read marks ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_marking_an_event_read_is_idempotent_and_hides_it_from_unread(api_client, user):
    first, second = _event(user, 1), _event(user, 2)
    url = f"/v1/users/{user.username}/events/{first.pk}/read"

    marked = api_client.post(url)
    again = api_client.post(url)
    unread = api_client.get(f"/v1/users/{user.username}/events", {"unread": "true"}).json()

    assert marked.status_code == 200 and marked.json()["read_at"]
    assert again.json()["read_at"] == marked.json()["read_at"]
    assert [e["id"] for e in unread["events"]] == [second.pk]


@pytest.mark.django_db
def test_marking_read_refuses_a_body_with_data_and_leaves_the_event_unread(api_client, user):
    event = _event(user, 1)
    url = f"/v1/users/{user.username}/events/{event.pk}/read"
    response = api_client.post(url, {"read": False}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_ARGUMENT"
    event.refresh_from_db()
    assert event.read_at is None
    assert api_client.post(url, {}, format="json").status_code == 200  # {} is no data


@pytest.mark.django_db
def test_a_user_cannot_mark_another_users_event(api_client, user, other_user):
    theirs = _event(other_user, 1)

    by_name = api_client.post(f"/v1/users/{other_user.username}/events/{theirs.pk}/read")
    by_id = api_client.post(f"/v1/users/{user.username}/events/{theirs.pk}/read")

    assert by_name.status_code == 404 and by_id.status_code == 404
    theirs.refresh_from_db()
    assert theirs.read_at is None


# --- the stream ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_new_stream_starts_with_the_unread_events_oldest_first(api_client, user):
    read, a, b = _event(user, 1), _event(user, 2), _event(user, 3)
    read.read_at = timezone.now()
    read.save()

    response = api_client.get(f"/v1/users/{user.username}/events/stream", {"wait": 0}, **SSE)

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/event-stream")
    assert [(f["id"], f["event"]) for f in _frames(response)] == [
        (a.pk, "daily_digest"),
        (b.pk, "daily_digest"),
    ]


@pytest.mark.django_db
def test_a_reconnect_with_last_event_id_resumes_after_it(api_client, user):
    events = [_event(user, n) for n in range(1, 5)]
    events[3].read_at = timezone.now()  # read elsewhere: still sent on resume
    events[3].save()

    response = api_client.get(
        f"/v1/users/{user.username}/events/stream",
        {"wait": 0},
        HTTP_LAST_EVENT_ID=str(events[1].pk),
        **SSE,
    )

    assert [f["id"] for f in _frames(response)] == [events[2].pk, events[3].pk]


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["abc", "-1", "99999999999999999999", "1.5"])
def test_a_bad_last_event_id_is_400_in_json(api_client, user, value):
    response = api_client.get(
        f"/v1/users/{user.username}/events/stream", HTTP_LAST_EVENT_ID=value, **SSE
    )

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_ARGUMENT"


@pytest.mark.django_db
def test_another_users_stream_is_404(api_client, other_user):
    response = api_client.get(f"/v1/users/{other_user.username}/events/stream", **SSE)

    assert response.status_code == 404


@pytest.mark.django_db
def test_past_the_open_stream_cap_a_stream_sends_what_is_there_and_ends(
    api_client, user, monkeypatch
):
    import threading

    from agent import views_events

    full = threading.BoundedSemaphore(1)
    full.acquire()  # another stream holds the only place
    monkeypatch.setattr(views_events, "_open_streams", full)
    event = _event(user, 1)

    response = api_client.get(f"/v1/users/{user.username}/events/stream", {"wait": 3600}, **SSE)
    body = b"".join(response.streaming_content).decode()

    assert body.startswith("retry: 5000")
    assert f"id: {event.pk}" in body


@pytest.mark.django_db(transaction=True)
def test_an_event_written_while_a_client_listens_arrives_over_real_http(
    live_server, user, settings
):
    settings.EVENTS_STREAM_POLL_SECONDS = 0.2
    settings.EVENTS_STREAM_MAX_SECONDS = 5
    url = f"{live_server.url}/v1/users/{user.username}/events/stream?wait=3"
    headers = {"Authorization": f"Token {user.api_key}", "Accept": "text/event-stream"}
    received = []
    with httpx.stream("GET", url, headers=headers, timeout=30) as response:
        assert response.status_code == 200
        for line in response.iter_lines():
            if line.startswith("retry:"):
                written = _event(user, 7)  # the client is connected: write an event now
            if line.startswith("data:"):
                received.append(json.loads(line[5:]))
        # Read to the end: the stream closes itself after `wait` seconds.

    assert [e["id"] for e in received] == [written.pk]
    assert received[0]["payload"] == {"text": "第7条"}


# --- webhooks --------------------------------------------------------------------------------


def _create_hook(client, username, url, **body):
    return client.post(f"/v1/users/{username}/webhooks", {"url": url, **body}, format="json")


@pytest.mark.django_db
def test_a_new_event_is_posted_signed_to_the_users_webhook(
    api_client, user, receiver, django_capture_on_commit_callbacks
):
    created = _create_hook(api_client, user.username, receiver.url)
    secret = created.json()["secret"]

    with django_capture_on_commit_callbacks(execute=True):
        event = _event(user, 1)

    assert created.status_code == 201
    [request] = receiver.requests
    headers = request["headers"]
    assert verify(secret, headers[TIMESTAMP_HEADER], request["body"], headers[SIGNATURE_HEADER])
    assert not verify(
        "wrong", headers[TIMESTAMP_HEADER], request["body"], headers[SIGNATURE_HEADER]
    )
    body = json.loads(request["body"])
    assert (body["id"], body["user_id"], body["payload"]) == (
        event.pk,
        user.username,
        event.payload,
    )
    assert headers[EVENT_ID_HEADER] == str(event.pk)
    delivery = WebhookDelivery.objects.get(event=event)
    assert (delivery.delivery_state, delivery.status_code) == (DeliveryState.DELIVERED, 200)


@pytest.mark.django_db
def test_a_failing_receiver_is_retried_with_backoff_then_delivered(
    api_client, user, receiver, django_capture_on_commit_callbacks
):
    from django_q.models import Schedule

    from agent.tasks import webhook_deliveries_send

    _create_hook(api_client, user.username, receiver.url)
    receiver.status = 500
    with django_capture_on_commit_callbacks(execute=True):
        event = _event(user, 1)
    delivery = WebhookDelivery.objects.get(event=event)
    retry = Schedule.objects.get(name__startswith="agent.webhooks.retry")
    deliveries = api_client.get(
        f"/v1/users/{user.username}/webhooks/{delivery.webhook_id}/deliveries"
    ).json()["deliveries"]

    assert (delivery.delivery_state, delivery.delivery_attempts) == (DeliveryState.FAILED, 1)
    assert "500" in delivery.delivery_error and retry.next_run > timezone.now()
    assert deliveries[0]["state"] == "failed" and deliveries[0]["error"] == "not delivered"

    receiver.status = 204
    webhook_deliveries_send([delivery.pk])  # what the retry schedule runs

    delivery.refresh_from_db()
    assert (delivery.delivery_state, delivery.status_code) == (DeliveryState.DELIVERED, 204)
    assert len(receiver.requests) == 2


@pytest.mark.django_db
def test_a_delivery_fails_visibly_after_the_last_attempt(
    api_client, user, receiver, django_capture_on_commit_callbacks
):
    from agent.tasks import DELIVERY_WORK, webhook_deliveries_send

    _create_hook(api_client, user.username, receiver.url)
    receiver.status = 503
    with django_capture_on_commit_callbacks(execute=True):
        event = _event(user, 1)
    delivery = WebhookDelivery.objects.get(event=event)
    for _ in range(DELIVERY_WORK.max_attempts - 1):
        webhook_deliveries_send([delivery.pk])

    delivery.refresh_from_db()
    assert delivery.delivery_state == DeliveryState.FAILED
    assert delivery.delivery_attempts == DELIVERY_WORK.max_attempts
    assert "giving up" in delivery.delivery_error
    assert len(receiver.requests) == DELIVERY_WORK.max_attempts


@pytest.mark.django_db
def test_a_users_webhook_gets_only_that_users_events(
    api_client, other_client, user, other_user, receiver, django_capture_on_commit_callbacks
):
    _create_hook(api_client, user.username, receiver.url)

    with django_capture_on_commit_callbacks(execute=True):
        _event(other_user, 1)

    assert receiver.requests == []
    assert other_client.get(f"/v1/users/{other_user.username}/webhooks").json()["webhooks"] == []


@pytest.mark.django_db
def test_a_staff_all_users_webhook_gets_every_users_events(
    staff_client, staff_user, api_client, user, receiver, django_capture_on_commit_callbacks
):
    created = _create_hook(staff_client, staff_user.username, receiver.url, all_users=True)
    refused = _create_hook(api_client, user.username, receiver.url, all_users=True)

    with django_capture_on_commit_callbacks(execute=True):
        _event(user, 1)

    assert created.status_code == 201 and refused.status_code == 400
    assert [json.loads(r["body"])["user_id"] for r in receiver.requests] == [user.username]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url", ["ftp://example.com/x", "not a url", "http://user:pw@example.com/", "http:///nohost"]
)
def test_a_bad_webhook_url_is_400(api_client, user, url):
    response = _create_hook(api_client, user.username, url)

    assert response.status_code == 400
    assert response.json()["error"]["details"]["field"] == "url"


@pytest.mark.django_db
def test_deleting_a_webhook_stops_deliveries(
    api_client, user, receiver, django_capture_on_commit_callbacks
):
    hook = _create_hook(api_client, user.username, receiver.url).json()

    deleted = api_client.delete(f"/v1/users/{user.username}/webhooks/{hook['id']}")
    with django_capture_on_commit_callbacks(execute=True):
        _event(user, 1)

    assert deleted.status_code == 204 and receiver.requests == []
