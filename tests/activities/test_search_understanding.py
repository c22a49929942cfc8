"""`/rag/search` applies what it understood in the query: time, place, language, vibes.

Through the real endpoint with the headers a client sends (token, JSON), over the demo
activities with real embeddings; the fixed-'now' cases call the service with an injected now
over demo data loaded at that now.
"""

from __future__ import annotations

import json
import re
import zoneinfo
from datetime import datetime, timedelta

import pytest

from activities.search import activities_search

SHANGHAI = zoneinfo.ZoneInfo("Asia/Shanghai")
HAN = re.compile(r"[\u4e00-\u9fff]")


# Relevance: these tests rank by meaning, so they need the real model (docs/DEVELOPING.md).
pytestmark = pytest.mark.real_model


def post(client, body: dict):
    """POST /rag/search as a client does: a JSON body, JSON accepted, the token header."""
    return client.post(
        "/rag/search",
        data=json.dumps(body, ensure_ascii=False),
        content_type="application/json",
        HTTP_ACCEPT="application/json",
    )


def local(iso: str) -> datetime:
    return datetime.fromisoformat(iso).astimezone(SHANGHAI)


@pytest.fixture
def monday():
    """10:00 on the first Monday at least a day from now (Shanghai): a fixed 'now'."""
    from django.utils import timezone

    day = timezone.now().astimezone(SHANGHAI).date() + timedelta(days=1)
    day += timedelta(days=(0 - day.weekday()) % 7)
    return datetime(day.year, day.month, day.day, 10, tzinfo=SHANGHAI)


@pytest.fixture
def demo_at_monday(db, demo_items, demo_user, monday):
    """The demo activities loaded (and embedded) as if on ``monday``."""
    from activities.demo import load_demo_activities

    created, totals = load_demo_activities(demo_items, creator=demo_user, now=monday)
    assert totals.errors == 0
    return created


def test_friday_evening_lively_never_returns_saturday(demo_at_monday, monday):
    outcome = activities_search(semantic_query="周五晚上热闹的地方", limit=20, now=monday)
    time = outcome["meta"]["understood"]["time"]
    assert time["phrase"] == "周五晚上" and time["applied"] == "filter"
    assert outcome["results"]
    for result in outcome["results"]:
        start = local(result["startAt"])
        assert start.weekday() == 4 and start.hour >= 18, result
        assert "周六" not in result["matchReason"]
        assert "「周五晚上」" in result["matchReason"]


def test_a_time_phrase_with_nothing_inside_ranks_by_closeness(demo_at_monday, monday):
    # Nothing starts between midnight and 06:00 tomorrow: the filter is kept, time ranks.
    outcome = activities_search(semantic_query="明天凌晨热闹的地方", limit=5, now=monday)
    time = outcome["meta"]["understood"]["time"]
    assert time["applied"] == "rank"
    assert outcome["results"]
    assert all("没有合适的" in r["matchReason"] for r in outcome["results"])


def test_ranking_by_time_reads_one_rerank_pool_not_a_multiple_of_it(
    demo_at_monday, monday, vector_search_k
):
    from activities.search import TIME_RANK_POOL

    outcome = activities_search(semantic_query="明天凌晨热闹的地方", limit=8, now=monday)
    assert outcome["meta"]["understood"]["time"]["applied"] == "rank"
    assert vector_search_k == [8 * TIME_RANK_POOL] and len(outcome["results"]) <= 8


def test_tonight_only_is_ordered_by_time_without_embedding(demo_at_monday, monday, monkeypatch):
    from activities import search

    def refuse(*args, **kwargs):
        raise AssertionError("a query that is only a time phrase embeds nothing")

    monkeypatch.setattr(search, "embed_query", refuse)
    outcome = activities_search(semantic_query="下周", limit=50, now=monday)
    assert outcome["meta"]["path"] == "hard_filter_sorted"
    starts = [local(r["startAt"]) for r in outcome["results"]]
    assert starts == sorted(starts)
    assert all(s.date() >= (monday + timedelta(days=7)).date() for s in starts)


