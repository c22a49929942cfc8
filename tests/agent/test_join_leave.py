"""The join and leave tools, and the offline turns that use them (EXPLORE joins, MANAGE leaves)."""

from __future__ import annotations

import pytest

from agent.tool_registry import REGISTRY

pytestmark = pytest.mark.django_db


def test_join_takes_a_place(user, other_user, make_activity_for):
    theirs = make_activity_for(other_user, max_participants=3)
    result = REGISTRY["joinActivity"].run(user, {"activityId": theirs.pk})
    assert result["action"] == "joined"
    assert result["activity"]["currentParticipants"] == 1
    assert theirs.participations.filter(user=user).exists()


def test_join_of_a_full_activity_is_refused_as_full(user, other_user, make_user, make_activity_for):
    from activities.services import activity_join

    theirs = make_activity_for(other_user, max_participants=1)
    activity_join(activity_id=theirs.pk, user=make_user("first"))
    result = REGISTRY["joinActivity"].run(user, {"activityId": theirs.pk})
    assert result["error"]["details"] == {"reason": "full"}
    theirs.refresh_from_db()
    assert theirs.current_participants == 1
    assert not theirs.participations.filter(user=user).exists()


def test_the_third_join_gives_interest_vectors(user, activities_loaded):
    from activities.models import WorkingMemory

    picked = list(activities_loaded.values())[:3]
    for activity in picked[:2]:
        REGISTRY["joinActivity"].run(user, {"activityId": activity.pk})
    memory = WorkingMemory.objects.get(user=user)
    assert memory.data["positives"] == 2 and memory.interest_vectors == []
    REGISTRY["joinActivity"].run(user, {"activityId": picked[2].pk})
    memory.refresh_from_db()
    assert {e["activityId"] for e in memory.interest_vectors} == {a.pk for a in picked}


def test_leave_frees_the_place(user, other_user, make_activity_for):
    theirs = make_activity_for(other_user)
    REGISTRY["joinActivity"].run(user, {"activityId": theirs.pk})
    result = REGISTRY["leaveActivity"].run(user, {"activityId": theirs.pk})
    assert result["action"] == "left" and result["activity"]["currentParticipants"] == 0
    assert not theirs.participations.filter(user=user).exists()


def test_leave_never_cancels_an_activity_the_user_organises(user, make_activity_for):
    mine = make_activity_for(user)
    result = REGISTRY["leaveActivity"].run(user, {"activityId": mine.pk})
    assert result["error"]["code"] == "NOT_FOUND"
    mine.refresh_from_db()
    assert mine.status == "active"


@pytest.mark.real_model  # a semantic search must find it by meaning
def test_explore_joins_the_activity_the_message_names(api_client, user, activities_loaded, say):
    wanted = activities_loaded["苏州河日落桨板巡游"]
    body = say(api_client, "我要报名苏州河日落桨板巡游")
    assert body["intent"] == "EXPLORE"
    # The message names the whole title: that listing is joined without a search first.
    assert [c["name"] for c in body["tool_calls"]] == ["joinActivity"]
    assert body["tool_calls"][0]["arguments"] == {"activityId": wanted.pk}
    assert wanted.participations.filter(user=user, feedback=1).exists()
    assert body["reply"].startswith("已帮你报名「苏州河日落桨板巡游」")


def test_manage_leaves_when_the_user_no_longer_wants_to_go(
    api_client, user, other_user, say, make_activity_for
):
    from activities.services import activity_join

    hike = make_activity_for(other_user, title="周六徒步", type="户外")
    activity_join(activity_id=hike.pk, user=user)
    body = say(api_client, "我不想参加周六那个徒步了")
    assert body["intent"] == "MANAGE"
    assert [c["name"] for c in body["tool_calls"]] == ["getMyActivities", "leaveActivity"]
    assert body["reply"] == "已退出「周六徒步」，名额已经让出来了。"


