"""The offline planners: arguments read from a message by rules (rag.understand for times)."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest

from agent.context import RuntimeContext
from agent.offline_plans import cancel_target, joins_something_named, plan_explore

WEDNESDAY_10AM = datetime(2026, 11, 25, 10, 0, tzinfo=ZoneInfo("Asia/Shanghai"))


def _turn(message: str, **state) -> RuntimeContext:
    """Return a turn's context: ``message`` and what the session holds (``state``)."""
    return RuntimeContext(user=None, chat_id="c1", message=message, **state)


def test_explore_passes_the_distance_the_message_names():
    [(name, arguments)] = plan_explore(_turn("离我3公里以内的桌游"), [])
    assert name == "exploreNearby"
    assert arguments["nearby"] is True and arguments["radiusInKm"] == 3.0
    assert arguments["query"] == "桌游"


def test_explore_reads_english_time_and_place():
    [(_, arguments)] = plan_explore(_turn("board games this weekend near me"), [])
    assert arguments["nearby"] is True and "radiusInKm" not in arguments
    assert arguments["query"] == "this weekend board games" and "timeRange" not in arguments


def test_explore_searches_what_is_wanted_without_asking_words():
    [(_, arguments)] = plan_explore(_turn("周末想找个玩水的地方"), [])
    assert arguments["query"] == "周末 玩水" and "timeRange" not in arguments


def test_explore_searches_what_is_wanted_in_english():
    message = "looking for somewhere to play in the water this weekend"
    [(_, arguments)] = plan_explore(_turn(message), [])
    assert arguments["query"] == "this weekend play in the water" and "timeRange" not in arguments


def test_explore_keeps_the_time_of_a_feeling_with_the_feeling_not_as_a_window():
    [(_, arguments)] = plan_explore(_turn("今天有点丧，想找个地方散散心"), [])
    assert arguments["query"] == "今天有点丧 散散心"


SATURDAY_FRISBEE = {
    "id": 1,
    "title": "周六下午运动局",
    "type": "运动",
    "startAt": "2026-11-28T13:00:00+08:00",
}
SUNDAY_READING = {
    "id": 2,
    "title": "周日读书分享",
    "type": "读书",
    "startAt": "2026-11-29T15:00:00+08:00",
}
POTTERY = {
    "id": 3,
    "title": "Pottery wheel taster",
    "type": "Arts",
    "startAt": "2026-12-01T19:00:00Z",
}
YOGA = {"id": 4, "title": "Yoga class", "type": "Wellbeing", "startAt": "2026-12-02T08:00:00Z"}


def test_a_request_naming_another_activity_cancels_nothing_even_on_the_same_day():
    assert cancel_target("我不想参加周六那个徒步了", [SATURDAY_FRISBEE], WEDNESDAY_10AM) is None


def test_a_request_naming_an_activity_by_part_of_its_title_cancels_that_one():
    both = [SATURDAY_FRISBEE, SUNDAY_READING]
    assert cancel_target("退出周日的读书会", both, WEDNESDAY_10AM) == SUNDAY_READING


def test_a_request_naming_nothing_cancels_the_one_activity_in_its_window():
    both = [SATURDAY_FRISBEE, SUNDAY_READING]
    assert cancel_target("取消周六的活动", both, WEDNESDAY_10AM) == SATURDAY_FRISBEE
    assert cancel_target("我去不了了", both, WEDNESDAY_10AM) is None


def test_a_kind_noun_alone_does_not_tell_english_activities_apart():
    assert cancel_target("leave the pottery class please", [YOGA], WEDNESDAY_10AM) is None
    assert cancel_target("leave the pottery class please", [YOGA, POTTERY], WEDNESDAY_10AM) == (
        POTTERY
    )


