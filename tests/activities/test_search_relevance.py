"""The relevance cut in POST /rag/search: off-topic answers nothing, on-topic keeps its rows."""

from __future__ import annotations

import zoneinfo
from datetime import datetime

import pytest
from django.utils import timezone, translation
from django.utils.translation import gettext

from activities.models import Activity, ActivityStatus
from activities.search import activities_search
from activities.search_relevance import (
    KEEP_BEST,
    answer_question,
    asks_elsewhere,
    asks_for_activity,
    stated_need,
    time_request,
)
from activities.understanding import read_query
from rag import background
from rag.embeddings import embed_texts
from rag.relevance import NOISE_REASON

# Relevance: these tests rank by meaning, so they need the real model (docs/DEVELOPING.md).
pytestmark = [pytest.mark.django_db, pytest.mark.real_model]


@pytest.mark.parametrize("query", ["量子力学考试复习", "买房贷款咨询"])
def test_off_topic_query_answers_an_empty_list_with_a_reason(api_client, demo_activities, query):
    response = api_client.post("/rag/search", {"semanticQuery": query, "limit": 10}, format="json")
    body = response.json()
    assert response.status_code == 200
    assert body["results"] == []
    assert body["meta"]["reason"]
    assert body["meta"]["relevance"]["offTopic"] is True


def test_keyboard_noise_answers_an_empty_list_with_its_own_reason(api_client, demo_activities):
    from rag.relevance import NOISE_REASON

    response = api_client.post(
        "/rag/search", {"semanticQuery": "zzzz qwerty", "limit": 10}, format="json"
    )
    body = response.json()
    assert response.status_code == 200 and body["results"] == []
    assert body["meta"]["reason"] == NOISE_REASON
    assert body["meta"]["relevance"]["noise"] is True


def test_a_query_naming_what_the_rows_have_is_reported_with_evidence(demo_activities):
    outcome = activities_search(semantic_query="玩水", limit=10)
    assert outcome["meta"]["relevance"]["evidence"] is True


def test_on_topic_query_keeps_its_rows_and_says_no_reason(api_client, demo_activities):
    body = api_client.post(
        "/rag/search", {"semanticQuery": "玩水", "limit": 10}, format="json"
    ).json()
    # The six water activities; the list stops where they stop (limit is a maximum).
    assert 5 <= len(body["results"]) < 10
    assert body["meta"]["reason"] is None
    assert body["meta"]["relevance"]["offTopic"] is False


def test_narrow_filter_still_returns_its_relevant_rows(demo_activities):
    joinable = Activity.objects.filter(type="水上", status=ActivityStatus.ACTIVE)
    expected = {a.title for a in joinable if not a.is_full}
    outcome = activities_search(semantic_query="玩水", filters={"type": "水上"}, limit=10)
    assert outcome["meta"]["path"] == "semantic"
    assert {r["title"] for r in outcome["results"]} == expected


def test_cut_is_skipped_when_the_reference_sample_cannot_be_embedded(demo_activities, monkeypatch):
    from rag.embeddings import ProviderError

    def down():
        raise ProviderError("reference sample unavailable")

    monkeypatch.setattr(background, "reference_vectors", down)
    outcome = activities_search(semantic_query="量子力学考试复习", limit=5)
    assert len(outcome["results"]) == 5
    assert outcome["meta"]["relevance"] is None


def test_a_yes_no_question_answers_an_empty_list_with_its_own_reason(api_client, demo_activities):
    from rag.relevance import QUESTION_REASON

    response = api_client.post(
        "/rag/search", {"semanticQuery": "孕期可以喝咖啡吗", "limit": 10}, format="json"
    )
    body = response.json()
    assert response.status_code == 200 and body["results"] == []
    # A Chinese query is told why in Chinese, whatever the client's Accept-Language.
    with translation.override("zh-hans"):
        assert body["meta"]["reason"] == gettext(QUESTION_REASON) != QUESTION_REASON