def test_next_week_through_the_endpoint_stays_in_the_window(api_client, demo_activities):
    response = post(api_client, {"semanticQuery": "下周热闹的地方", "limit": 10})
    assert response.status_code == 200, response.content
    understood = response.json()["meta"]["understood"]
    assert understood["language"] == "zh"
    assert understood["moods"] == ["热闹"]
    assert understood["rest"] == "热闹的地方"
    time = understood["time"]
    assert time["applied"] == "filter"
    start, end = datetime.fromisoformat(time["start"]), datetime.fromisoformat(time["end"])
    results = response.json()["results"]
    assert results
    for result in results:
        assert start <= datetime.fromisoformat(result["startAt"]) < end


@pytest.mark.parametrize(
    "query",
    [
        "今晚放松一下",
        "明天下午学点东西",
        "这周末带孩子",
        "周五晚上热闹的地方",
        "下周读书会",
        # Parts of the day narrow their day (rag.understand.words.PARTS_OF_DAY).
        "周六上午运动",
        "明天下班后放松一下",
        "周四午休时间",
        "Saturday morning, something active",
        "Monday after work, something relaxing",
        "tomorrow lunchtime, any music?",
    ],
)
def test_every_result_of_a_narrowed_time_query_starts_in_the_stated_window(
    demo_at_monday, monday, query
):
    outcome = activities_search(semantic_query=query, limit=20, now=monday)
    time = outcome["meta"]["understood"]["time"]
    if time["applied"] != "filter":  # ranked by closeness: no narrowed window is stated
        assert time["applied"] == "rank" and time["reason"]
        return
    start, end = datetime.fromisoformat(time["start"]), datetime.fromisoformat(time["end"])
    for result in outcome["results"]:
        assert start <= datetime.fromisoformat(result["startAt"]) < end, result["title"]


# Four rows on Monday evening (more than the few the search returns unranked, SMALL_RESULT),
# none of them restful; a restful one that Monday morning, outside "after work" (RESTFUL).
MONDAY_EVENING_ROWS = [
    ("创业者路演夜｜种子轮项目交流", "社交", ["创业", "路演"]),
    ("季度个税申报讲座", "讲座", ["个税", "财务"]),
    ("七人制足球联赛淘汰赛", "运动", ["足球", "比赛"]),
    ("电音派对｜地下室蹦迪", "派对", ["电音", "蹦迪"]),
]


RESTFUL = {
    "zh": ("阴瑜伽与呼吸放松", "慢节奏的阴瑜伽，放松肩颈，身体扫描，适合久坐的上班族。"),
    "en": ("Yin yoga: slow stretch", "A slow, restful yoga class to unwind after a long week."),
}


@pytest.mark.parametrize(
    ("query", "lang", "mark"),
    [
        ("周一下班后放松一下", "zh", "「周一下班后」没有合适的"),
        ("Monday after work, help me unwind", "en", "nothing fits"),
    ],
)
def test_a_part_of_the_day_with_nothing_close_answers_the_closest_outside_it_marked(
    make_activity, django_capture_on_commit_callbacks, query, lang, mark
):
    from tests.conftest import FIXED_NOW

    monday = (FIXED_NOW + timedelta(days=5)).replace(hour=0)  # FIXED_NOW is a Wednesday
    restful, about = RESTFUL[lang]
    with django_capture_on_commit_callbacks(execute=True):
        for hour, (title, kind, tags) in enumerate(MONDAY_EVENING_ROWS):
            make_activity(
                title=title,
                type=kind,
                tags=tags,
                description=title,
                start_at=monday.replace(hour=19 + hour),
            )
        make_activity(
            title=restful,
            description=about,
            type="冥想",
            tags=["瑜伽", "放松"],
            start_at=monday.replace(hour=8),
        )
    outcome = activities_search(semantic_query=query, limit=10, now=FIXED_NOW)
    time = outcome["meta"]["understood"]["time"]
    # The part of the day narrowed Monday to its evening; nothing there fits, so the answer is
    # the closest rows outside it, each saying so, not an empty list.
    assert local(time["start"]).hour >= 17 and local(time["start"]).weekday() == 0
    assert time["applied"] == "rank", outcome["meta"]
    assert time["reason"].startswith("nothing in the window fits")
    assert outcome["results"], outcome["meta"]
    assert outcome["results"][0]["title"] == restful
    assert mark in outcome["results"][0]["matchReason"]