BRUNCH = {"id": 5, "title": "Brunch", "type": "美食", "startAt": "2026-11-29T11:00:00+08:00"}
FOOTBALL = {"id": 6, "title": "周日足球赛", "type": "运动", "startAt": "2026-11-29T10:00:00+08:00"}
SATURDAY_HIKE = {"id": 7, "title": "徒步", "type": "户外", "startAt": "2026-11-28T09:00:00+08:00"}


def test_an_english_word_inside_a_title_word_names_nothing():
    assert cancel_target("cancel the run", [BRUNCH], WEDNESDAY_10AM) is None


def test_a_chinese_word_sharing_only_its_tail_names_another_activity_not_this_one():
    assert cancel_target("取消篮球赛", [FOOTBALL], WEDNESDAY_10AM) is None


def test_a_named_activity_on_another_day_than_the_one_said_is_not_cancelled():
    both = [SATURDAY_HIKE, SUNDAY_READING]
    assert cancel_target("取消周日的徒步", both, WEDNESDAY_10AM) is None
    assert cancel_target("取消周六的徒步", both, WEDNESDAY_10AM) == SATURDAY_HIKE


def test_saying_not_to_cancel_cancels_nothing():
    for message in ("别取消了", "先别退出", "不取消了", "取消不了吗？", "don't cancel it"):
        assert cancel_target(message, [SATURDAY_FRISBEE], WEDNESDAY_10AM) is None, message


def test_a_negation_that_is_the_request_itself_still_cancels():
    hike = {**SATURDAY_HIKE, "title": "Saturday hike"}
    message = "I don't think I can make it to the hike, please cancel"
    assert cancel_target(message, [hike], WEDNESDAY_10AM) == hike


@pytest.mark.parametrize("message", ["这个我去不了", "那个我不去了", "can't make it to that one"])
def test_a_cancel_pointing_at_something_unnamed_is_asked_back(message):
    hike = {"id": 9, "title": "周六徒步", "type": "户外", "startAt": "2026-11-28T10:00:00+08:00"}
    assert cancel_target(message, [hike]) is None


CATAN = {
    "id": 8,
    "title": "四人小局·卡坦岛策略桌游",
    "type": "桌游",
    "startAt": "2026-12-02T19:00:00+08:00",
}


def test_an_english_request_names_a_chinese_titled_activity_by_its_kind():
    message = "I can't make the board games night anymore"
    assert cancel_target(message, [SATURDAY_FRISBEE, CATAN], WEDNESDAY_10AM) == CATAN


def test_a_kind_in_the_titles_language_still_needs_the_title_to_hold_it():
    # 徒步 is not in 周六下午运动局's title; the same language, so no reading by kind.
    hike_like = {**SATURDAY_FRISBEE, "type": "户外"}
    assert cancel_target("我不想参加周六那个徒步了", [hike_like], WEDNESDAY_10AM) is None


def test_a_kind_shared_by_an_activity_titled_in_the_messages_language_asks_back():
    # "Board Game Social" is of the kind too, and titled in English: which one is not clear.
    social = {**CATAN, "id": 9, "title": "Board Game Social"}
    message = "I can't make the board games night anymore"
    assert cancel_target(message, [social, CATAN], WEDNESDAY_10AM) is None


@pytest.mark.parametrize(
    ("message", "named"),
    [
        ("帮我报名第一个", False),
        ("报名最后一个", False),
        ("sign me up for the first one", False),
        ("报名这个", False),
        ("报名周六的徒步", True),
        ("报名第二场读书会", True),
    ],
)
def test_a_join_by_a_place_in_a_list_names_nothing_to_search_for(message, named):
    assert joins_something_named(message) is named


@pytest.mark.parametrize(
    "message",
    ["谁报名了我的飞盘局", "我的桌游局有几个人报名了", "who has signed up for my frisbee game?"],
)
def test_asking_who_signed_up_reads_the_activities_one_organises(message):
    from agent.offline_plans import plan_manage

    [(name, arguments)] = plan_manage(SimpleNamespace(message=message), [])
    assert name == "getMyActivities" and arguments["scope"] == "created"


