"""Each mode end to end through ``POST /api/agent/chat`` with no LLM configured."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.agent.conftest import SHANGHAI

pytestmark = pytest.mark.django_db


def test_chat_mode_small_talk_saves_both_turns(api_client, user, say):
    from memory.models import ChatMessage

    body = say(api_client, "你好呀，今天心情不错")
    assert body["intent"] == "CHAT" and body["mode"] == "CHAT"
    assert body["tool_calls"] == []
    assert body["reply"]
    assert body["chat_id"].startswith("chat_")
    rows = ChatMessage.objects.filter(user=user, chat_id=body["chat_id"]).order_by("ts")
    assert [r.role for r in rows] == ["user", "assistant"]
    assert rows[0].content == "你好呀，今天心情不错"
    assert rows[1].content == body["reply"]


def test_explore_calls_the_activities_search(
    api_client, activities_loaded, say, make_activity_for, django_capture_on_commit_callbacks
):
    from agent.extract import extract_time_range

    friday = extract_time_range("周五晚上")
    with django_capture_on_commit_callbacks(execute=True):  # index it like production
        party = make_activity_for(
            activities_loaded["四人小局·卡坦岛策略桌游"].creator,
            title="周五夜场热闹派对｜音乐和桌游",
            description="人多热闹，音乐、桌游和小吃，认识新朋友。",
            type="社交",
            start_at=friday.start.replace(hour=20),
        )
    body = say(api_client, "周五晚上附近热闹的地方", location=SHANGHAI)
    assert body["intent"] == "EXPLORE"
    call = body["tool_calls"][0]
    assert call["name"] == "exploreNearby"
    # The time goes to the search as said (its window, rank and marks), not as a hard filter.
    assert call["arguments"]["query"] == "周五晚上 热闹"
    assert call["arguments"]["nearby"] is True
    assert "timeRange" not in call["arguments"]
    assert "user_id" not in call["arguments"]
    results = call["result"]["results"]
    assert party.pk in [r["id"] for r in results]
    assert results[0]["title"] in body["reply"]


def test_explore_widens_when_nothing_matches(api_client, say):
    body = say(api_client, "周五晚上附近热闹的地方", location=SHANGHAI)
    assert [c["name"] for c in body["tool_calls"]] == ["exploreNearby"] * 2
    assert "nearby" not in body["tool_calls"][1]["arguments"]
    assert "没有找到" in body["reply"]


def test_create_draft_refine_and_publish(api_client, user, say):
    from activities.models import Activity

    first = say(api_client, "帮我发起一个周六下午三点的桌游局")
    assert first["intent"] == "CREATE"
    draft = first["tool_calls"][0]["result"]["draft"]
    assert draft["status"] == "draft" and draft["type"] == "桌游"
    assert "15:00" in draft["startAt"]
    chat_id = first["chat_id"]
    second = say(api_client, "人数改成八个", chat_id=chat_id)
    assert second["intent"] == "CREATE"
    assert second["tool_calls"][0]["name"] == "refineDraft"
    assert Activity.objects.get(pk=draft["id"]).max_participants == 8
    third = say(api_client, "确认，发布吧", chat_id=chat_id)
    assert third["tool_calls"][0]["name"] == "publishActivity"
    activity = Activity.objects.get(pk=draft["id"])
    assert activity.status == "active" and activity.creator == user


def test_a_draft_is_published_after_a_turn_about_something_else(api_client, user, say):
    from activities.models import Activity

    made = say(api_client, "周六下午想组织个羽毛球，8个人，在徐汇")
    draft = made["tool_calls"][0]["result"]["draft"]
    assert draft["locationName"] == "徐汇"
    chat = made["chat_id"]
    say(api_client, "我的活动有哪些", chat_id=chat)
    published = say(api_client, "发布吧", chat_id=chat)
    assert [c["name"] for c in published["tool_calls"]] == ["publishActivity"]
    assert Activity.objects.get(pk=draft["id"]).status == "active"
    assert Activity.objects.filter(creator=user).count() == 1  # no second draft


def test_cancelling_this_one_right_after_publishing_cancels_the_one_published(
    api_client, user, say, make_activity_for
):
    from activities.models import Activity

    make_activity_for(user, title="另一个读书会")  # another activity of the user's own
    made = say(api_client, "周六下午想组织个羽毛球，8个人，在徐汇")
    chat = made["chat_id"]
    draft = made["tool_calls"][0]["result"]["draft"]
    say(api_client, "发布吧", chat_id=chat)
    cancelled = say(api_client, "取消这个活动", chat_id=chat)
    assert [c["name"] for c in cancelled["tool_calls"]][-1] == "cancelActivity"
    assert Activity.objects.get(pk=draft["id"]).status == "cancelled"
    assert Activity.objects.get(title="另一个读书会").status == "active"


def test_organising_another_activity_in_a_chat_with_a_draft_starts_a_new_one(api_client, user, say):
    from activities.models import Activity

    made = say(api_client, "帮我组织一个周六下午的飞盘局")
    chat = made["chat_id"]
    say(api_client, "我的活动有哪些", chat_id=chat)
    again = say(api_client, "再组织一个周日上午的徒步", chat_id=chat)
    assert [c["name"] for c in again["tool_calls"]] == ["createDraft"]
    assert Activity.objects.filter(creator=user, status="draft").count() == 2


def test_each_chat_refines_and_publishes_its_own_draft(api_client, user, say):
    from activities.models import Activity
    from agent.models import AgentSession

    board = say(api_client, "帮我发起一个周六下午三点的桌游局")
    hotpot = say(api_client, "帮我发起一个周日晚上的火锅局")  # the user's newest draft
    board_id = board["tool_calls"][0]["result"]["draft"]["id"]
    hotpot_id = hotpot["tool_calls"][0]["result"]["draft"]["id"]
    assert board["chat_id"] != hotpot["chat_id"]
    sessions = AgentSession.objects.filter(user=user)
    assert dict(sessions.values_list("chat_id", "draft_activity_id")) == {
        board["chat_id"]: board_id,
        hotpot["chat_id"]: hotpot_id,
    }
    refined = say(api_client, "人数改成八个", chat_id=board["chat_id"])
    assert refined["tool_calls"][0]["result"]["draft"]["id"] == board_id
    published = say(api_client, "确认，发布吧", chat_id=board["chat_id"])
    assert published["tool_calls"][0]["result"]["activity"]["id"] == board_id
    assert Activity.objects.get(pk=board_id).status == "active"
    assert Activity.objects.get(pk=board_id).max_participants == 8
    assert Activity.objects.get(pk=hotpot_id).status == "draft"
    say(api_client, "发布", chat_id=hotpot["chat_id"])
    assert Activity.objects.get(pk=hotpot_id).status == "active"
    assert Activity.objects.get(pk=hotpot_id).max_participants == 6


def test_saying_not_to_cancel_keeps_the_users_only_activity(
    api_client, user, say, make_activity_for
):
    mine = make_activity_for(user, title="飞盘局", type="运动")

    body = say(api_client, "别取消了")

    mine.refresh_from_db()
    assert mine.status != "cancelled"
    assert body["reply"] == "好的，不取消，你的活动都还在。"


def test_a_request_matching_two_activities_asks_which_without_saying_none_matches(
    api_client, user, say, make_activity_for
):
    make_activity_for(user, title="周六飞盘局", type="运动")
    make_activity_for(user, title="周日飞盘局", type="运动")

    body = say(api_client, "取消飞盘")

    assert body["reply"].startswith("有几个活动都对得上「飞盘」，你想取消哪一个？")


def test_an_english_draft_is_not_published_on_dont_publish_yet(api_client, user, say):
    made = say(api_client, "I want to set up a frisbee game on saturday afternoon")
    held = say(api_client, "don't publish yet", chat_id=made["chat_id"])
    assert "publishActivity" not in [c["name"] for c in held["tool_calls"]]


def test_a_draft_moved_to_another_day_keeps_its_hour_and_its_title(api_client, user, say):
    from django.utils import timezone

    from activities.models import Activity

    made = say(api_client, "我想组织一个周六下午的飞盘局，10个人")
    draft = Activity.objects.get(pk=made["tool_calls"][0]["result"]["draft"]["id"])
    before = timezone.localtime(draft.start_at)

    say(api_client, "改成周日吧", chat_id=made["chat_id"])

    draft.refresh_from_db()
    after = timezone.localtime(draft.start_at)
    assert draft.title == "飞盘局"
    assert after.isoweekday() == 7 and (after.hour, after.minute) == (before.hour, before.minute)


def test_a_draft_next_week_moved_to_a_weekday_stays_in_its_week(api_client, user, say):
    from django.utils import timezone

    from activities.models import Activity

    made = say(api_client, "I want to organise a board games night next friday for 6 people")
    draft = Activity.objects.get(pk=made["tool_calls"][0]["result"]["draft"]["id"])
    friday = timezone.localtime(draft.start_at)

    say(api_client, "move it to saturday", chat_id=made["chat_id"])

    draft.refresh_from_db()
    assert timezone.localtime(draft.start_at).date() == friday.date() + timedelta(days=1)


def test_an_english_draft_is_titled_in_english(api_client, user, say):
    made = say(api_client, "I want to set up a frisbee game on saturday afternoon")
    assert made["tool_calls"][0]["result"]["draft"]["title"] == "Frisbee game"


def test_an_english_user_organises_publishes_lists_and_cancels_in_english(api_client, user, say):
    import re

    made = say(api_client, "I want to set up a frisbee game on saturday afternoon")
    chat = made["chat_id"]
    turns = [made] + [
        say(api_client, message, chat_id=chat)
        for message in ("make it sunday", "publish", "my activities", "cancel the frisbee game")
    ]

    assert [t["tool_calls"][-1]["name"] for t in turns] == [
        "createDraft",
        "refineDraft",
        "publishActivity",
        "getMyActivities",
        "cancelActivity",
    ]
    assert not [t["reply"] for t in turns if re.search(r"[\u4e00-\u9fff]", t["reply"])]
    assert turns[2]["reply"] == 'Published! Everyone can see "Frisbee game" and join it now.'
    assert turns[4]["reply"] == 'Cancelled "Frisbee game".'


def test_a_place_said_while_a_draft_is_edited_sets_it_rather_than_searching(api_client, say):
    from activities.models import Activity

    made = say(api_client, "我想下周四晚上7点组织一个陶艺局，8个人")
    draft = made["tool_calls"][0]["result"]["draft"]
    placed = say(api_client, "地点在武定路的陶艺工作室", chat_id=made["chat_id"])
    assert [c["name"] for c in placed["tool_calls"]] == ["refineDraft"]
    assert Activity.objects.get(pk=draft["id"]).location_name == "武定路的陶艺工作室"


def test_an_english_draft_takes_its_head_count_and_place_as_said(api_client, say):
    from activities.models import Activity

    made = say(api_client, "I want to host a pottery evening next Thursday at 7pm for 8 people")
    draft = made["tool_calls"][0]["result"]["draft"]
    assert draft["maxParticipants"] == 8
    chat = made["chat_id"]
    assert say(api_client, "make it 10 people", chat_id=chat)["tool_calls"][0]["name"] == (
        "refineDraft"
    )
    placed = say(api_client, "at the Clay Studio on Wuding Road", chat_id=chat)
    assert [c["name"] for c in placed["tool_calls"]] == ["refineDraft"]
    named = say(api_client, "call it Clay and wine night", chat_id=chat)
    assert [c["name"] for c in named["tool_calls"]] == ["refineDraft"]
    activity = Activity.objects.get(pk=draft["id"])
    assert (activity.max_participants, activity.location_name, activity.title) == (
        10,
        "the Clay Studio on Wuding Road",
        "Clay and wine night",
    )


def test_a_chinese_list_of_activities_names_their_status_in_chinese(
    api_client, user, say, make_activity_for
):
    make_activity_for(user, title="周日读书会")
    assert "（发起，进行中）" in say(api_client, "我的活动有哪些")["reply"]


def test_an_organiser_asking_who_signed_up_sees_how_many_have(
    api_client, user, other_user, say, make_activity_for
):
    from activities.services import activity_join

    pottery = make_activity_for(user, title="Pottery", max_participants=8)
    activity_join(activity_id=pottery.pk, user=other_user)
    pottery.refresh_from_db()
    reply = say(api_client, "who has signed up?")["reply"]
    assert f"{pottery.current_participants}/8 signed up" in reply, reply


def test_an_english_partner_request_names_the_kind_as_the_user_did(api_client, user, say):
    from agent.models import PartnerIntent

    body = say(api_client, "looking for someone to play badminton with this weekend")

    assert body["reply"].startswith("Noted: you're looking for company for badminton")
    assert PartnerIntent.objects.get(user=user).activity_type == "运动"


def test_partner_creates_an_intent(api_client, user, say):
    from agent.models import PartnerIntent

    body = say(api_client, "想找个搭子周末一起去爬山")
    assert body["intent"] == "PARTNER"
    names = [c["name"] for c in body["tool_calls"]]
    assert names[0] == "createPartnerIntent"
    intent = PartnerIntent.objects.get(user=user)
    assert intent.activity_type == "户外"
    assert intent.time_range is not None


def test_manage_lists_and_cancels_own_activity(api_client, user, say, make_activity_for):
    mine = make_activity_for(user, title="周日读书会")
    listing = say(api_client, "我的活动有哪些")
    assert listing["intent"] == "MANAGE"
    titles = [a["title"] for a in listing["tool_calls"][0]["result"]["activities"]]
    assert "周日读书会" in titles
    cancel = say(api_client, "把我发起的读书会取消掉")
    assert cancel["intent"] == "MANAGE"
    assert [c["name"] for c in cancel["tool_calls"]] == ["getMyActivities", "cancelActivity"]
    mine.refresh_from_db()
    assert mine.status == "cancelled"


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        ("我的飞盘局怎么样了", "你的活动：\n1. 周日飞盘局（发起，进行中）："),
        ("when is my frisbee game?", "Your activities:\n1. Sunday frisbee game (organising, "),
    ],
)
def test_a_question_about_ones_own_activity_lists_that_one(
    api_client, user, say, make_activity_for, message, reply
):
    for title, kind in (
        ("周日读书会", "读书"),
        ("周日飞盘局", "运动"),
        ("Sunday frisbee game", "运动"),
    ):
        make_activity_for(user, title=title, type=kind)
    body = say(api_client, message)
    assert body["intent"] == "MANAGE"
    assert body["reply"].startswith(reply), body["reply"]
    assert "读书会" not in body["reply"]


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        ("我都报名了什么", "你还没有报名别人的活动。你发起的活动：\n1. 周六羽毛球局（发起"),
        ("what have I signed up for?", "You haven't joined any yet. The ones you organise:\n1. "),
    ],
)
def test_an_organiser_who_joined_nothing_is_shown_what_they_organise(
    api_client, user, say, make_activity_for, message, reply
):
    make_activity_for(user, title="周六羽毛球局", type="运动")

    body = say(api_client, message)

    assert body["reply"].startswith(reply), body["reply"]


def test_a_question_about_an_activity_the_user_does_not_have_says_so(
    api_client, user, say, make_activity_for
):
    make_activity_for(user, title="周日飞盘局", type="运动")
    body = say(api_client, "我报的那个读书会在哪")
    assert body["reply"].startswith("你的活动里没有「读书会」。你的活动：\n1. 周日飞盘局"), body


def test_a_request_to_leave_another_activity_cancels_none_of_the_users_own(
    api_client, user, say, make_activity_for
):
    mine = make_activity_for(user, title="周六下午运动局", type="运动")

    body = say(api_client, "我不想参加周六那个徒步了")

    assert [c["name"] for c in body["tool_calls"]] == ["getMyActivities"]
    mine.refresh_from_db()
    assert mine.status != "cancelled"
    assert body["reply"].startswith("你的活动里没有「徒步」。你想取消哪一个？「周六下午运动局」")


def test_preferences_are_learned(api_client, user, say):
    from memory.models import Preference

    say(api_client, "我不吃辣，而且喜欢热闹")
    prefs = set(Preference.objects.filter(user=user).values_list("category", "value"))
    assert ("food", "不吃辣") in prefs and ("vibe", "热闹") in prefs


# A preference stated in chat, as REST lists it to a reader of each language: the value stays in
# the language the user stated it in, the category's name follows the request's language.
STATED = {
    "zh": ("我不吃辣", "不吃辣"),
    "en": ("I don't eat spicy food", "no spicy food"),
}
FOOD_LABEL = {"en": "food", "zh-hans": "饮食"}


@pytest.mark.parametrize("said_in", list(STATED))
@pytest.mark.parametrize("read_in", list(FOOD_LABEL))
def test_a_preference_keeps_the_users_language_and_its_category_is_named_in_the_readers(
    api_client, user, say, said_in, read_in
):
    message, value = STATED[said_in]
    say(api_client, message)

    response = api_client.get(
        f"/v1/users/{user.username}/preferences", HTTP_ACCEPT_LANGUAGE=read_in
    )

    [item] = response.json()["items"]
    assert (item["category"], item["value"]) == ("food", value)
    assert item["category_label"] == FOOD_LABEL[read_in]


def test_invalid_body_is_invalid_argument(api_client):
    response = api_client.post("/api/agent/chat", {"message": ""}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_ARGUMENT"


def test_anonymous_is_unauthenticated(anon_client):
    response = anon_client.post("/api/agent/chat", {"message": "你好"}, format="json")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "UNAUTHENTICATED"


def test_nearby_without_a_known_location_searches_everywhere_and_says_so(
    api_client, activities_loaded, say
):
    body = say(api_client, "附近有什么好玩的")  # no location was ever sent
    [call] = body["tool_calls"]
    assert call["arguments"]["nearby"] is True
    assert call["result"]["meta"]["nearbyUnknown"] is True
    assert call["result"]["meta"]["nearby"] is False  # no location filter
    assert call["result"]["results"]
    assert "没有你附近的位置信息，先按全城推荐" in body["reply"]


def test_nearby_without_a_known_location_and_no_match_says_so(api_client, say):
    body = say(api_client, "附近有什么好玩的")
    assert len(body["tool_calls"]) == 1  # dropping a filter that filtered nothing is no retry
    assert "还不知道你的位置" in body["reply"]


def test_leaving_a_joined_activity_frees_the_place(
    api_client, user, other_user, say, make_activity_for
):
    from activities.services import activity_join

    theirs = make_activity_for(other_user, title="周六羽毛球约练", type="运动")
    activity_join(activity_id=theirs.pk, user=user)
    body = say(api_client, "我不去羽毛球约练了，帮我取消报名")
    assert body["intent"] == "MANAGE"
    names = [c["name"] for c in body["tool_calls"]]
    assert names == ["getMyActivities", "leaveActivity"]
    result = body["tool_calls"][1]["result"]
    assert result["action"] == "left"
    theirs.refresh_from_db()
    assert theirs.current_participants == 0
    assert not theirs.participations.filter(user=user).exists()
    assert body["reply"]


def test_a_request_to_remember_a_preference_is_remembered_not_searched(
    api_client, user, activities_loaded, say
):
    from memory.models import Preference

    body = say(api_client, "帮我记住我喜欢安静的活动")

    assert body["intent"] == "CHAT"
    assert body["tool_calls"] == []
    assert list(Preference.objects.filter(user=user).values_list("category", "value")) == [
        ("vibe", "安静")
    ]
    assert "安静" in body["reply"]


# A question the agent cannot answer (live market data): said honestly, in the user's language,
# with nothing recommended and no search limit blamed.
OFF_TOPIC = {
    "zh": ("今天股票怎么样", "查不到股票", ["放宽", "限制", "活动：", "按你的偏好"]),
    "en": ("is the stock market up today", "no live information", ["limit", "widen", "km away"]),
}


# The router reads an off-topic question as CHAT by its similarity to the examples: the real model.
@pytest.mark.real_model
@pytest.mark.parametrize("lang", list(OFF_TOPIC))
def test_an_off_topic_question_is_answered_honestly(api_client, activities_loaded, say, lang):
    message, honest, never = OFF_TOPIC[lang]

    body = say(api_client, message, location=SHANGHAI)

    assert honest in body["reply"], body["reply"]
    assert not [w for w in never if w in body["reply"]], body["reply"]
    assert "我都记着呢" not in body["reply"] and "I'm listening" not in body["reply"]
    assert body["tool_calls"] == []
    assert [i for i in body["items"] if i["type"] == "activity"] == []


# Writing into a shared context from a chat turn: the note is appended to the turn's context.
NOTES = {
    "zh": ("帮我在共享笔记里记一下：周六要带伞", "周六要带伞", "记下了"),
    "en": ("add to our notes: bring umbrellas on Saturday", "bring umbrellas on Saturday", "Noted"),
}


@pytest.mark.parametrize("lang", list(NOTES))
def test_a_chat_turn_appends_a_note_to_the_shared_context(api_client, say, lang):
    message, note, done = NOTES[lang]
    created = api_client.post(
        "/v1/contexts",
        {"title": "周末出游", "entry": "周六去崇明", "agent_name": "planner"},
        format="json",
    ).json()
    api_client.post(  # a context updated later: the note still goes to the one the chat names
        "/v1/contexts",
        {"title": "别的事", "entry": "无关", "agent_name": "planner"},
        format="json",
    )

    body = say(api_client, message, context_id=created["id"])

    entries = api_client.get(f"/v1/contexts/{created['id']}").json()["entries"]
    assert body["intent"] == "MANAGE", body
    assert [c["name"] for c in body["tool_calls"]] == ["updateContext"]
    assert [(e["agent_name"], e["content"]) for e in entries][-1] == ("agent", note)
    assert body["reply"].startswith(done) and note in body["reply"]


def test_an_english_organiser_moves_the_place_asks_and_publishes_one_draft(api_client, user, say):
    from activities.models import Activity

    made = say(api_client, "I'd like to host a board game night next friday at 7pm for 6 people")
    assert made["tool_calls"][0]["result"]["draft"]["title"] == "Board game night"
    chat = made["chat_id"]
    moved = say(api_client, "change the place to The Board Room cafe", chat_id=chat)
    assert moved["tool_calls"][0]["result"]["draft"]["locationName"] == "The Board Room cafe"
    asked = say(api_client, "what time does it start?", chat_id=chat)
    assert [c["name"] for c in asked["tool_calls"]] == ["getActivity"]
    reply = asked["reply"]
    assert reply.startswith('Your draft: "Board game night", Fri 04 Dec 19:00'), reply
    published = say(api_client, "looks good, publish it", chat_id=chat)
    assert published["reply"] == 'Published! Everyone can see "Board game night" and join it now.'
    assert Activity.objects.filter(creator=user).count() == 1


def test_answering_which_to_cancel_with_a_place_cancels_that_one(
    api_client, user, say, make_activity_for
):
    saturday = make_activity_for(user, title="周六飞盘局", type="运动")
    sunday = make_activity_for(user, title="周日飞盘局", type="运动")
    asked = say(api_client, "取消飞盘", chat_id="which")
    assert asked["reply"].startswith("有几个活动都对得上「飞盘」，你想取消哪一个？「周六飞盘局」")
    done = say(api_client, "第一个", chat_id="which")
    assert [c["name"] for c in done["tool_calls"]] == ["getActivity", "cancelActivity"]
    saturday.refresh_from_db()
    sunday.refresh_from_db()
    assert (saturday.status, sunday.status) == ("cancelled", "active")


def test_a_new_request_naming_a_kind_does_not_publish_the_chats_old_draft(api_client, user, say):
    from activities.models import Activity

    made = say(api_client, "帮我组织一个周六下午的飞盘局")
    chat = made["chat_id"]
    say(api_client, "我的活动有哪些", chat_id=chat)
    say(api_client, "帮我发布一个读书会", chat_id=chat)
    old = Activity.objects.get(pk=made["tool_calls"][0]["result"]["draft"]["id"])
    assert old.status == "draft"


def test_a_question_after_publishing_drafts_nothing(api_client, user, say):
    from activities.models import Activity

    made = say(api_client, "帮我组织一个周六下午的飞盘局")
    say(api_client, "发布", chat_id=made["chat_id"])
    say(api_client, "几点开始？", chat_id=made["chat_id"])
    assert Activity.objects.filter(creator=user).count() == 1


def test_listing_ones_events_in_english_names_no_missing_activity(
    api_client, user, say, make_activity_for
):
    make_activity_for(user, title="Sunday frisbee game", type="运动")
    body = say(api_client, "show my events")
    assert body["reply"].startswith("Your activities:\n1. Sunday frisbee game"), body["reply"]


def test_a_message_read_as_create_that_names_nothing_to_organise_drafts_nothing(user):
    from agent.context import RuntimeContext
    from agent.modes import MODES
    from agent.offline import compose
    from agent.offline_plans import plan_create

    ctx = RuntimeContext(user=user, chat_id="far", message="第二个太远了", last_intent="EXPLORE")
    assert plan_create(ctx, []) == []
    assert compose(MODES["CREATE"], ctx, [], []).startswith("想组织活动吗？")


def test_an_approval_after_a_search_never_publishes_the_chats_old_draft(api_client, user, say):
    from activities.models import Activity

    made = say(api_client, "帮我组织一个周六下午的飞盘局")
    chat = made["chat_id"]
    say(api_client, "周末有什么户外活动推荐", chat_id=chat)
    say(api_client, "确认", chat_id=chat)
    say(api_client, "looks good", chat_id=chat)
    old = Activity.objects.get(pk=made["tool_calls"][0]["result"]["draft"]["id"])
    assert old.status == "draft"


def test_the_answer_to_the_lively_or_quiet_question_is_kept_as_a_preference(api_client, user, say):
    from memory.models import Preference

    asked = say(api_client, "找个周六一起去爬山的搭子")
    kept = say(api_client, "安静点的吧", chat_id=asked["chat_id"])

    assert kept["intent"] == "CHAT" and kept["tool_calls"] == []
    assert Preference.objects.filter(user=user, category="vibe", value="安静").exists()


def test_a_search_for_company_named_is_stopped_and_the_other_kept(api_client, user, say):
    from agent.models import PartnerIntent

    say(api_client, "想找个羽毛球搭子")
    say(api_client, "找个周末一起爬山的搭子")

    body = say(api_client, "羽毛球搭子不找了")

    assert [c["name"] for c in body["tool_calls"]] == ["getPartnerIntents", "closePartnerIntent"]
    assert body["reply"] == "好的，不再帮你找羽毛球搭子了。"
    open_ = PartnerIntent.objects.filter(user=user, status="open")
    assert [i.activity_type for i in open_] == ["户外"]


def test_stopping_with_nothing_open_says_so_in_english(api_client, user, say):
    body = say(api_client, "stop looking for a tennis partner")

    assert body["intent"] == "PARTNER"
    assert body["reply"].startswith("You're not looking for company right now")


@pytest.mark.real_model
def test_a_time_holding_none_of_the_kind_asked_says_so_and_lists_it_at_other_times(
    api_client, user, other_user, say, make_activity_for, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from agent.extract import extract_time_range

    tomorrow = extract_time_range("明天").start
    with django_capture_on_commit_callbacks(execute=True):  # index them like production
        make_activity_for(
            other_user, title="滨江飞盘局", type="运动", start_at=tomorrow.replace(hour=15)
        )
        dinner = make_activity_for(
            other_user,
            title="川菜馆聚餐",
            description="一起吃川菜，水煮鱼和回锅肉。",
            type="美食",
            start_at=tomorrow.replace(hour=19) + timedelta(days=4),
        )
    body = say(api_client, "明天有什么吃饭的活动吗")
    calls = body["tool_calls"]
    assert [c["name"] for c in calls] == ["exploreNearby", "exploreNearby"]
    assert calls[1]["arguments"]["query"] == "吃饭"
    assert body["reply"].startswith(
        "明天没有和「吃饭」有关的活动（只有「滨江飞盘局」）。其他时间的有："
    )
    assert dinner.title in body["reply"]


def test_a_bare_stop_right_after_a_search_for_company_stops_that_search(api_client, user, say):
    from agent.models import PartnerIntent

    asked = say(api_client, "想找个周末一起爬山的搭子")
    body = say(api_client, "不找了，帮我停掉", chat_id=asked["chat_id"])

    assert [c["name"] for c in body["tool_calls"]] == ["getPartnerIntents", "closePartnerIntent"]
    assert body["reply"] == "好的，不再帮你找爬山搭子了。"
    assert not PartnerIntent.objects.filter(user=user, status="open").exists()


def test_a_bare_stop_in_a_chat_not_about_company_keeps_the_search(api_client, user, say):
    from agent.models import PartnerIntent

    say(api_client, "想找个周末一起爬山的搭子")
    body = say(api_client, "不找了，帮我停掉")  # a new chat

    assert "closePartnerIntent" not in [c["name"] for c in body["tool_calls"]]
    assert PartnerIntent.objects.filter(user=user, status="open").exists()


def test_a_draft_moved_to_an_hour_alone_keeps_its_day(api_client, say):
    made = say(api_client, "我想组织一个周六下午的飞盘局，10个人")
    moved = say(api_client, "改到晚上7点", chat_id=made["chat_id"])

    assert [c["name"] for c in moved["tool_calls"]] == ["refineDraft"]
    start = moved["tool_calls"][0]["result"]["draft"]["startAt"]
    assert start.startswith("2026-11-28T19:00"), start  # the Saturday, at 19:00


def test_an_own_published_activity_named_is_changed_not_drafted_again(
    api_client, user, say, make_activity_for
):
    from datetime import datetime

    from django.utils import timezone

    saturday = datetime(2026, 11, 28, 12, 0, tzinfo=timezone.get_current_timezone())
    potluck = make_activity_for(user, title="Vegetarian potluck", type="美食", start_at=saturday)
    body = say(api_client, "move my potluck to 7pm")

    assert [c["name"] for c in body["tool_calls"]] == ["refineDraft"]
    assert body["tool_calls"][0]["arguments"]["activityId"] == potluck.pk
    potluck.refresh_from_db()
    assert timezone.localtime(potluck.start_at).isoformat().startswith("2026-11-28T19:00")
    assert body["reply"].startswith('Updated: "Vegetarian potluck"'), body["reply"]


def test_a_change_pointing_at_the_activity_just_published_changes_it(api_client, user, say):
    made = say(api_client, "host a board games night on saturday at 7pm for 6 people")
    say(api_client, "publish it", chat_id=made["chat_id"])
    moved = say(api_client, "move it to 8pm", chat_id=made["chat_id"])

    assert [c["name"] for c in moved["tool_calls"]] == ["refineDraft"], moved["reply"]
    assert moved["reply"].startswith('Updated: "Board games night"'), moved["reply"]
    assert "T20:00" in moved["tool_calls"][0]["result"]["draft"]["startAt"]


def test_who_is_coming_right_after_publishing_is_about_that_one(
    api_client, user, say, make_activity_for
):
    make_activity_for(user, title="Vegetarian potluck", type="美食")
    made = say(api_client, "host a board games night on saturday at 7pm for 6 people")
    say(api_client, "publish it", chat_id=made["chat_id"])
    asked = say(api_client, "who's coming?", chat_id=made["chat_id"])

    assert "Board games night (organising" in asked["reply"], asked["reply"]
    assert "Vegetarian potluck" not in asked["reply"], asked["reply"]


@pytest.mark.parametrize(
    ("message", "reply"),
    [("确认", "好的。现在没有等你确认的事"), ("yes", "OK. Nothing is waiting for a yes")],
)
def test_a_bare_yes_with_nothing_proposed_says_so_and_drafts_nothing(
    api_client, user, say, message, reply
):
    body = say(api_client, message)

    assert body["intent"] == "CHAT" and body["tool_calls"] == []
    assert body["reply"].startswith(reply), body["reply"]


def test_who_will_come_in_chinese_right_after_publishing_records_no_search(api_client, user, say):
    made = say(api_client, "周六下午组个飞盘局，8个人")
    say(api_client, "发布", chat_id=made["chat_id"])
    asked = say(api_client, "谁会来？", chat_id=made["chat_id"])

    assert asked["intent"] == "MANAGE", asked["reply"]
    assert "createPartnerIntent" not in [c["name"] for c in asked["tool_calls"]]


def test_a_yes_to_the_assistants_own_question_is_not_told_nothing_waits(api_client, user, say):
    first = say(api_client, "我周六有什么活动")
    assert first["reply"].rstrip().endswith(("?", "？")), first["reply"]
    body = say(api_client, "好", chat_id=first["chat_id"])

    assert not body["reply"].startswith("好的。现在没有等你确认的事"), body["reply"]


def test_asking_when_an_activity_named_starts_drafts_nothing(
    api_client, user, say, make_activity_for
):
    make_activity_for(user, title="羽毛球局", type="运动")
    body = say(api_client, "羽毛球局几点开始")

    assert body["intent"] == "MANAGE"
    assert "createDraft" not in [c["name"] for c in body["tool_calls"]]
    assert "羽毛球局" in body["reply"]


def test_asking_who_comes_to_an_activity_named_lists_that_one(
    api_client, user, say, make_activity_for
):
    make_activity_for(user, title="Vegetarian potluck", type="美食")
    make_activity_for(user, title="Board game night", type="桌游")
    body = say(api_client, "is anyone coming to the potluck?")

    assert body["intent"] == "MANAGE"
    assert "Vegetarian potluck" in body["reply"] and "Board game" not in body["reply"]
    assert "0/6 signed up" in body["reply"]


def test_more_than_five_activities_say_how_many_more(api_client, user, say, make_activity_for):
    for n in range(7):
        make_activity_for(user, title=f"读书会第{n + 1}期", type="读书")
    body = say(api_client, "我的活动")

    assert body["reply"].endswith("……还有 2 个（可以说名字，或者只看草稿、只看报名的）。")


def test_a_change_naming_several_own_activities_asks_which_and_drafts_nothing(
    api_client, user, say, make_activity_for
):
    from activities.models import Activity

    for title in ("Vegetarian potluck", "Friday potluck"):
        make_activity_for(user, title=title, type="美食")
    body = say(api_client, "move my potluck to 7pm")

    assert body["tool_calls"] == []
    assert body["reply"].startswith("Several of your activities have that name.")
    assert Activity.objects.filter(creator=user).count() == 2


@pytest.mark.parametrize("message", ["不要停", "不用停", "stop?"])
def test_saying_not_to_stop_after_a_search_for_company_keeps_it(api_client, user, say, message):
    from agent.models import PartnerIntent

    asked = say(api_client, "想找个周末一起爬山的搭子")
    body = say(api_client, message, chat_id=asked["chat_id"])

    assert "closePartnerIntent" not in [c["name"] for c in body["tool_calls"]]
    assert PartnerIntent.objects.filter(user=user, status="open").exists()


def test_a_change_to_an_activity_someone_else_organises_drafts_nothing(
    api_client, user, other_user, say, make_activity_for
):
    from activities.models import Activity
    from activities.services import activity_join

    theirs = make_activity_for(other_user, title="羽毛球局", type="运动")
    activity_join(activity_id=theirs.pk, user=user)
    body = say(api_client, "把羽毛球局改到晚上7点")

    assert body["tool_calls"] == []
    assert body["reply"] == "「羽毛球局」是别人发起的活动，只有发起人能修改。"
    assert not Activity.objects.filter(creator=user).exists()


def test_can_we_move_the_potluck_changes_the_users_own_potluck(
    api_client, user, say, make_activity_for
):
    potluck = make_activity_for(user, title="Vegetarian potluck", type="美食")
    body = say(api_client, "can we move the potluck to 7pm?")

    assert [c["name"] for c in body["tool_calls"]] == ["refineDraft"]
    assert body["tool_calls"][0]["arguments"]["activityId"] == potluck.pk


@pytest.mark.parametrize(("said", "hour"), [("从下午3点改到5点", 17), ("改到7点半", 19)])
def test_an_hour_moved_to_is_the_last_said_and_the_afternoons_when_unsaid(
    api_client, say, said, hour
):
    made = say(api_client, "我想组织一个周六下午的飞盘局，10个人")
    moved = say(api_client, said, chat_id=made["chat_id"])

    start = moved["tool_calls"][0]["result"]["draft"]["startAt"]
    assert start.startswith(f"2026-11-28T{hour}:"), start  # the Saturday


def test_a_search_for_someones_visit_reads_the_time_told_earlier_in_the_chat(api_client, user, say):
    told = say(api_client, "my sister Lucy is visiting next Friday, she loves jazz")
    body = say(
        api_client, "find something we could do together when she's here", chat_id=told["chat_id"]
    )

    assert body["intent"] == "EXPLORE"
    assert body["tool_calls"][0]["arguments"]["query"].startswith("next Friday jazz")


@pytest.mark.parametrize(
    ("told", "asked", "query"),
    [
        ("我女儿6岁，喜欢画画", "这周末有适合她的活动吗", "这周末 6岁女儿 画画"),
        ("my son is 7 and loves trains", "anything for him next weekend?", "next weekend 7 year"),
    ],
)
def test_a_search_for_someone_told_of_by_a_pronoun_reads_who_they_are(
    api_client, user, say, told, asked, query
):
    first = say(api_client, told)
    body = say(api_client, asked, chat_id=first["chat_id"])

    assert body["intent"] == "EXPLORE"
    assert body["tool_calls"][0]["arguments"]["query"].startswith(query), body["tool_calls"]


def test_a_search_for_someone_told_of_after_another_search_is_for_them(api_client, user, say):
    first = say(api_client, "anything with board games?")
    say(api_client, "my daughter is 6 and loves drawing", chat_id=first["chat_id"])
    body = say(api_client, "anything she'd like on sat or sun?", chat_id=first["chat_id"])

    query = body["tool_calls"][0]["arguments"]["query"]
    assert query == "on sat or sun 6 year old daughter drawing", body["tool_calls"]


@pytest.mark.parametrize(
    ("message", "start"),
    [
        ("今天早上想发起一个读书会", "「今天早上」已经过了"),
        ("host a morning run on monday this week", '"on monday this week" has already passed'),
    ],
)
def test_a_draft_for_a_time_already_past_says_its_time_is_a_placeholder(
    api_client, user, say, message, start
):
    body = say(api_client, message)

    assert [c["name"] for c in body["tool_calls"]] == ["createDraft"]
    assert body["reply"].startswith(start), body["reply"]


@pytest.mark.parametrize(
    "message",
    [
        "我都找了哪些搭子",
        "what partner searches do I have?",
        "我的搭子请求怎么样了",
        "how is my partner search going?",
        "any luck finding me a running buddy?",
        "did anyone reply to my partner request?",
        "搭子有着落了吗",
        "找搭子的事怎么样了",
    ],
)
def test_asking_which_searches_for_company_are_open_records_none(api_client, user, say, message):
    from agent.models import PartnerIntent

    say(api_client, "帮我找个周日一起跑步的搭子")
    body = say(api_client, message)

    assert [c["name"] for c in body["tool_calls"]] == ["getPartnerIntents"]
    assert PartnerIntent.objects.filter(user=user).count() == 1


def test_asking_what_one_organised_after_a_draft_lists_them_and_drafts_nothing(
    api_client, user, say
):
    from activities.models import Activity

    first = say(api_client, "下周六下午想在静安组织个桌游局 6个人")
    say(api_client, "发布", chat_id=first["chat_id"])
    body = say(api_client, "我组织了哪些活动", chat_id=first["chat_id"])

    assert body["intent"] == "MANAGE", body["reply"]
    assert [c["name"] for c in body["tool_calls"]] == ["getMyActivities"], body["reply"]
    assert Activity.objects.filter(creator=user).count() == 1


def test_asking_what_one_organised_with_only_a_draft_shows_the_draft(api_client, user, say):
    first = say(api_client, "host a pottery evening next thursday at 7, max 8 people")
    body = say(api_client, "what have I organised?", chat_id=first["chat_id"])

    assert [c["arguments"]["scope"] for c in body["tool_calls"]] == ["created", "drafts"]
    assert "Pottery evening" in body["reply"], body["reply"]


def test_a_deadline_told_in_english_is_acknowledged_in_english(api_client, user, say):
    body = say(api_client, "the essay deadline is next Friday, remind me")

    assert body["intent"] == "MANAGE"
    assert body["reply"].startswith("Noted: I'll remind you the day before "), body["reply"]


def test_a_deadline_today_is_not_reminded_the_day_before(api_client, user, say):
    body = say(api_client, "the essay is due today, remind me")

    assert body["intent"] == "MANAGE"
    assert body["reply"].startswith("Noted: it's due "), body["reply"]
    assert "the day before" not in body["reply"]


@pytest.mark.parametrize(
    ("message", "note"),
    [
        ("今天早上有什么活动", "「今天早上」已经过了，先看接下来的"),
        ("any activities on monday this week?", '"on monday this week" has passed'),
    ],
)
def test_a_search_for_a_time_already_past_says_so_over_the_next_ones(
    api_client, say, activities_loaded, message, note
):
    body = say(api_client, message)

    assert body["tool_calls"][0]["name"] == "exploreNearby"
    assert note in body["reply"], body["reply"]


@pytest.mark.parametrize(
    ("message", "head"),
    [
        ("我周六还报了什么", "你「周六」没有活动。你其他时间的活动："),
        (
            "what have I joined on saturday?",
            'You have nothing on "on saturday". Your other activities:',
        ),
    ],
)
def test_ones_activities_at_a_time_holding_none_lists_the_others_as_such(
    api_client, user, other_user, make_activity_for, say, message, head
):
    from datetime import timedelta

    from django.utils import timezone

    from activities.services import activity_join

    later = make_activity_for(
        other_user, title="下下周六读书会", start_at=timezone.now() + timedelta(days=10)
    )
    activity_join(activity_id=later.pk, user=user)

    body = say(api_client, message)

    assert body["intent"] == "MANAGE"
    assert body["reply"].startswith(head), body["reply"]
    assert "下下周六读书会" in body["reply"]


def test_a_deadline_with_nothing_on_then_lists_no_activities_of_other_times(
    api_client, user, other_user, make_activity_for, say
):
    from datetime import timedelta

    from django.utils import timezone

    from activities.services import activity_join

    later = make_activity_for(
        other_user, title="下下周六读书会", start_at=timezone.now() + timedelta(days=10)
    )
    activity_join(activity_id=later.pk, user=user)

    body = say(api_client, "明天晚上要交报告，记得提醒我")

    assert body["reply"].startswith("记下了，我会在"), body["reply"]
    assert "下下周六读书会" not in body["reply"]


def test_another_time_after_ones_activities_lists_ones_activities_then(
    api_client, user, other_user, make_activity_for, say
):
    from datetime import timedelta

    from django.utils import timezone

    from activities.services import activity_join

    soon = make_activity_for(
        other_user, title="明天桌游", start_at=timezone.now() + timedelta(days=1)
    )
    activity_join(activity_id=soon.pk, user=user)
    say(api_client, "show me my activities", chat_id="mine-then")

    body = say(api_client, "what about tomorrow?", chat_id="mine-then")

    assert body["intent"] == "MANAGE"
    assert body["tool_calls"][0]["arguments"]["timeRange"], body["tool_calls"]
    assert "明天桌游" in body["reply"]


def test_asking_for_others_after_ones_own_list_shows_other_activities(
    api_client, user, say, activities_loaded
):
    from activities.services import activity_join

    activity_join(activity_id=next(iter(activities_loaded.values())).pk, user=user)
    say(api_client, "我的活动", chat_id="own-more")

    body = say(api_client, "还有别的吗", chat_id="own-more")

    assert body["tool_calls"][0]["name"] == "exploreNearby"
    assert not body["tool_calls"][0]["arguments"].get("query")  # not a search for "还有别"
    assert body["tool_calls"][0]["result"]["results"], body["reply"]


def test_ones_activities_at_a_time_holding_none_lists_what_one_organises_too(
    api_client, user, make_activity_for, say
):
    from datetime import timedelta

    from django.utils import timezone

    make_activity_for(user, title="下下周六读书会", start_at=timezone.now() + timedelta(days=10))

    body = say(api_client, "我周六报了什么")

    assert body["reply"].startswith("你「周六」没有活动。你其他时间的活动："), body["reply"]
    assert "下下周六读书会" in body["reply"]