def test_the_few_rows_a_part_of_the_day_leaves_come_by_meaning(
    make_activity, django_capture_on_commit_callbacks
):
    from tests.conftest import FIXED_NOW

    monday = (FIXED_NOW + timedelta(days=5)).replace(hour=0)  # FIXED_NOW is a Wednesday
    rows = [
        # Holds the query's word 东西 but is not making anything; first by the words shared.
        ("二手东西交换会", "社交", ["二手", "交换"], "带上闲置的二手物品来换换。"),
        ("七人制足球联赛淘汰赛", "运动", ["足球", "比赛"], "淘汰赛，欢迎来看球。"),
        ("陶艺拉坯体验课", "体验", ["陶艺", "拉坯"], "老师带你亲手拉坯，做一只自己的杯子带回家。"),
    ]
    with django_capture_on_commit_callbacks(execute=True):
        for hour, (title, kind, tags, about) in enumerate(rows):
            make_activity(
                title=title,
                type=kind,
                tags=tags,
                description=about,
                start_at=monday.replace(hour=19 + hour),
            )
    outcome = activities_search(semantic_query="周一下班后想亲手做点东西", limit=10, now=FIXED_NOW)
    assert outcome["meta"]["path"] == "hard_filter_small"
    assert outcome["meta"]["understood"]["time"]["applied"] == "filter"
    assert outcome["results"][0]["title"] == "陶艺拉坯体验课"


def test_the_few_rows_passing_come_with_what_the_query_names_first(db, make_activity):
    for title, kind in (
        ("大学路夜市吃喝逛", "美食"),
        ("游泳约练", "运动"),
        ("爵士酒吧现场", "音乐"),
    ):
        make_activity(title=title, type=kind, tags=[kind], description="")
    outcome = activities_search(semantic_query="想听音乐现场", limit=10)
    assert outcome["meta"]["path"] == "hard_filter_small"
    assert outcome["meta"]["understood"]["kinds"] == ["音乐"]
    assert [r["title"] for r in outcome["results"]][0] == "爵士酒吧现场"


def test_the_window_is_cut_to_the_requests_time_range(api_client, make_activity):
    from django.utils import timezone

    today = timezone.now().astimezone(SHANGHAI).date()
    monday = today + timedelta(days=(7 - today.weekday()))  # next week's Monday
    for days in (0, 1):
        day = monday + timedelta(days=days)
        make_activity(
            title=f"桌游 {days}", start_at=datetime(*day.timetuple()[:3], 20, tzinfo=SHANGHAI)
        )
    response = post(
        api_client,
        {
            "semanticQuery": "下周的桌游",
            "filters": {
                "timeRange": {
                    "start": f"{monday.isoformat()}T00:00:00+08:00",
                    "end": f"{monday.isoformat()}T23:59:59+08:00",
                }
            },
        },
    )
    assert response.status_code == 200, response.content
    time = response.json()["meta"]["understood"]["time"]
    assert time["applied"] == "filter"
    assert local(time["start"]).date() == monday
    assert local(time["end"]) <= datetime(*monday.timetuple()[:3], 23, 59, 59, tzinfo=SHANGHAI)
    results = response.json()["results"]
    assert [local(r["startAt"]).date() for r in results] == [monday]