def test_an_english_query_is_told_why_in_english(api_client, demo_activities):
    response = api_client.post(
        "/rag/search",
        {"semanticQuery": "zzzz qwerty", "limit": 10},
        format="json",
        HTTP_ACCEPT_LANGUAGE="zh-Hans",
    )
    assert response.json()["meta"]["reason"] == NOISE_REASON


@pytest.mark.parametrize(
    "query", ["可以带孩子去玩水吗", "能学游泳吗", "can I join a hiking group?"]
)
def test_a_yes_no_question_naming_activities_is_still_searched(demo_activities, query):
    from rag.relevance import QUESTION_REASON

    outcome = activities_search(semantic_query=query, limit=10)
    assert outcome["meta"]["reason"] != QUESTION_REASON


def _a_day_with_few_rows(demo_activities):
    """Return (month, day, titles) of the first coming day on which 1-3 demo rows start."""
    from collections import defaultdict

    from django.utils import timezone

    days = defaultdict(list)
    for activity in Activity.objects.filter(status=ActivityStatus.ACTIVE):
        if not activity.is_full and activity.start_at > timezone.now():
            days[timezone.localtime(activity.start_at).date()].append(activity.title)
    day = min(d for d, titles in days.items() if 1 <= len(titles) <= 3)
    return day.month, day.day, days[day]


def test_a_time_phrase_leaving_few_rows_still_answers_an_off_topic_query_empty(demo_activities):
    month, day, _ = _a_day_with_few_rows(demo_activities)
    outcome = activities_search(semantic_query=f"{month}月{day}日量子力学考试复习", limit=10)
    assert outcome["meta"]["path"] == "hard_filter_small"
    assert outcome["results"] == []
    assert outcome["meta"]["reason"] and outcome["meta"]["relevance"]["offTopic"] is True


def test_a_time_phrase_leaving_few_rows_keeps_them_for_a_query_that_fits(demo_activities):
    month, day, titles = _a_day_with_few_rows(demo_activities)
    outcome = activities_search(semantic_query=f"{month}月{day}日{titles[0]}", limit=10)
    assert outcome["meta"]["path"] == "hard_filter_small"
    assert titles[0] in [r["title"] for r in outcome["results"]]
    assert outcome["meta"]["reason"] is None


def test_a_time_phrase_leaving_few_rows_reports_the_query_level_decision(demo_activities):
    # The small path judges the query against every joinable row, as the full path does, and
    # says what it read (intent margin, best margin) even when it shows the few rows.
    month, day, titles = _a_day_with_few_rows(demo_activities)
    outcome = activities_search(semantic_query=f"{month}月{day}日{titles[0]}", limit=10)
    assert outcome["meta"]["path"] == "hard_filter_small"
    decision = outcome["meta"]["relevance"]
    assert decision["offTopic"] is False and decision["dropped"] == 0
    assert decision["intentMargin"] is not None and decision["topMargin"] is not None


@pytest.mark.parametrize("ask", ["{m}月{d}日公积金贷款额度", "{m}月{d}日的股票行情"])
def test_a_time_phrase_leaving_few_rows_answers_a_request_for_something_else_empty(
    demo_activities, ask
):
    from rag.relevance import INTENT_REASON

    month, day, _ = _a_day_with_few_rows(demo_activities)
    outcome = activities_search(semantic_query=ask.format(m=month, d=day), limit=10)
    assert outcome["meta"]["path"] == "hard_filter_small"
    assert outcome["results"] == []
    assert outcome["meta"]["reason"] == INTENT_REASON
    assert outcome["meta"]["relevance"]["intentMargin"] > outcome["meta"]["relevance"]["intentGate"]


def test_a_time_phrase_leaving_few_rows_answers_a_booking_at_a_business_empty(demo_activities):
    # A booking is for the business to take (rag.understand.bookings, read as a piece of work
    # asked for); its time phrase leaving a few rows does not make it a request for them.
    from rag.relevance import QUESTION_REASON

    month, day, _ = _a_day_with_few_rows(demo_activities)
    outcome = activities_search(
        semantic_query=f"{month}月{day}日帮我在饭店订一桌，六个人", limit=10
    )
    assert outcome["meta"]["path"] == "hard_filter_small"
    assert outcome["results"] == []
    assert outcome["meta"]["reason"] == QUESTION_REASON


