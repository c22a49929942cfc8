"""The shared-context and memory tools act for the authenticated user only."""

from __future__ import annotations

import json

import pytest

from agent.tool_registry import REGISTRY

pytestmark = pytest.mark.django_db


@pytest.fixture
def their_context(other_user):
    from memory.services import context_create

    return context_create(
        owner=other_user, title="别人的旅行计划", entry="护照号 E1234", agent_name="planner"
    )


def test_fetch_context_returns_the_users_own_context(user):
    from memory.services import context_create

    context = context_create(owner=user, title="周末计划", entry="想去爬山", agent_name="planner")
    result = REGISTRY["fetchContext"].run(user, {"contextId": context.pk})
    assert result == {
        "context": {
            "id": context.pk,
            "title": "周末计划",
            "entries": [{"agent": "planner", "content": "想去爬山"}],
        }
    }


def test_fetch_context_of_another_user_is_not_found_and_reveals_nothing(user, their_context):
    result = REGISTRY["fetchContext"].run(user, {"contextId": their_context.pk})
    assert result["error"]["code"] == "NOT_FOUND"
    assert set(result) == {"error"}
    dumped = json.dumps(result, ensure_ascii=False)
    assert "旅行计划" not in dumped and "E1234" not in dumped


def test_update_context_without_an_id_creates_one(user):
    from memory.models import SharedContext

    result = REGISTRY["updateContext"].run(user, {"content": "用户不吃辣", "title": "饮食"})
    assert result["created"] is True
    context = SharedContext.objects.get(pk=result["contextId"])
    assert context.owner == user and context.title == "饮食"
    assert [(e.agent_name, e.content) for e in context.entries.all()] == [("agent", "用户不吃辣")]


def test_update_context_with_an_id_appends(user):
    from memory.selectors import fetch_context
    from memory.services import context_create

    context = context_create(owner=user, title="周末计划", entry="想去爬山", agent_name="planner")
    result = REGISTRY["updateContext"].run(user, {"contextId": context.pk, "content": "下午出发"})
    assert result["created"] is False and result["contextId"] == context.pk
    entries = fetch_context(user=user, context_id=context.pk)["entries"]
    assert [(e["agent_name"], e["content"]) for e in entries] == [
        ("planner", "想去爬山"),
        ("agent", "下午出发"),
    ]
    assert entries[1]["id"] == result["entryId"]


def test_update_context_of_another_user_is_not_found_and_appends_nothing(user, their_context):
    result = REGISTRY["updateContext"].run(
        user, {"contextId": their_context.pk, "content": "偷偷加一条"}
    )
    assert result["error"]["code"] == "NOT_FOUND"
    assert their_context.entries.count() == 1


def test_recall_memory_finds_only_the_users_own_messages(
    user, other_user, django_capture_on_commit_callbacks
):
    from memory.services import messages_write

    def write(owner, content):
        item = {"ts": "2026-11-20T09:00:00+08:00", "role": "user", "content": content}
        with django_capture_on_commit_callbacks(execute=True):  # embedded, as in production
            messages_write(user=owner, items=[{**item, "chat_id": "c1"}])

    write(user, "我上周去的那家火锅店叫海底捞")
    write(other_user, "别人家的火锅店叫小龙坎")
    result = REGISTRY["recallMemory"].run(user, {"query": "火锅店", "user_id": other_user.pk})
    contents = [m["content"] for m in result["messages"]]
    assert contents == ["我上周去的那家火锅店叫海底捞"]
    assert result["messages"][0]["role"] == "user"


def test_publish_in_a_chat_without_a_draft_touches_no_other_draft(user):
    from activities.models import Activity

    made = REGISTRY["createDraft"].run(user, {"title": "桌游局"}, chat_id="chat_a")
    result = REGISTRY["publishActivity"].run(user, {}, chat_id="chat_b")
    assert result["error"]["code"] == "NOT_FOUND"
    assert Activity.objects.get(pk=made["draft"]["id"]).status == "draft"


def test_publish_with_an_explicit_id_is_allowed_for_the_owner_only(user, other_user):
    from activities.models import Activity

    mine = REGISTRY["createDraft"].run(user, {"title": "桌游局"}, chat_id="chat_a")["draft"]
    theirs = REGISTRY["createDraft"].run(other_user, {"title": "火锅局"}, chat_id="c")["draft"]
    result = REGISTRY["publishActivity"].run(user, {"activityId": mine["id"]}, chat_id="chat_b")
    assert result["activity"]["status"] == "active"
    result = REGISTRY["publishActivity"].run(user, {"activityId": theirs["id"]}, chat_id="chat_b")
    assert result["error"]["code"] == "NOT_FOUND"
    assert Activity.objects.get(pk=theirs["id"]).status == "draft"


def test_publishing_twice_in_a_chat_is_a_conflict(user):
    REGISTRY["createDraft"].run(user, {"title": "桌游局"}, chat_id="chat_a")
    assert "activity" in REGISTRY["publishActivity"].run(user, {}, chat_id="chat_a")
    again = REGISTRY["publishActivity"].run(user, {}, chat_id="chat_a")
    assert again["error"]["code"] == "CONFLICT"


def test_the_chat_id_cannot_come_from_the_model(user):
    from agent.models import AgentSession

    REGISTRY["createDraft"].run(user, {"title": "桌游局", "chat_id": "chat_x"}, chat_id="chat_a")
    assert list(AgentSession.objects.values_list("chat_id", flat=True)) == ["chat_a"]