def test_manage_leaves_in_english(api_client, user, other_user, say, make_activity_for):
    from activities.services import activity_join

    hike = make_activity_for(other_user, title="Saturday hike", type="户外")
    activity_join(activity_id=hike.pk, user=user)
    body = say(api_client, "cancel my spot in Saturday's hike")
    assert [c["name"] for c in body["tool_calls"]] == ["getMyActivities", "leaveActivity"]
    assert body["reply"] == 'You left "Saturday hike"; your place is free for someone else.'


def test_a_join_by_title_of_a_full_listing_is_refused_as_full_not_swapped(
    api_client, user, other_user, make_user, make_activity_for, say
):
    from activities.services import activity_join

    full = make_activity_for(other_user, title="周六下午桌游局", max_participants=1)
    activity_join(activity_id=full.pk, user=make_user("first"))
    make_activity_for(other_user, title="周六下午桌游局（二）", max_participants=6)
    body = say(api_client, "我要报名周六下午桌游局")
    assert [c["name"] for c in body["tool_calls"]] == ["joinActivity"]
    assert body["tool_calls"][0]["arguments"] == {"activityId": full.pk}
    assert body["reply"].startswith("「周六下午桌游局」已经满员了")
    assert not user.participations.exists()


def test_the_user_names_an_activity_of_their_list_by_its_place(
    api_client, user, other_user, say, make_activity_for
):
    from datetime import timedelta

    from django.utils import timezone

    from activities.services import activity_join

    soon = timezone.now() + timedelta(days=2)
    first = make_activity_for(other_user, title="周五羽毛球", type="运动", start_at=soon)
    second = make_activity_for(
        other_user, title="周日读书会", type="读书", start_at=soon + timedelta(days=1)
    )
    for activity in (first, second):
        activity_join(activity_id=activity.pk, user=user)
    chat = {"chat_id": "mine"}
    listed = say(api_client, "我报名了哪些活动", **chat)
    assert [c["name"] for c in listed["tool_calls"]] == ["getMyActivities"]

    asked = say(api_client, "第二个几点开始？", **chat)
    assert [c["name"] for c in asked["tool_calls"]] == ["getActivity"]
    assert asked["tool_calls"][0]["arguments"] == {"activityId": second.pk}
    assert asked["reply"].startswith("「周日读书会」：")

    left = say(api_client, "取消第二个", **chat)
    assert [c["name"] for c in left["tool_calls"]] == ["getActivity", "cancelActivity"]
    assert left["reply"] == "已退出「周日读书会」。"
    assert not second.participations.filter(user=user).exists()
    assert first.participations.filter(user=user).exists()


def test_a_join_names_a_listed_result_by_its_place_in_english(api_client, user, say, shown_in_chat):
    shown = shown_in_chat("en", "Pottery night", "Board games")
    body = say(api_client, "sign me up for the second one", chat_id="en")
    assert [c["name"] for c in body["tool_calls"]] == ["getActivity", "joinActivity"]
    assert body["reply"].startswith('You\'re in: "Board games"')
    assert shown[1].participations.filter(user=user).exists()
    # The join makes it "that one": the next message can point at it.
    left = say(api_client, "cancel that one", chat_id="en")
    assert left["reply"] == 'You left "Board games".'


def test_a_place_the_last_listing_does_not_have_joins_nothing(
    api_client, user, other_user, say, make_activity_for
):
    from agent.models import AgentSession

    only = make_activity_for(other_user, title="周六桌游")
    AgentSession.objects.create(user=user, chat_id="one", shown={"ids": [only.pk]})
    body = say(api_client, "报名第三个", chat_id="one")
    assert "joinActivity" not in [c["name"] for c in body["tool_calls"]]
    assert body["reply"].startswith("刚才只列了一个：周六桌游"), body["reply"]
    assert not only.participations.filter(user=user).exists()