@pytest.mark.parametrize(
    "query", ["book a table for four on saturday night", "帮我订个餐厅 周五晚上六个人"]
)
def test_a_booking_at_a_business_answers_an_empty_list(demo_activities, query):
    from rag.relevance import QUESTION_REASON

    outcome = activities_search(semantic_query=query, limit=10)
    assert outcome["results"] == []
    assert outcome["meta"]["reason"] == QUESTION_REASON


@pytest.mark.parametrize("query", ["book club", "帮我订两张周六的话剧票"])
def test_a_request_for_something_to_do_naming_a_booking_word_is_searched(demo_activities, query):
    from rag.relevance import QUESTION_REASON

    outcome = activities_search(semantic_query=query, limit=10)
    assert outcome["meta"]["reason"] != QUESTION_REASON


@pytest.mark.parametrize("query", ["今天股票怎么样", "mortgage rates this month"])
def test_a_request_for_something_else_answers_an_empty_list_with_its_own_reason(
    demo_activities, query
):
    from rag.relevance import INTENT_REASON

    outcome = activities_search(semantic_query=query, limit=10)
    assert outcome["results"] == []
    assert outcome["meta"]["reason"] == INTENT_REASON


@pytest.mark.parametrize("query", ["公积金怎么提取", "暖气不热找谁", "这两天降温不"])
def test_paperwork_a_fault_at_home_or_the_weather_asked_answers_an_empty_list(
    demo_activities, query
):
    # Session 48: read by their form (rag.understand.troubles, rag.understand.weather), not
    # left to the intent gate.
    from rag.relevance import QUESTION_REASON

    outcome = activities_search(semantic_query=query, limit=10)
    assert outcome["results"] == []
    assert outcome["meta"]["reason"] == QUESTION_REASON


@pytest.mark.parametrize("query", ["压力大想出去走走", "feeling stressed, something calming"])
def test_a_request_for_something_to_do_is_not_read_as_one_for_something_else(
    demo_activities, query
):
    outcome = activities_search(semantic_query=query, limit=10)
    assert outcome["results"]
    assert outcome["meta"]["reason"] is None


@pytest.mark.parametrize(
    ("ask", "read_by"),
    [("{m}月{d}日天气怎么样", "question"), ("{m}月{d}日的股票行情", "intent")],
)
def test_a_request_for_something_else_with_a_time_phrase_is_not_widened(
    demo_activities, ask, read_by
):
    # The weather question is read by its form (rag.understand.weather), the stock prices by
    # the intent examples; neither is widened to other days.
    from rag.relevance import INTENT_REASON, QUESTION_REASON

    month, day, _ = _a_day_with_few_rows(demo_activities)
    outcome = activities_search(semantic_query=ask.format(m=month, d=day), limit=10)
    assert outcome["results"] == []
    reason = QUESTION_REASON if read_by == "question" else INTENT_REASON
    assert outcome["meta"]["reason"] == reason


def test_the_intent_examples_hold_requests_in_both_languages():
    from activities.search_relevance import INTENT_OFF, INTENT_ON
    from rag.intent import example_texts

    for path in (INTENT_ON, INTENT_OFF):
        texts = example_texts(path)
        assert any(text.isascii() for text in texts)
        assert any(not text.isascii() for text in texts)


def test_a_padded_tail_is_cut_while_the_best_hits_stay(demo_activities):
    # Two hotpot rows answer it; the food rows after them share a word or cue of the query but
    # stand far below the best hit's margin: the list stops soon after the hotpots (at the
    # KEEP_BEST minimum), not at the limit. The extra-spicy hotpot is what the query refuses
    # (不吃辣, read by meaning): it stays in the list, not necessarily second.
    outcome = activities_search(semantic_query="不吃辣也能吃火锅", limit=10)
    found = [r["title"] for r in outcome["results"]]
    assert found[0] == "潮汕牛肉火锅｜不吃辣也能吃"
    assert "重庆火锅局｜能吃辣的来" in found
    assert len(found) <= 4