@pytest.mark.parametrize(
    "message",
    [
        "我发起的活动",
        "我组织了哪些活动",
        "what have I organised?",
        "events I'm hosting",
        "stuff I've set up",
    ],
)
def test_asking_what_one_organises_reads_the_created_ones(message):
    from agent.offline_plans import plan_manage

    [(_, arguments)] = plan_manage(SimpleNamespace(message=message), [])
    assert arguments["scope"] == "created"


@pytest.mark.parametrize("message", ["我报名了哪些活动", "我都报了哪些活动"])
def test_asking_what_one_signed_up_for_reads_the_joined_ones(message):
    from agent.offline_plans import plan_manage

    [(_, arguments)] = plan_manage(SimpleNamespace(message=message), [])
    assert arguments["scope"] == "joined"


def test_one_who_joined_nothing_is_shown_what_they_organise():
    from agent.offline_plans import plan_manage

    asked = {"scope": "joined"}
    done = [{"name": "getMyActivities", "arguments": asked, "result": {"activities": []}}]

    assert plan_manage(SimpleNamespace(message="我都报名了什么"), done) == [
        ("getMyActivities", {"scope": "created"})
    ]


def test_one_who_published_nothing_is_shown_their_drafts():
    from agent.offline_plans import plan_manage

    asked = {"scope": "created"}
    done = [{"name": "getMyActivities", "arguments": asked, "result": {"activities": []}}]

    assert plan_manage(SimpleNamespace(message="what have I organised?"), done) == [
        ("getMyActivities", {"scope": "drafts"})
    ]


def test_asking_how_the_search_for_company_goes_reads_the_open_ones():
    from agent.offline_plans import plan_partner

    ctx = _turn("有人匹配上了吗")
    assert plan_partner(ctx, []) == [("getPartnerIntents", {})]


@pytest.mark.parametrize(
    "message", ["我报名的飞盘局还有谁参加", "who has joined the hike I signed up for?"]
)
def test_asking_who_else_goes_to_one_joined_reads_the_joined_ones(message):
    from agent.offline_plans import plan_manage

    [(_, arguments)] = plan_manage(SimpleNamespace(message=message), [])
    assert arguments["scope"] != "created"


SEARCHES = [
    {"id": 1, "activityType": "运动", "description": "anyone up for badminton this weekend?"},
    {"id": 2, "activityType": "户外", "description": "周末找个人一起爬山"},
    {"id": 3, "activityType": "运动", "description": "想找个羽毛球搭子"},
]


@pytest.mark.parametrize(
    ("message", "closed"),
    [
        ("羽毛球搭子不找了", 3),
        ("stop looking for a badminton partner", 1),
        ("cancel my hiking search", 2),  # hiking is 户外's
        ("stop looking for a board game partner", None),  # none of them
        ("不用再帮我找搭子了", None),  # several open, none named: ask which
    ],
)
def test_a_request_to_stop_a_search_closes_the_one_it_names(message, closed):
    from agent.offline_plans import plan_partner

    done = [{"name": "getPartnerIntents", "arguments": {}, "result": {"partnerIntents": SEARCHES}}]
    planned = plan_partner(_turn(message), done)

    assert planned == ([("closePartnerIntent", {"intentId": closed})] if closed else [])


@pytest.mark.parametrize(
    ("message", "closed"),
    [
        (
            "I no longer need a partner, my friend is coming",
            [("closePartnerIntent", {"intentId": 1})],
        ),
        ("不用帮我找人了，我朋友陪我去", [("closePartnerIntent", {"intentId": 1})]),
        ("stop looking for a board game partner", []),  # another kind named: not this one
    ],
)
def test_the_only_search_is_closed_unless_another_kind_is_named(message, closed):
    from agent.offline_plans import plan_partner

    only = {"partnerIntents": SEARCHES[:1]}
    done = [{"name": "getPartnerIntents", "arguments": {}, "result": only}]

    assert plan_partner(_turn(message), done) == closed


