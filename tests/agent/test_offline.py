"""The offline answers of the tool modes: the lines of a search result, an empty search, a join."""

from __future__ import annotations

from types import SimpleNamespace

from agent.modes import get_agent_mode
from agent.offline import compose
from agent.offline_lines import activity_line


def _search(arguments, results, **meta):
    meta = {"nearby": False, "nearbyUnknown": False, **meta}
    return {
        "name": "exploreNearby",
        "arguments": arguments,
        "result": {"results": results, "meta": meta},
    }


SUP = {
    "id": 7,
    "title": "苏州河日落桨板巡游",
    "type": "水上",
    "startAt": "2026-11-28T16:30:00+08:00",
    "locationName": "苏州河",
    "distanceKm": 2.345,
    "matchReason": "周六下午 16:30，离你 2.3 公里，标题里有「桨板」。",
}


def test_a_result_line_states_time_and_distance_once():
    line = activity_line(1, SUP)
    when = "11月28日(周六) 16:30"
    assert line == f"1. 苏州河日落桨板巡游：{when}，苏州河，离你约 2.3 公里。标题里有「桨板」。"


def test_a_result_line_leaves_out_that_only_a_few_pass_the_filters():
    item = {**SUP, "matchReason": "符合筛选条件的只有这 2 个，标题里有「桨板」。"}
    assert activity_line(1, item).endswith("离你约 2.3 公里。标题里有「桨板」。")
    english = {**SUP, "matchReason": "one of the only 2 activities that pass your filters."}
    assert activity_line(1, english, english=True).endswith("2.3 km away.")


def test_an_english_reason_left_after_the_time_starts_a_sentence():
    item = {
        **SUP,
        "title": "Board games",
        "matchReason": 'Only 1 passes your filters, starts Sat 18:00, as asked ("tonight").',
    }
    line = activity_line(1, item, english=True)
    assert line.endswith('. As asked ("tonight").'), line


def test_an_english_result_line_has_no_chinese_punctuation():
    item = {
        **SUP,
        "title": "Sunset paddleboard",
        "matchReason": 'You want something on the water, its title mentions "paddle", '
        "starts Sat 16:30.",
    }
    line = activity_line(1, item, english=True)
    assert "，" not in line and "。" not in line, line
    assert 'on the water, its title mentions "paddle"' in line


def test_an_empty_search_does_not_ask_to_loosen_limits_it_already_dropped():
    ctx = SimpleNamespace(message="周末想学量子力学", persona=[], action=None)
    calls = [
        _search({"query": "学量子力学", "timeRange": {}}, []),
        _search({"query": "学量子力学"}, []),
    ]
    reply = compose(get_agent_mode("EXPLORE"), ctx, calls, [])
    assert reply.startswith("没有找到和「学量子力学」相关的活动，去掉时间限制也没有。")
    assert "放宽" not in reply


def test_an_empty_search_answers_in_english_to_english():
    ctx = SimpleNamespace(message="quantum physics exam prep", persona=[], action=None)
    reply = compose(
        get_agent_mode("EXPLORE"), ctx, [_search({"query": "quantum physics exam prep"}, [])], []
    )
    assert reply.startswith('I found no activities about "quantum physics exam prep".')


def test_a_full_activity_is_refused_by_name():
    ctx = SimpleNamespace(message="我要报名苏州河日落桨板巡游", action=None)
    join = {
        "name": "joinActivity",
        "arguments": {"activityId": 7},
        "result": {
            "error": {
                "code": "INVALID_ARGUMENT",
                "message": "This activity is full.",
                "details": {"reason": "full"},
            }
        },
    }
    reply = compose(
        get_agent_mode("EXPLORE"), ctx, [_search({"query": "苏州河日落桨板巡游"}, [SUP]), join], []
    )
    assert reply == "「苏州河日落桨板巡游」已经满员了，报不上名。要我找找类似的活动吗？"


def test_the_details_of_an_activity_say_when_it_ends():
    from agent.offline import _details_text

    activity = {
        "id": 7,
        "title": "无声观影夜",
        "status": "active",
        "startAt": "2026-12-09T19:00:00+08:00",
        "endAt": "2026-12-09T21:30:00+08:00",
        "locationName": "愚园路小放映室",
        "maxParticipants": 20,
        "currentParticipants": 13,
        "description": "",
    }
    ctx = SimpleNamespace(message="第二个几点结束", focused=None)

    assert "12月9日(周三) 19:00-21:30" in _details_text(ctx, activity)


def test_the_partner_status_names_each_search_in_english_as_the_user_said_it():
    from agent.offline import _partner_status_text

    intents = [
        {"activityType": "运动", "description": "anyone for climbing?", "openMatches": 3},
        {"activityType": "户外", "description": "找个周六一起去爬山的搭子", "openMatches": 0},
    ]
    text = _partner_status_text(intents, english=True)

    assert "1. Company for climbing: 3 others are looking too." in text
    assert "2. Company for outdoors: nobody else yet." in text


def test_two_searches_of_one_kind_are_told_apart_by_their_days():
    from agent.offline import _partner_status_text

    saturday = {"start": "2026-12-05T00:00:00+08:00", "end": "2026-12-05T23:59:59+08:00"}
    intents = [
        {"activityType": "桌游", "description": "找桌游搭子", "openMatches": 0},
        {
            "activityType": "桌游",
            "description": "周六找桌游搭子",
            "openMatches": 0,
            "timeRange": saturday,
        },
    ]
    text = _partner_status_text(intents, english=False)

    assert "1. 找桌游搭子：暂时还没有别人在找。" in text
    assert "2. 找桌游搭子（12月5日(周六)）：暂时还没有别人在找。" in text


def test_one_other_person_looking_is_said_in_the_singular():
    from agent.offline import _partner_status_text

    intents = [{"activityType": "桌游", "description": "找桌游搭子", "openMatches": 1}]

    assert "Company for board game: 1 other person is looking too." in _partner_status_text(
        intents, english=True
    )


def test_an_activity_ending_another_day_says_that_day():
    from agent.offline_lines import span_text

    span = span_text("2026-12-09T19:00:00+08:00", "2026-12-10T09:00:00+08:00")
    assert span == "12月9日(周三) 19:00 - 12月10日(周四) 09:00"