def test_an_exact_best_hit_does_not_stop_the_list_at_one_row(demo_activities):
    # A cut relative to the best hit kept only the ukulele class; relative to the query's own
    # candidates the other music rows stand out too, and an on-topic query shows at least
    # KEEP_BEST rows, the best one first.
    outcome = activities_search(semantic_query="学乐器", limit=10)
    found = [r["title"] for r in outcome["results"]]
    assert KEEP_BEST <= len(found) < 10
    assert found[0] == "尤克里里零基础弹唱"


@pytest.mark.parametrize("query", ["rainy day plans", "下雨天有什么好去处"])
def test_a_request_set_on_a_rainy_day_is_not_read_as_one_for_the_weather(demo_activities, query):
    outcome = activities_search(semantic_query=query, limit=10)
    assert outcome["results"]
    assert outcome["meta"]["reason"] is None


@pytest.mark.parametrize("query", ["明天冷不冷 要穿羽绒服吗", "will it rain on saturday"])
def test_a_weather_question_answers_an_empty_list(demo_activities, query):
    from rag.relevance import QUESTION_REASON

    outcome = activities_search(semantic_query=query, limit=10)
    assert outcome["results"] == []
    assert outcome["meta"]["reason"] == QUESTION_REASON


@pytest.mark.parametrize(
    ("query", "asks"),
    [
        ("kunqu opera perfomance", "kind"),
        ("want to brush up on my cupla focal", "learning"),
        ("想学点新东西", "learning"),
        ("周二午饭约一个", "company"),
        ("who wants to join me this saturday", "company"),
    ],
)
def test_a_request_naming_a_kind_or_to_learn_is_kept_from_the_intent_gate(
    demo_activities, query, asks
):
    # A misspelt or unknown word moves a query's meaning towards the requests for something
    # else; what the query's own words ask for says it is a request for something to do. Its
    # intent margin is still measured: the margin gates read it as any query's (session 46).
    from rag.relevance import INTENT_REASON

    outcome = activities_search(semantic_query=query, limit=10)
    assert outcome["meta"]["relevance"]["asks"] == asks
    assert outcome["meta"]["relevance"]["intentMargin"] is not None
    assert outcome["meta"]["reason"] != INTENT_REASON


def test_a_refusal_does_not_make_a_request_for_something_else_one_for_activities(
    demo_activities,
):
    # "not working" refuses nothing a listing offers: the query is still read against the
    # requests for something else (session 41 tried skipping that gate for every refusing
    # request; it answered problems and shopping questions with rows).
    outcome = activities_search(semantic_query="my phone is not working", limit=10)
    assert outcome["meta"]["relevance"]["asks"] is None
    assert outcome["meta"]["relevance"]["intentMargin"] is not None


def test_a_request_for_something_else_is_still_read_against_the_intent_examples(
    demo_activities,
):
    outcome = activities_search(semantic_query="公积金怎么提取", limit=10)
    assert outcome["meta"]["relevance"]["asks"] is None
    assert outcome["meta"]["relevance"]["intentMargin"] is not None


def test_an_errand_word_under_a_refusal_asks_for_no_errand():
    assert not asks_elsewhere("food stuff with no booze, not drinking atm")
    assert asks_elsewhere("where is the nearest atm")


def test_a_joke_asked_of_the_assistant_is_elsewhere_unless_an_activity_word_names_an_outing():
    # Session 47: 「无聊 跟我讲个笑话」 had been answered with listings (its 无聊 reads as a need).
    assert asks_elsewhere("无聊 跟我讲个笑话")
    assert not asks_elsewhere("想听人讲个笑话 去哪看脱口秀")


def test_a_shop_by_its_distance_is_elsewhere_unless_it_names_a_kind_of_activity():
    # Session 43: a chain store asked for by distance is an errand; an ice rink is skating.
    assert asks_elsewhere("nearest tim hortons, need a double-double")
    assert asks_elsewhere("离我最近的超市在哪")
    assert not asks_elsewhere("closest ice rink")