@pytest.mark.real_model  # the search finds more than three by meaning
def test_another_batch_reruns_the_search_without_what_it_showed(api_client, say, activities_loaded):
    first = say(api_client, "推荐点户外活动", chat_id="batch")
    shown = [r["id"] for r in first["tool_calls"][-1]["result"]["results"][:3]]
    assert len(shown) == 3, first["reply"]

    again = say(api_client, "换一批", chat_id="batch")
    call = again["tool_calls"][0]
    assert call["name"] == "exploreNearby"
    assert call["arguments"]["query"] == first["tool_calls"][-1]["arguments"]["query"]
    assert call["arguments"]["excludeIds"] == shown
    assert not set(shown) & {r["id"] for r in call["result"]["results"]}
    assert again["reply"].startswith("为你找到这些活动"), again["reply"]


def test_a_bare_join_after_the_details_joins_the_activity_described(
    api_client, user, say, shown_in_chat
):
    shown = shown_in_chat("bare", "周六陶艺", "周日桌游")
    asked = say(api_client, "第二个在哪", chat_id="bare")
    assert asked["reply"].startswith("「周日桌游」："), asked["reply"]
    joined = say(api_client, "好，帮我报名", chat_id="bare")
    assert [c["name"] for c in joined["tool_calls"]] == ["getActivity", "joinActivity"]
    assert shown[1].participations.filter(user=user).exists()
    assert not shown[0].participations.filter(user=user).exists()


@pytest.mark.real_model
def test_another_batch_with_nothing_left_says_so(api_client, say, activities_loaded):
    first = say(api_client, "周末有什么活动", chat_id="few")
    assert 0 < len(first["tool_calls"][-1]["result"]["results"]) <= 3, first["reply"]
    again = say(api_client, "换一批", chat_id="few")
    assert again["tool_calls"][0]["result"]["results"] == []
    assert again["reply"] == "这一类的活动都给你看过了，没有别的了。要不要换个方向找找？"


def test_a_bare_join_with_several_shown_and_none_in_focus_asks_which(
    api_client, user, say, shown_in_chat
):
    shown = shown_in_chat("which", "周六陶艺", "周日桌游")
    asked = say(api_client, "帮我报名", chat_id="which")
    assert "joinActivity" not in [c["name"] for c in asked["tool_calls"]]
    assert "exploreNearby" not in [c["name"] for c in asked["tool_calls"]]
    assert asked["reply"].startswith("你想报名哪一个？"), asked["reply"]
    assert asked["reply"].index("周六陶艺") < asked["reply"].index("周日桌游")
    assert not any(a.participations.filter(user=user).exists() for a in shown)
    # The question listed them in the same order: the answer names one by its place.
    joined = say(api_client, "第二个", chat_id="which")
    assert [c["name"] for c in joined["tool_calls"]] == ["getActivity", "joinActivity"]
    assert shown[1].participations.filter(user=user).exists()


def test_a_bare_join_in_english_with_several_shown_asks_which_in_english(
    api_client, user, say, shown_in_chat
):
    shown = shown_in_chat("which-en", "Pottery", "Board games")
    asked = say(api_client, "sign me up", chat_id="which-en")
    assert asked["reply"].startswith("Which one do you want to join?"), asked["reply"]
    assert "Board games" in asked["reply"]
    assert not any(a.participations.filter(user=user).exists() for a in shown)


def test_which_one_leaves_out_a_listed_activity_gone_since(api_client, user, say, shown_in_chat):
    shown = shown_in_chat("gone", "周六陶艺", "周日桌游", "周五夜跑")
    shown[0].delete()
    asked = say(api_client, "好，帮我报名", chat_id="gone")
    assert "周六陶艺" not in asked["reply"] and "周日桌游" in asked["reply"], asked["reply"]
    # The question listed the two left: 第一个 is now the board games.
    joined = say(api_client, "第一个", chat_id="gone")
    assert joined["tool_calls"][-1]["name"] == "joinActivity"
    assert shown[1].participations.filter(user=user).exists()