@pytest.mark.parametrize(
    "arguments",
    [
        {"title": "桌游局", "startAt": "9999-12-31T23:59:59-14:00"},
        {"title": "桌游局", "startAt": "0149-03-30T10:00:00+08:00"},
        {"title": "桌游局", "maxParticipants": 10**12},
    ],
    ids=["year-10000-utc", "year-0149", "huge-integer"],
)
def test_a_draft_from_model_arguments_out_of_range_is_refused_and_not_saved(user, arguments):
    from activities.models import Activity

    result = REGISTRY["createDraft"].run(user, arguments, chat_id="chat_a")
    assert result["error"]["code"] == "INVALID_ARGUMENT"
    assert not Activity.objects.filter(creator=user).exists()


def _write_at(owner, message_id, when, content, capture):
    from memory.services import messages_write

    item = {"message_id": message_id, "ts": when.isoformat(), "role": "user", "content": content}
    with capture(execute=True):  # embedded, as in production
        messages_write(user=owner, items=[{**item, "chat_id": "c1"}])


def test_recall_memory_reads_a_past_time_phrase(user, django_capture_on_commit_callbacks):
    from datetime import timedelta

    from django.utils import timezone

    today = timezone.localtime().replace(hour=12, minute=0, second=0, microsecond=0)
    last_week = today - timedelta(days=today.weekday() + 5)  # Wednesday of last week
    capture = django_capture_on_commit_callbacks
    _write_at(user, "old", today - timedelta(days=60), "那家火锅店叫小龙坎", capture)
    _write_at(user, "recent", last_week, "那家火锅店叫海底捞", capture)
    result = REGISTRY["recallMemory"].run(user, {"query": "上周说的火锅店"})
    assert [m["content"] for m in result["messages"]] == ["那家火锅店叫海底捞"]
    assert result["understood"]["phrase"] == "上周"
    assert result["understood"]["applied"] == "filter"


def test_recall_memory_reads_a_question_about_a_day_as_that_days_messages(
    user, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from django.utils import timezone

    day = timezone.localtime().replace(hour=9, minute=0, second=0, microsecond=0)
    day -= timedelta(days=3)
    capture = django_capture_on_commit_callbacks
    _write_at(user, "before", day - timedelta(days=1), "我们聊了去成都的计划", capture)
    _write_at(user, "late", day + timedelta(hours=5), "晚上想吃火锅", capture)
    _write_at(user, "early", day, "早上去跑步了", capture)
    result = REGISTRY["recallMemory"].run(user, {"query": f"{day.month}月{day.day}日我们聊了什么"})
    assert [m["content"] for m in result["messages"]] == ["早上去跑步了", "晚上想吃火锅"]
    assert result["understood"]["applied"] == "range"


def test_update_context_without_an_id_appends_to_the_active_context(user):
    from memory.selectors import fetch_context
    from memory.services import context_create

    context = context_create(owner=user, title="旅行", entry="去成都", agent_name="planner")
    result = REGISTRY["updateContext"].run(user, {"content": "用户想住春熙路"})
    assert result == {
        "contextId": context.pk,
        "entryId": result["entryId"],
        "title": "旅行",
        "created": False,
    }
    entries = fetch_context(user=user, context_id=context.pk)["entries"]
    assert [(e["agent_name"], e["content"]) for e in entries][-1] == ("agent", "用户想住春熙路")


def test_get_activity_shows_a_visible_activity_with_its_description(
    user, other_user, make_activity_for
):
    theirs = make_activity_for(other_user, title="周六桌游", description="玩卡坦岛，新手友好。")
    result = REGISTRY["getActivity"].run(user, {"activityId": theirs.pk})
    assert result["activity"]["title"] == "周六桌游"
    assert result["activity"]["description"] == "玩卡坦岛，新手友好。"


def test_get_activity_of_another_users_draft_is_not_found(user, other_user, make_activity_for):
    from activities.models import Activity

    draft = make_activity_for(other_user, title="秘密草稿")
    Activity.objects.filter(pk=draft.pk).update(status="draft")
    result = REGISTRY["getActivity"].run(user, {"activityId": draft.pk})
    assert result["error"]["code"] == "NOT_FOUND"
    assert "秘密草稿" not in json.dumps(result, ensure_ascii=False)


def test_get_partner_intents_lists_the_users_open_searches_with_others_looking(user, other_user):
    create = REGISTRY["createPartnerIntent"].func
    create(other_user, activityType="户外", description="周六爬山")
    create(user, activityType="户外", description="找个周六一起去爬山的搭子")
    create(user, activityType="桌游", description="找桌游搭子")

    found = REGISTRY["getPartnerIntents"].func(user)["partnerIntents"]

    assert [(i["activityType"], i["openMatches"]) for i in found] == [("桌游", 0), ("户外", 1)]


def test_get_activity_carries_its_end(user, other_user, make_activity_for):
    from datetime import timedelta

    theirs = make_activity_for(other_user, title="周六桌游")
    theirs.end_at = theirs.start_at + timedelta(hours=2)
    theirs.save(update_fields=["end_at"])

    result = REGISTRY["getActivity"].run(user, {"activityId": theirs.pk})

    assert result["activity"]["endAt"].startswith(theirs.end_at.date().isoformat())