@pytest.mark.parametrize(
    "query",
    [
        "nearest park?",
        "where's the nearest bar?",
        "nearest pub?",
        "最近的公园在哪",
        "最近的酒吧在哪",
        # Read by the activity query reader, not by the errand form's own outing places: a
        # mood (美食) and a kind (美食).
        "最近的咖啡馆在哪",
        "nearest restaurant?",
    ],
)
def test_an_outing_asked_for_by_its_distance_is_a_search(query):
    # Session 43 audit: the shop form had taken these for errands.
    assert not asks_elsewhere(query)


@pytest.mark.parametrize(
    "query",
    [
        "nearest tim hortons, need a double-double",
        "closest pharmacy?",
        "where's the nearest 7-eleven",
        "离我最近的超市在哪",
        "最近的便利店怎么走",
    ],
)
def test_a_shop_asked_for_by_its_distance_stays_an_errand(query):
    assert asks_elsewhere(query)


def test_a_chinese_query_over_english_listings_keeps_what_the_model_finds_close(
    make_activity, django_capture_on_commit_callbacks
):
    # Issue 30, session 42: no word of a Chinese query can be in an English listing, so the cut
    # reads each such listing as it reads one naming the query (its evidence is unread, not
    # missing): the bare gate and the evidence-free pool rule, which cut such lists to the
    # model's best one or three, do not apply.
    titles = [
        "Sushi rolling class for beginners",
        "Make your own ramen from scratch",
        "Pottery wheel taster",
        "Salsa social night",
        "Sunrise yoga in the park",
        "Board games night in a cafe",
        "Beginner bouldering session",
        "Ukulele class for absolute beginners",
        "Beach clean-up morning",
        "Quiz night at the pub",
        "Street photography walk",
        "Knitting circle at the library",
    ]
    with django_capture_on_commit_callbacks(execute=True):
        for title in titles:
            make_activity(title=title, description=title + ".", type="Other", tags=[])
    out = activities_search(semantic_query="想学做日本料理", limit=10)
    relevance = out["meta"]["relevance"]
    assert relevance["offTopic"] is False
    assert relevance["evidence"] is True
    shown = [r["title"] for r in out["results"]]
    assert "Sushi rolling class for beginners" in shown


@pytest.mark.parametrize(
    "query",
    [
        "my phone is not working",
        # 「推荐个手机 不要苹果」 left this list in session 50: over the demo catalogue its best
        # hit (the phone photography class) holds 手机, held by 2 of 83 listings, and stands
        # out (3.5), so the rare-word rule answers it (docs/RELEVANCE.md, "Requests in words
        # the gate does not know": the rule's known cost, kept for the lead's decision).
        "laptop recommendations but not apple",
        "找工作 不要加班的",
    ],
)
def test_requests_for_something_else_with_a_refusal_are_answered_empty(demo_activities, query):
    # Session 41's narrowed-request exemption answered these with rows; no form of session 42
    # (company, opinions, small talk) reads them as requests for something to do. (The vector
    # may read 「找工作 不要加班的」 as a need, session 47: that keeps a query from the intent
    # gate only, which does not empty it; the answer stays empty.)
    outcome = activities_search(semantic_query=query, limit=10)
    assert asks_for_activity(query, _read(query)) is None
    assert outcome["results"] == []


@pytest.mark.parametrize(
    "query", ["chope seat with tissue paper is rude or not ah", "用纸巾占座算不算没礼貌"]
)
def test_a_question_of_manners_answers_an_empty_list(demo_activities, query):
    from rag.relevance import QUESTION_REASON

    outcome = activities_search(semantic_query=query, limit=10)
    assert outcome["results"] == []
    assert outcome["meta"]["reason"] == QUESTION_REASON


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("今天早上有什么", True),  # the morning is over at 10:00: the time is ignored
        ("明晚有啥", True),
        ("what's on tonight", True),
        ("今天有什么新闻", False),
        ("今天股票怎么样", False),
        ("tomorrow", False),
        ("anything on saturday", True),
        ("下周有啥好玩的", True),
        ("周末有什么有意思的推荐", True),
        ("anything fun this weekend?", True),
        # "what's" / "what is" alone asks what the day is (session 42 audit).
        ("what is thanksgiving", False),
        ("what is christmas", False),
        ("what's today", False),
        ("what is tomorrow", False),
        ("what is dec 5", False),
    ],
)
def test_a_time_and_what_is_there_only_is_a_request_for_something_to_do(query, expected):
    tz = zoneinfo.ZoneInfo("Asia/Shanghai")
    understood = read_query(query, now=datetime(2026, 11, 25, 10, 0, tzinfo=tz), tz=tz)
    assert time_request(understood) is expected
    if expected:
        assert asks_for_activity(query, understood) == "time"