def test_joining_again_names_the_activity_and_keeps_it_in_focus(
    api_client, user, other_user, say, make_activity_for
):
    from activities.services import activity_join
    from agent.models import AgentSession

    shown = [make_activity_for(other_user, title=t) for t in ("周六陶艺", "周日桌游")]
    activity_join(activity_id=shown[0].pk, user=user)
    AgentSession.objects.create(user=user, chat_id="again", shown={"ids": [a.pk for a in shown]})
    again = say(api_client, "报名第一个", chat_id="again")
    assert again["reply"] == "你已经报名了「周六陶艺」，不用再报。"
    # The one just asked about is "this one": 取消这个 leaves it.
    left = say(api_client, "取消这个", chat_id="again")
    assert [c["name"] for c in left["tool_calls"]][-1] == "cancelActivity"
    assert not shown[0].participations.filter(user=user).exists()


def test_an_english_user_backs_out_of_a_chinese_titled_activity_by_its_kind(
    api_client, user, other_user, say, make_activity_for
):
    from activities.services import activity_join

    catan = make_activity_for(other_user, title="四人小局·卡坦岛策略桌游", type="桌游")
    hike = make_activity_for(other_user, title="周日徒步", type="户外")
    for activity in (catan, hike):
        activity_join(activity_id=activity.pk, user=user)
    body = say(api_client, "I can't make the board games night anymore", chat_id="back-out")
    assert [c["name"] for c in body["tool_calls"]] == ["getMyActivities", "leaveActivity"]
    assert not catan.participations.filter(user=user).exists()
    assert hike.participations.filter(user=user).exists()


def test_which_one_leaves_out_a_cancelled_activity_and_offers_the_one_left(
    api_client, user, other_user, say, make_activity_for
):
    from activities.models import ActivityStatus
    from agent.models import AgentSession

    shown = [make_activity_for(other_user, title=t) for t in ("周六陶艺", "周日桌游")]
    shown[0].status = ActivityStatus.CANCELLED
    shown[0].save(update_fields=["status"])
    AgentSession.objects.create(user=user, chat_id="left", shown={"ids": [a.pk for a in shown]})
    asked = say(api_client, "帮我报名", chat_id="left")
    assert asked["reply"].startswith("只剩这一个还能报名：周日桌游"), asked["reply"]
    joined = say(api_client, "好，报名吧", chat_id="left")
    assert joined["tool_calls"][-1]["name"] == "joinActivity"
    assert shown[1].participations.filter(user=user).exists()


def test_a_refused_join_speaks_the_messages_language_whatever_the_request_asks(
    api_client, user, other_user, say, make_activity_for
):
    from activities.models import ActivityStatus
    from agent.models import AgentSession

    gone = make_activity_for(other_user, title="周六陶艺")
    gone.status = ActivityStatus.CANCELLED
    gone.save(update_fields=["status"])
    AgentSession.objects.create(user=user, chat_id="lang", shown={"ids": [gone.pk]})
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {user.api_key}", HTTP_ACCEPT_LANGUAGE="en")
    body = say(api_client, "报名第一个", chat_id="lang")
    assert "已取消" in body["reply"] and "only active" not in body["reply"], body["reply"]


def test_a_place_the_listing_does_not_have_lists_it_again(api_client, user, say, shown_in_chat):
    shown = shown_in_chat("beyond", "周六陶艺")
    asked = say(api_client, "第二个几点开始？", chat_id="beyond")
    assert [c["name"] for c in asked["tool_calls"]] == ["getActivity"]
    assert asked["reply"].startswith("刚才只列了一个：周六陶艺"), asked["reply"]
    # The one listed is in focus: a bare join joins it.
    joined = say(api_client, "好，报名吧", chat_id="beyond")
    assert joined["tool_calls"][-1]["name"] == "joinActivity"
    assert shown[0].participations.filter(user=user).exists()