def _small(*types):
    results = [{"id": i, "title": f"t{i}", "type": t} for i, t in enumerate(types)]
    return {"results": results, "meta": {"path": "hard_filter_small"}}


@pytest.mark.django_db
def test_a_small_window_without_the_kind_asked_names_the_word_asked():
    from agent.offline_plans import kind_missing_in_window

    assert kind_missing_in_window("any food events this week?", _small("运动")) == "food"


def test_a_listing_of_the_kind_by_its_vibes_is_of_the_kind(make_user, make_activity_for):
    from activities.models import Activity
    from agent.offline_plans import kind_missing_in_window

    frisbee = make_activity_for(make_user("org"), title="飞盘新手局", type="运动")
    Activity.objects.filter(pk=frisbee.pk).update(vibes=["运动", "户外"])
    result = {
        "results": [{"id": frisbee.pk, "type": "运动"}],
        "meta": {"path": "hard_filter_small"},
    }
    assert kind_missing_in_window("周末 户外活动", result) is None


@pytest.mark.parametrize(
    ("message", "result"),
    [
        ("这周有什么吃饭的活动吗", _small("美食", "运动")),  # the window holds one
        ("这周有什么活动", _small("运动")),  # no kind asked
        ("这周有什么吃饭的活动吗", {**_small("运动"), "meta": {"path": "ann"}}),  # ranked
    ],
)
@pytest.mark.django_db
def test_a_window_holding_the_kind_or_a_request_without_one_is_left_as_it_is(message, result):
    from agent.offline_plans import kind_missing_in_window

    assert kind_missing_in_window(message, result) is None


@pytest.mark.parametrize(
    ("message", "query"),
    [
        ("有没有不用花钱的", "周六 带孩子 不用花钱"),
        ("any free ones?", "周六 带孩子 free ones"),
        ("what about indoor ones?", "周六 带孩子 indoor"),
    ],
)
def test_a_short_follow_up_narrows_the_last_search(message, query):
    from agent.offline_plans import plan_explore

    ctx = _turn(message, search={"query": "周六 带孩子", "limit": 5})
    assert plan_explore(ctx, []) == [("exploreNearby", {"query": query, "limit": 5})]


def test_a_new_request_after_a_search_is_a_search_of_its_own():
    from agent.offline_plans import plan_explore

    ctx = _turn("我想找个爬山的", search={"query": "周六 带孩子", "limit": 5})
    assert plan_explore(ctx, []) == [("exploreNearby", {"query": "爬山", "limit": 5})]


@pytest.mark.parametrize("message", ["我之前参加过哪些活动", "what have I joined before?"])
def test_asking_about_ones_past_activities_reads_those_before_now(message):
    from agent.offline_plans import plan_manage

    [(_, arguments)] = plan_manage(SimpleNamespace(message=message), [])
    assert set(arguments["timeRange"]) == {"end"}


def test_a_kind_refused_is_not_the_kind_asked():
    from agent.offline_plans import kind_missing_in_window

    assert kind_missing_in_window("tomorrow anything except food?", _small("运动")) is None


@pytest.mark.parametrize("message", ["好的", "是的", "你的呢"])
def test_an_answer_after_a_search_narrows_nothing(message):
    from agent.follow_up import REFINES_RE

    assert not REFINES_RE.search(message)


@pytest.mark.django_db
def test_another_time_without_the_kind_asked_searches_the_kind_at_other_times():
    # "what about tomorrow?" after "any food events this weekend?" searched food tomorrow; the
    # day held one run: the kind is read from the query searched, not from the message.
    done = [
        {
            "name": "exploreNearby",
            "arguments": {"query": "tomorrow food events", "limit": 5},
            "result": _small("运动"),
        }
    ]
    plan = plan_explore(_turn("what about tomorrow?"), done)
    assert plan == [
        ("exploreNearby", {"query": "food events", "limit": 5, "excludeIds": [0]}),
    ]