def _read(query):
    tz = zoneinfo.ZoneInfo("Asia/Shanghai")
    return read_query(query, now=datetime(2026, 11, 25, 10, 0, tzinfo=tz), tz=tz)


@pytest.mark.parametrize(
    "query",
    [
        # Asking the assistant what to find, a budget, a plan "ok or not" (session 42 audit).
        "你觉得这周末有什么演出",
        "你觉得周末哪个展值得",
        "你觉得附近哪家咖啡馆好",
        "预算合适的音乐节",
        "jazz tonight ok or not",
        # A judgement of a kind of activity asked about: an outing.
        "do you like board games? any nights this week",
        "周末的脱口秀 会不会很尴尬",
        # A studio, recruiting partners or volunteers, volunteering: no job.
        "找工作室拍写真",
        "找个工作室做陶艺",
        "招人一起打球",
        "招人组队爬山",
        "招聘志愿者",
        "need work experience volunteering",
        "want work-life balance",
        # A meal named, not "have you eaten"; what to bring, not the weather.
        "makan",
        "makan one",
        "had lunch",
        "ate",
        "要不要带泳衣",
        "用不用带装备",
        "需不需要穿正装",
        "要不要带孩子",
    ],
)
def test_requests_for_something_to_do_are_not_read_as_asking_for_an_answer(query):
    assert not answer_question(query, _read(query))


@pytest.mark.parametrize(
    "query",
    [
        "chope seat with tissue paper is rude or not ah",
        "用纸巾占座算不算没礼貌",
        "hello bot, you eaten already?",
        "你是机器人吗 陪我唠会儿",
        "找工作 不要加班的",
        "公司招人吗",
        "青岛这两天风多大 要不要穿羽绒服",
    ],
)
def test_the_questions_those_rules_were_made_for_still_ask_for_an_answer(query):
    assert answer_question(query, _read(query))


@pytest.mark.parametrize(
    "query",
    [
        "约个牙医",
        "约个医生看病",
        "约个律师咨询",
        "约个体检",
        "约个搬家师傅",
        "约个保洁阿姨",
        "找人陪诊",
        "有没有人一起拼车去机场",
        "有人一起合租吗",
        "找个室友搭子",
        "anyone up for carpooling to the airport",
        "anyone free for a loan",
        "people free for a survey",
        "looking for someone to clean my house",
        "looking for a partner to start a business",
        "my phone is not working",
        "推荐个手机 不要苹果",
        "laptop recommendations but not apple",
    ],
)
def test_appointments_services_and_shares_are_still_read_against_the_intent_examples(query):
    # Session 42 audit: 约个 books an appointment, "anyone up for" a carpool or a loan.
    assert asks_for_activity(query, _read(query)) is None


@pytest.mark.parametrize(
    ("query", "asks"),
    [
        ("周二午饭约一个", "company"),
        ("anyone up for badminton", "kind"),
        # The alternative names no kind, so not "kind"; badminton is what the company is for.
        ("anyone up for badminton or something", "company"),
        ("where got snow skiing in singapore this december", "kind"),
    ],
)
def test_company_for_a_meal_or_an_activity_and_a_kind_still_skip_the_intent_gate(query, asks):
    assert asks_for_activity(query, _read(query)) == asks


