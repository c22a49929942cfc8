"""The memory admin: messages and summaries are searchable and read-only."""

from __future__ import annotations

import pytest

from memory.models import ChatMessage, Kind
from memory.retention import retention_run
from tests.memory.memory_helpers import BASE_TS

MESSAGES = "/admin/memory/chatmessageproxy/"
SUMMARIES = "/admin/memory/summaryproxy/"


@pytest.fixture
def stored(user, other_user):
    """Store turns of alice (chats trip, food) and bob (trip), and a summary of alice's trip."""
    common = {"ts": BASE_TS, "role": "user", "search_text": ""}
    rows = {
        "a_trip": ChatMessage.objects.create(
            user=user, message_id="a_trip", chat_id="trip", content="去西湖", **common
        ),
        "a_food": ChatMessage.objects.create(
            user=user, message_id="a_food", chat_id="food", content="不吃辣", **common
        ),
        "b_trip": ChatMessage.objects.create(
            user=other_user, message_id="b_trip", chat_id="trip", content="去黄山", **common
        ),
        "s_trip": ChatMessage.objects.create(
            user=user,
            message_id="s_trip",
            chat_id="trip",
            content="用户想去西湖。",
            kind=Kind.SUMMARY,
            **{**common, "role": "system"},
        ),
    }
    return rows


def _listed(response, candidates) -> set[str]:
    assert response.status_code == 200
    page = response.content.decode()
    return {c for c in candidates if c in page}


IDS = ["a_trip", "a_food", "b_trip", "s_trip"]


def test_message_changelist_searches_by_user(admin_client, stored):
    response = admin_client.get(MESSAGES, {"q": "alice"})
    assert _listed(response, IDS) == {"a_trip", "a_food"}


def test_message_changelist_searches_by_chat(admin_client, stored):
    response = admin_client.get(MESSAGES, {"q": "trip"})
    assert _listed(response, IDS) == {"a_trip", "b_trip"}


def test_summary_changelist_lists_only_summaries(admin_client, stored):
    response = admin_client.get(SUMMARIES, {"q": "alice"})
    assert _listed(response, IDS) == {"s_trip"}


@pytest.mark.parametrize("base", [MESSAGES, SUMMARIES])
def test_adding_is_forbidden(admin_client, base):
    assert admin_client.get(base + "add/").status_code == 403


@pytest.mark.parametrize(("base", "key"), [(MESSAGES, "a_trip"), (SUMMARIES, "s_trip")])
def test_changing_is_forbidden(admin_client, stored, base, key):
    row = stored[key]
    url = f"{base}{row.pk}/change/"
    page = admin_client.get(url)
    assert page.status_code == 200  # viewable, read-only
    assert 'name="content"' not in page.content.decode()
    response = admin_client.post(url, {"content": "改写"})
    assert response.status_code == 403
    row.refresh_from_db()
    assert row.content != "改写"


INVALID_SETTINGS = [
    ({"retention_days": 0}, "retention_days"),
    ({"retention_days": 36501}, "retention_days"),
    ({"summary_trigger_messages": 1}, "summary_trigger_messages"),
    ({"summary_max_chars": 10}, "summary_max_chars"),
]


@pytest.mark.parametrize("changes, field", INVALID_SETTINGS, ids=[f for _, f in INVALID_SETTINGS])
def test_the_live_settings_page_refuses_out_of_range_values(
    memory_settings, post_live_settings, changes, field
):
    response = post_live_settings(memory_settings, **changes)
    assert response.status_code == 200  # the form again, with the error
    assert field in response.context["adminform"].form.errors


def test_the_live_settings_page_saves_and_the_next_retention_run_reads_it(
    memory_settings, post_live_settings
):
    assert retention_run(dry_run=True).enabled is True  # the row is now cached
    response = post_live_settings(memory_settings, retention_enabled=False, retention_days=30)
    assert response.status_code == 302, response.content[-2000:]
    report = retention_run(dry_run=True)
    assert (report.enabled, report.retention_days) == (False, 30)