def test_asking_what_one_has_joined_reads_the_ones_ahead():
    from agent.offline_plans import plan_manage

    [(_, arguments)] = plan_manage(SimpleNamespace(message="what have I joined?"), [])
    assert arguments == {"scope": "joined"}


@pytest.mark.parametrize("message", ["is anyone else coming to the hike?", "徒步还有谁去"])
def test_asking_who_else_is_coming_reads_the_ones_joined_too(message):
    from agent.offline_plans import plan_manage

    [(_, arguments)] = plan_manage(SimpleNamespace(message=message), [])
    assert arguments["scope"] != "created"


def test_an_activity_named_in_the_other_language_is_the_one_whose_title_names_it():
    frisbee = {"id": 21, "title": "飞盘局", "type": "运动", "startAt": "2026-12-06T13:00:00+08:00"}
    climbing = {
        "id": 22,
        "title": "室内攀岩抱石体验",
        "type": "运动",
        "startAt": "2026-12-03T19:00:00+08:00",
    }
    assert cancel_target("cancel the frisbee one", [climbing, frisbee], WEDNESDAY_10AM) == frisbee


def test_who_else_signed_up_for_ones_own_reads_the_ones_organised():
    from agent.offline_plans import plan_manage

    [(_, arguments)] = plan_manage(
        SimpleNamespace(message="who else signed up for my potluck?"), []
    )
    assert arguments["scope"] == "created"


@pytest.mark.parametrize(
    ("message", "title"),
    [("cancel the climbing one", "周六攀岩"), ("cancel the running one", "夜跑")],
)
def test_a_kind_named_by_its_held_words_finds_the_title_in_the_other_language(message, title):
    climbing = {
        "id": 31,
        "title": "周六攀岩",
        "type": "运动",
        "startAt": "2026-11-28T10:00:00+08:00",
    }
    running = {"id": 32, "title": "夜跑", "type": "运动", "startAt": "2026-11-27T19:00:00+08:00"}
    frisbee = {"id": 33, "title": "飞盘局", "type": "运动", "startAt": "2026-11-29T13:00:00+08:00"}
    assert cancel_target(message, [climbing, running, frisbee], WEDNESDAY_10AM)["title"] == title


def test_a_kind_also_titled_in_the_messages_language_is_asked_back():
    english = {
        "id": 34,
        "title": "Frisbee with Anna",
        "type": "运动",
        "startAt": "2026-11-29T13:00:00+08:00",
    }
    chinese = {"id": 35, "title": "飞盘局", "type": "运动", "startAt": "2026-11-29T15:00:00+08:00"}
    message = "cancel the frisbee game with Tom"
    assert cancel_target(message, [english, chinese], WEDNESDAY_10AM) is None


@pytest.mark.parametrize(
    ("message", "scope"), [("飞盘局还有谁参加？", "joined"), ("我的飞盘局还有谁报名了", "created")]
)
def test_who_else_is_the_participants_unless_it_is_ones_own(message, scope):
    from agent.offline_plans import plan_manage

    [(_, arguments)] = plan_manage(SimpleNamespace(message=message), [])
    assert arguments["scope"] == scope


@pytest.mark.parametrize("message", ["就选它了", "好吧，就它了", "好，那就它了"])
def test_thats_the_one_said_several_ways_joins(message):
    from agent.references import action_of, pointed_at

    assert pointed_at(message, [7], 7) == (7, False)
    assert action_of(message, alone=False) == "join"


@pytest.mark.parametrize(
    "message", ["还有没有别的", "有没有别的推荐", "没有别的了吗", "are there no other options?"]
)
def test_other_ways_of_asking_for_others(message):
    from agent.references import asks_for_more

    assert asks_for_more(message)