@pytest.mark.parametrize(
    "query",
    [
        "my dog is bored lol",
        "娃在家憋坏了 这个星期六星期天能去哪",
        "带我爸去哪转转",
        "train mad 6 year old",
    ],
)
def test_where_someone_or_a_pet_can_go_skips_the_intent_gate(query):
    # Session 45: fresh14's first two read past the intent gate and were answered empty;
    # session 54: fresh24's child and what they love, too.
    assert asks_for_activity(query, _read(query)) == "outing"


def test_a_pet_that_needs_a_vet_asks_for_no_outing():
    assert asks_for_activity("my dog is restless, which vet is open", None) is None


@pytest.mark.parametrize(
    ("query", "evidence"),
    [("ktv", {"KTV 欢唱夜"}), ("diy", {"周末烘焙课"})],
)
def test_the_cut_reads_an_unread_listing_as_one_naming_the_query(monkeypatch, query, evidence):
    # Audit, session 42: "ktv" and "diy" read as English over a Chinese catalogue. "ktv" is
    # held by 「KTV 欢唱夜」: no hit is unread (the cut reads each without it as naming nothing);
    # "diy" by none: only the listing holding no Latin is unread, and (session 43) the cut
    # reads it as a listing naming the query, its words being unreadable there. The margin's
    # lift still follows the titles' language (every one Chinese here).
    from types import SimpleNamespace

    from activities import search_relevance

    seen = {}

    def judge(vector, scores, surface, **kw):
        seen.update(kw)
        raise search_relevance.ProviderError("not embedded")  # every hit kept; kw recorded

    monkeypatch.setattr(search_relevance.relevance, "judge", judge)
    # The stand-in vector is no model's: the need reading (a dot product with the examples) is
    # not what this checks.
    monkeypatch.setattr(search_relevance, "stated_need", lambda query, vector: False)
    titles = ["KTV 欢唱夜", "周末烘焙课", "汉服 cosplay 外拍"]
    hits = [
        SimpleNamespace(
            obj=SimpleNamespace(pk=i, title=t, type="娱乐", tags=[], vibes=[]), score=0.8
        )
        for i, t in enumerate(titles)
    ]
    understood = read_query(query, now=timezone.now(), tz=None)
    search_relevance.relevant_hits(hits, [0.0], {}, query=query, understood=understood)
    assert {t for t, has in zip(titles, seen["hit_evidence"], strict=True) if has} == evidence
    assert seen["evidence"] is True
    assert seen["crossing"] == [True, True, True]


@pytest.mark.parametrize(
    ("query", "types", "vouched"),
    [
        ("我妈六十多了 腿脚不利索 能去啥", ["健身", "长者"], True),
        ("我妈六十多了 腿脚不利索 能去啥", ["健身", "手作"], False),  # no row for her
        ("我妈腿脚不利索 吃什么药好", ["健身", "长者"], False),  # no outing asked
    ],
)
def test_an_outing_for_someone_a_best_hit_is_written_for_is_vouched(
    monkeypatch, query, types, vouched
):
    # Session 44: the query's health and family words read far from every row (the margin
    # gate emptied fresh13's); a best hit stating the audience vouches for it.
    from types import SimpleNamespace

    from activities import search_relevance

    seen = {}

    def judge(vector, scores, surface, **kw):
        seen.update(kw)
        raise search_relevance.ProviderError("not embedded")  # every hit kept; kw recorded

    monkeypatch.setattr(search_relevance.relevance, "judge", judge)
    hits = [
        SimpleNamespace(
            obj=SimpleNamespace(pk=i, title=f"活动{i}", type=t, tags=[], vibes=[], description=""),
            score=0.8,
        )
        for i, t in enumerate(types)
    ]
    understood = read_query(
        query, now=datetime(2026, 11, 25, 10, tzinfo=zoneinfo.ZoneInfo("Asia/Shanghai")), tz=None
    )
    search_relevance.relevant_hits(hits, [0.0], {}, query=query, understood=understood)
    assert seen["vouched"] is vouched