def test_a_place_beyond_a_listing_of_two_asks_which_in_english(
    api_client, user, say, shown_in_chat
):
    shown_in_chat("beyond-en", "Pottery", "Board games")
    asked = say(api_client, "what time does the third one start?", chat_id="beyond-en")
    assert asked["reply"].startswith("I only listed 2:"), asked["reply"]
    assert asked["reply"].index("Pottery") < asked["reply"].index("Board games")
    assert asked["reply"].endswith("Which one do you mean?")


def test_sign_me_up_for_it_joins_the_one_in_focus(api_client, user, say, shown_in_chat):
    shown = shown_in_chat("for-it", "Board games")
    joined = say(api_client, "sign me up for it", chat_id="for-it")
    assert [c["name"] for c in joined["tool_calls"]] == ["getActivity", "joinActivity"]
    assert shown[0].participations.filter(user=user).exists()


@pytest.mark.real_model  # routed by its rule beside the examples' similarity
def test_a_bare_join_in_a_new_chat_asks_which_instead_of_searching_for_it(api_client, say):
    body = say(api_client, "报名这个", chat_id="nothing-shown")
    assert body["tool_calls"] == []
    assert body["reply"] == "你想报名哪个活动？告诉我名字，或者让我先帮你找找。"


def test_actually_i_cant_make_it_leaves_the_one_activity_joined(
    api_client, user, other_user, say, make_activity_for
):
    from activities.services import activity_join

    games = make_activity_for(other_user, title="Board games")
    activity_join(activity_id=games.pk, user=user)
    body = say(api_client, "actually I can't make it", chat_id="actually")
    assert [c["name"] for c in body["tool_calls"]] == ["getMyActivities", "leaveActivity"]
    assert not games.participations.filter(user=user).exists()


def test_cant_make_it_right_after_a_join_leaves_the_one_just_joined(
    api_client, user, other_user, say, shown_in_chat, make_activity_for
):
    from activities.services import activity_join

    kept = make_activity_for(other_user, title="周日飞盘")
    activity_join(activity_id=kept.pk, user=user)
    shown = shown_in_chat("undo", "周六陶艺", "周一夜跑")
    say(api_client, "第二个帮我报名", chat_id="undo")
    body = say(api_client, "算了我去不了了", chat_id="undo")
    assert [c["name"] for c in body["tool_calls"]] == ["getActivity", "cancelActivity"]
    assert body["reply"] == "已退出「周一夜跑」。"
    assert not shown[1].participations.filter(user=user).exists()
    assert kept.participations.filter(user=user).exists()


def test_cant_make_it_after_a_listing_of_one_not_joined_leaves_nothing(
    api_client, user, other_user, say, shown_in_chat, make_activity_for
):
    from activities.services import activity_join

    mine = [make_activity_for(other_user, title=t) for t in ("周日飞盘", "周一夜跑")]
    for activity in mine:
        activity_join(activity_id=activity.pk, user=user)
    shown_in_chat("one", "周六陶艺")  # the only one listed: in focus, never joined
    body = say(api_client, "我去不了了", chat_id="one")
    assert [c["name"] for c in body["tool_calls"]] == ["getMyActivities"]
    assert body["reply"].startswith("你想取消哪一个？"), body["reply"]
    assert all(a.participations.filter(user=user).exists() for a in mine)


def test_my_activities_without_a_time_leave_out_those_that_started_before_today(
    user, other_user, make_activity_for
):
    from datetime import timedelta

    from django.utils import timezone

    from activities.models import Activity
    from activities.services import activity_join

    ended, coming = (make_activity_for(other_user, title=t) for t in ("上周徒步", "下周徒步"))
    for activity in (ended, coming):
        activity_join(activity_id=activity.pk, user=user)
    last_week = timezone.now() - timedelta(days=7)
    Activity.objects.filter(pk=ended.pk).update(start_at=last_week)
    listed = REGISTRY["getMyActivities"].run(user, {})
    assert [a["title"] for a in listed["activities"]] == ["下周徒步"]
    window = {
        "start": (last_week - timedelta(days=1)).isoformat(),
        "end": (last_week + timedelta(days=1)).isoformat(),
    }
    asked = REGISTRY["getMyActivities"].run(user, {"timeRange": window})
    assert [a["title"] for a in asked["activities"]] == ["上周徒步"]