def test_english_query_gets_english_reasons(api_client, demo_activities):
    response = post(api_client, {"semanticQuery": "water sports next week", "limit": 5})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["meta"]["understood"]["language"] == "en"
    assert body["meta"]["understood"]["time"]["phrase"] == "next week"
    for result in body["results"]:
        reason = result["matchReason"]
        assert reason[0].isupper() and reason.endswith(".")
        outside_quotes = re.sub(r'"[^"]*"', "", reason)
        assert not HAN.search(outside_quotes), reason


def test_spicy_reason_mentions_spicy(api_client, demo_activities):
    response = post(api_client, {"semanticQuery": "想吃辣的", "limit": 5})
    assert response.status_code == 200
    reasons = [r["matchReason"] for r in response.json()["results"]]
    assert reasons and "辣" in reasons[0]


def test_nearby_with_a_location_filters_within_the_default_radius(api_client, demo_activities):
    from activities.understanding import NEARBY_RADIUS_KM

    response = post(
        api_client,
        {
            "semanticQuery": "附近能放松的地方",
            "filters": {"location": {"lat": 31.2304, "lng": 121.4737}},
            "limit": 50,
        },
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["meta"]["understood"]["place"] == {
        "phrase": "附近",
        "applied": "radius",
        "radiusKm": NEARBY_RADIUS_KM,
    }
    assert body["results"]
    assert all(r["distanceKm"] <= NEARBY_RADIUS_KM for r in body["results"])


def test_nearby_without_a_location_says_unknown(api_client, demo_activities):
    body = post(api_client, {"semanticQuery": "附近的桌游"}).json()
    assert body["meta"]["understood"]["place"]["applied"] == "unknown"
    assert body["results"]


def test_few_results_say_they_are_all_that_pass(api_client, demo_activities):
    body = post(
        api_client, {"semanticQuery": "安静读书", "filters": {"type": "社交"}, "limit": 5}
    ).json()
    assert body["meta"]["path"] == "hard_filter_small"
    assert body["results"]
    for result in body["results"]:
        assert "符合筛选条件的只有这" in result["matchReason"]
        assert "意思相近" not in result["matchReason"]


def test_time_zone_is_the_users(api_client, demo_activities):
    body = post(api_client, {"semanticQuery": "tomorrow", "timeZone": "America/New_York"}).json()
    start = datetime.fromisoformat(body["meta"]["understood"]["time"]["start"])
    assert start.utcoffset() in (timedelta(hours=-5), timedelta(hours=-4))
    assert (start.hour, start.minute) == (0, 0)


@pytest.mark.parametrize("zone", ["Mars/Olympus", "../etc/passwd", "x" * 65, 5])
def test_an_unknown_time_zone_is_a_400(api_client, db, zone):
    response = post(api_client, {"semanticQuery": "今晚", "timeZone": zone})
    assert response.status_code == 400
    assert set(response.json()["error"]) == {"code", "message", "details"}


def test_no_time_phrase_leaves_time_null(api_client, demo_activities):
    body = post(api_client, {"semanticQuery": "玩水"}).json()
    assert body["meta"]["understood"]["time"] is None
    assert body["meta"]["understood"]["place"] is None


def test_the_schema_describes_meta_understood():
    from tests.fuzz.world import load_schema

    schema = load_schema()
    components = schema["components"]["schemas"]
    meta = components["SearchMeta"]["properties"]
    assert "understood" in meta
    understood = components["Understood"]["properties"]
    assert {"language", "time", "place", "kinds", "moods", "rest"} <= set(understood)
    time = components["UnderstoodTime"]["properties"]
    applied = time["applied"]["allOf"][0]["$ref"].rsplit("/", 1)[1]
    assert set(components[applied]["enum"]) == {"filter", "rank"}
    assert "timeZone" in components["SearchInputRequest"]["properties"]