@pytest.mark.parametrize(
    ("query", "asks"),
    [
        ("my dog is bored lol", "outing"),
        ("need to burn some calories before the big dinner", "need"),
        ("孩子在家憋坏了 周末能去哪", "outing"),
        ("在家闷得慌 想出去透透气", "need"),
        ("我爸七十多了 有啥他能参加的", "outing"),
    ],
)
def test_a_stated_need_or_an_outing_for_someone_skips_the_intent_gate(query, asks):
    # Session 45: the ask is implicit; the dense model reads the pet, family or health words
    # near the intent examples for something else.
    assert asks_for_activity(query, _read(query)) == asks


@pytest.mark.parametrize(
    "query", ["why is my dog bored all the time", "how many calories does running burn"]
)
def test_a_question_about_a_need_is_still_read_against_the_intent_examples(query):
    assert asks_for_activity(query, _read(query)) is None


@pytest.mark.parametrize(
    "query", ["手冻得通红 想来点热乎的", "far from home on new year's eve, no plans"]
)
def test_a_need_or_a_situation_in_words_no_rule_lists_is_read_by_its_vector(query):
    (vector,) = embed_texts([query], role="query")
    assert stated_need(query, vector) is True


@pytest.mark.parametrize("query", ["how do I renew my passport", "手机屏幕碎了去哪修"])
def test_a_request_for_something_else_states_no_need(query):
    (vector,) = embed_texts([query], role="query")
    assert stated_need(query, vector) is False


def test_a_question_about_a_need_is_no_need_whatever_its_vector():
    query = "why are my hands always cold"
    (vector,) = embed_texts([query], role="query")
    assert stated_need(query, vector) is False


def test_a_need_read_by_its_vector_is_reported_as_the_reason_the_query_asks(demo_activities):
    outcome = activities_search(semantic_query="手冻得通红 想来点热乎的", limit=10)
    assert outcome["meta"]["relevance"]["asks"] == "need"


def test_need_examples_not_embedded_read_no_need(monkeypatch):
    from activities import search_relevance

    def down(vector):
        raise search_relevance.ProviderError("provider down")

    monkeypatch.setattr(search_relevance, "need_margin", down)
    assert search_relevance.stated_need("手冻得通红 想来点热乎的", [1.0, 0.0]) is False


def test_cantonese_tomorrow_is_no_listening():
    # 听日 / 听朝 / 听晚 are tomorrow, its morning and its evening (session 48: fresh8's
    # weather question was kept a request by 听, a verb of listening).
    assert asks_elsewhere("听日会唔会落雨")
    assert not asks_elsewhere("听日去边度玩")
    assert not asks_elsewhere("想听粤剧 听晚有冇")


@pytest.mark.parametrize(
    ("query", "form"),
    [
        ("can i bring the kelpie along to anything", "yes_no"),
        ("孕期可以喝咖啡吗", "yes_no"),
        ("how do i take the train from the airport to union station", "information"),
        ("book a table for four on saturday night", "elsewhere"),
        ("is there ice skating downtown?", None),
    ],
)
def test_the_question_form_names_the_reading_that_makes_a_query_a_question(query, form):
    from activities.search_relevance import question_form

    assert question_form(query, _read(query)) == form
    assert answer_question(query, _read(query)) is (form is not None)


@pytest.mark.parametrize("query", ["老乡 吃了没咧", "靓仔 食咗饭未啊", "嘛事啊 在不在 陪我聊会儿"])
def test_small_talk_after_a_short_opening_naming_nothing_asks_elsewhere(query):
    assert asks_elsewhere(query)


@pytest.mark.parametrize(
    "query",
    [
        "火锅 咋样",
        "明天 有空吗",
        "爬山 咋样",
        "狼人杀 有人吗",
        "something fun? thanks",
        # A weather question or a request for tips, then a request (session 55's audit).
        "今天空气质量咋样 有室内的攀岩馆吗",
        "冲浪有啥窍门 新手能报班吗",
    ],
)
def test_small_talk_words_after_an_opening_naming_something_to_do_ask_nothing_elsewhere(query):
    # The opening is the request (a dish, a time, a game) and the rest a manner of asking.
    assert not asks_elsewhere(query)