@pytest.mark.parametrize("message", ["我不想退出", "我不想取消", "I don't want to cancel"])
def test_saying_one_is_not_backing_out_right_after_a_join_keeps_the_place(
    api_client, user, say, shown_in_chat, message
):
    shown = shown_in_chat("keep", "周六陶艺", "周一夜跑")
    say(api_client, "第二个帮我报名", chat_id="keep")
    body = say(api_client, message, chat_id="keep")
    assert "cancelActivity" not in [c["name"] for c in body["tool_calls"]]
    assert shown[1].participations.filter(user=user).exists()


def test_an_organiser_who_cannot_go_is_asked_before_the_activity_is_cancelled(
    api_client, user, say
):
    made = say(api_client, "我想组织一个周六下午的飞盘局，10个人")
    say(api_client, "发布", chat_id=made["chat_id"])
    body = say(api_client, "算了我去不了了", chat_id=made["chat_id"])

    assert "cancelActivity" not in [c["name"] for c in body["tool_calls"]]
    assert body["reply"].startswith("「飞盘局」是你发起的，取消后大家都去不了。"), body["reply"]


def test_a_time_asked_after_several_shown_lists_them_and_asks_which(
    api_client, user, say, shown_in_chat
):
    shown_in_chat("which-time", "周六陶艺", "周日桌游")
    asked = say(api_client, "那几点呢", chat_id="which-time")
    assert [c["name"] for c in asked["tool_calls"]] == ["getActivity", "getActivity"]
    assert asked["reply"].startswith("你问的是哪一个？"), asked["reply"]
    assert asked["reply"].index("周六陶艺") < asked["reply"].index("周日桌游")


def test_the_price_asked_after_several_shown_asks_which_in_english(
    api_client, user, say, shown_in_chat
):
    shown_in_chat("which-price", "Pottery", "Board games")
    asked = say(api_client, "what about the price?", chat_id="which-price")
    assert asked["reply"].startswith("Which one do you mean?"), asked["reply"]
    assert "exploreNearby" not in [c["name"] for c in asked["tool_calls"]]


def test_a_time_asked_after_one_shown_gives_its_details(api_client, user, say, shown_in_chat):
    shown = shown_in_chat("one-time", "Board games")
    asked = say(api_client, "what time does it start?", chat_id="one-time")
    assert [c["name"] for c in asked["tool_calls"]] == ["getActivity"]
    assert asked["reply"].startswith('"Board games"'), asked["reply"]
    assert not shown[0].participations.filter(user=user).exists()


def test_asking_which_one_keeps_the_search_a_narrowing_changes_next(
    api_client, user, say, activities_loaded
):
    from agent.models import AgentSession

    listed = say(api_client, "any outdoor activities?", chat_id="keep-search")
    assert len(listed["tool_calls"][-1]["result"]["results"]) > 1, listed["reply"]
    asked = say(api_client, "what about the time?", chat_id="keep-search")
    assert asked["reply"].startswith("Which one do you mean?"), asked["reply"]
    shown = AgentSession.objects.get(user=user, chat_id="keep-search").shown
    assert shown["search"]["query"] == listed["tool_calls"][-1]["arguments"]["query"]


def test_remind_me_after_joining_says_it_will_be_reminded(api_client, user, say, shown_in_chat):
    shown = shown_in_chat("remind", "Board games")
    say(api_client, "sign me up for it", chat_id="remind")
    asked = say(api_client, "can you remind me the day before?", chat_id="remind")
    assert [c["name"] for c in asked["tool_calls"]] == ["getActivity", "setActivityReminder"]
    assert asked["reply"].startswith('I will: the day before "Board games"'), asked["reply"]
    assert shown[0].participations.filter(user=user).count() == 1


@pytest.mark.parametrize(
    ("refusal", "again", "reply"),
    [
        ("不用提醒我", "还是提醒我一下吧", "好的，「Board games」"),
        ("don't remind me", "actually, remind me the day before", 'OK, no reminder for "Board'),
    ],
)
def test_a_refused_reminder_is_muted_and_asked_again_unmuted(
    api_client, user, say, shown_in_chat, refusal, again, reply
):
    from agent.models import ReminderMute

    shown = shown_in_chat("mute", "Board games")
    say(api_client, "sign me up for it", chat_id="mute")
    refused = say(api_client, refusal, chat_id="mute")
    assert refused["reply"].startswith(reply), refused["reply"]
    assert ReminderMute.objects.filter(user=user, activity=shown[0]).exists()
    say(api_client, again, chat_id="mute")
    assert not ReminderMute.objects.filter(user=user, activity=shown[0]).exists()


def test_refusing_reminders_with_none_in_focus_mutes_every_activity_ahead(
    api_client, user, say, shown_in_chat
):
    from agent.models import ReminderMute

    shown = shown_in_chat("mute-all", "Board games")
    say(api_client, "sign me up for it", chat_id="mute-all")
    refused = say(api_client, "以后都别提醒我了", chat_id="mute-all-2")
    assert refused["intent"] == "MANAGE"
    assert refused["reply"].startswith("好的，你接下来的活动都不再提醒：「Board games」")
    assert ReminderMute.objects.filter(user=user, activity=shown[0]).exists()


def test_remind_me_about_one_not_joined_says_how_to_be_reminded(
    api_client, user, say, shown_in_chat
):
    shown_in_chat("remind-zh", "周六陶艺")
    asked = say(api_client, "到时候提醒我一下", chat_id="remind-zh")
    assert asked["reply"].startswith("你还没报名「周六陶艺」"), asked["reply"]


@pytest.mark.parametrize(
    "message", ["is it suitable for kids?", "can I bring my dog?", "适合带孩子吗"]
)
def test_a_question_about_who_the_one_in_focus_suits_gives_its_details(
    api_client, user, say, shown_in_chat, message
):
    shown_in_chat("suits", "Board games")
    asked = say(api_client, message, chat_id="suits")
    assert [c["name"] for c in asked["tool_calls"]] == ["getActivity"], asked["reply"]


def test_a_place_asked_what_it_suits_gives_its_details(api_client, user, say, shown_in_chat):
    shown_in_chat("suits-place", "亲子绘本共读会", "周日桌游")
    asked = say(api_client, "第一个适合几岁的孩子", chat_id="suits-place")
    assert [c["name"] for c in asked["tool_calls"]] == ["getActivity"], asked["reply"]
    assert asked["reply"].startswith("「亲子绘本共读会」"), asked["reply"]


def test_join_this_one_with_several_shown_and_none_in_focus_asks_which(
    api_client, user, say, shown_in_chat
):
    shown = shown_in_chat("join-this", "周六陶艺", "周日桌游")
    asked = say(api_client, "报名这个", chat_id="join-this")
    assert asked["reply"].startswith("你想报名哪一个？"), asked["reply"]
    assert not any(a.participations.filter(user=user).exists() for a in shown)


def test_join_and_remind_in_one_message_joins(api_client, user, say, shown_in_chat):
    shown = shown_in_chat("join-remind", "周六陶艺", "周日桌游")
    joined = say(api_client, "报名第一个，到时候提醒我", chat_id="join-remind")
    assert [c["name"] for c in joined["tool_calls"]] == ["getActivity", "joinActivity"]
    assert shown[0].participations.filter(user=user).exists()


@pytest.mark.parametrize("message", ["不用提醒我", "明天下午三点开会，提醒我"])
def test_a_refusal_or_a_task_of_its_own_is_no_reminder_of_the_one_in_focus(
    api_client, user, say, shown_in_chat, message
):
    shown_in_chat("no-remind", "Board games")
    body = say(api_client, message, chat_id="no-remind")
    assert "我会提醒你" not in body["reply"] or "前一天" not in body["reply"].split("。")[0]
    assert not body["reply"].startswith("你还没报名「Board games」"), body["reply"]


@pytest.mark.parametrize("message", ["那免费的呢", "适合新手的", "is that all?"])
def test_a_narrowing_or_a_new_question_after_several_is_not_asked_back(
    api_client, user, say, shown_in_chat, message
):
    shown_in_chat("not-which", "周六陶艺", "周日桌游")
    body = say(api_client, message, chat_id="not-which")
    assert not body["reply"].startswith(("你问的是哪一个？", "Which one do you mean?")), body[
        "reply"
    ]


def test_thats_the_one_after_details_joins_it(api_client, user, say, shown_in_chat):
    shown = shown_in_chat("that-one", "周六陶艺")
    body = say(api_client, "好，就它了", chat_id="that-one")
    assert [c["name"] for c in body["tool_calls"]] == ["getActivity", "joinActivity"]
    assert shown[0].participations.filter(user=user).exists()


@pytest.mark.parametrize(
    "message",
    ["那它是免费的吗", "小孩能去吗", "适合什么人？", "do I need experience?", "is it outdoors?"],
)
def test_a_short_question_about_the_one_in_focus_gives_its_details(
    api_client, user, say, shown_in_chat, message
):
    shown_in_chat("focus-q", "Board games")
    asked = say(api_client, message, chat_id="focus-q")
    assert [c["name"] for c in asked["tool_calls"]] == ["getActivity"], asked["reply"]


@pytest.mark.parametrize("message", ["提前一天提醒我", "can you remind me before?"])
def test_other_wordings_of_remind_me_get_the_reminder_answer(
    api_client, user, say, shown_in_chat, message
):
    shown_in_chat("remind-forms", "周六陶艺")
    asked = say(api_client, message, chat_id="remind-forms")
    assert asked["reply"].startswith(
        ("你还没报名「周六陶艺」", 'You haven\'t joined "周六陶艺"')
    ), asked["reply"]


def test_a_bare_join_with_remind_me_joins_the_one_in_focus(api_client, user, say, shown_in_chat):
    shown = shown_in_chat("join-remind-bare", "周六陶艺")
    joined = say(api_client, "好的报名吧，记得提醒我", chat_id="join-remind-bare")
    assert [c["name"] for c in joined["tool_calls"]] == ["getActivity", "joinActivity"]
    assert shown[0].participations.filter(user=user).exists()


def test_no_other_options_after_a_search_shows_others(api_client, user, say, activities_loaded):
    first = say(api_client, "any outdoor activities?", chat_id="no-other")
    assert first["tool_calls"][-1]["result"]["results"], first["reply"]
    body = say(api_client, "no other options?", chat_id="no-other")
    assert body["tool_calls"][0]["name"] == "exploreNearby"
    assert body["tool_calls"][0]["arguments"].get("excludeIds"), body["tool_calls"][0]["arguments"]


def test_refusing_the_reminder_of_one_named_by_title_mutes_only_that_one(
    api_client, user, other_user, say, make_activity_for
):
    from activities.services import activity_join
    from agent.models import ReminderMute

    games = make_activity_for(other_user, title="卡坦岛桌游局")
    hike = make_activity_for(other_user, title="周日徒步")
    for activity in (games, hike):
        activity_join(activity_id=activity.pk, user=user)
    refused = say(api_client, "卡坦岛那个不用提醒我", chat_id="mute-named")
    assert [c["name"] for c in refused["tool_calls"]] == ["getMyActivities", "setActivityReminder"]
    assert list(ReminderMute.objects.values_list("activity_id", flat=True)) == [games.pk]
    back = say(api_client, "恢复提醒", chat_id="mute-named")
    assert back["reply"].startswith("好的：你接下来的活动"), back["reply"]
    assert not ReminderMute.objects.exists()
