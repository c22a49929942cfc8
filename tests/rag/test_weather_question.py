"""A question about the weather or what to wear for it asks for a forecast, not activities."""

from __future__ import annotations

import pytest

from rag.understand.weather import weather_question


@pytest.mark.parametrize(
    "query",
    [
        "明天冷不冷",
        "周六会不会下雨",
        "后天要带伞吗",
        "今天穿什么合适",
        "will it snow on friday",
        "is it going to be windy tomorrow",
        "do I need a coat tonight",
        "what should I wear to work tomorrow",
        "听日会唔会落雨",
        "今晚冻唔冻",
        "使唔使带遮",
        "is it gonna snow on sunday",
    ],
)
def test_a_question_about_the_weather_is_read(query):
    assert weather_question(query)


@pytest.mark.parametrize(
    "query",
    [
        "下雨天室内活动",
        "雪山徒步",
        "热闹一点的市集",
        "rainy day museums",
        "snowshoe walk this weekend",
        "winter coat drive volunteering",
        "落雨天去边度玩",
        "snow tubing this weekend",
        "",
    ],
)
def test_a_request_set_in_some_weather_is_not(query):
    assert not weather_question(query)


@pytest.mark.parametrize(
    "query", ["青岛这两天风多大 要不要穿羽绒服", "用不用带伞", "明天几级风", "风大不大"]
)
def test_the_a_not_a_question_without_a_closing_particle_and_the_wind_are_read(query):
    assert weather_question(query)


@pytest.mark.parametrize(
    "query",
    ["要不要带泳衣", "用不用带装备", "需不需要穿正装", "要不要带孩子", "要不要带孩子去度假"],
)
def test_the_a_not_a_question_about_what_to_bring_with_no_weather_named_is_not(query):
    # Session 42 audit: what to bring to an outing, not what the weather asks for.
    assert not weather_question(query)


@pytest.mark.parametrize(
    "query", ["要不要穿羽绒服", "明天降温 要不要带件衣服", "下雨天需不需要带鞋套"]
)
def test_the_a_not_a_question_with_weather_gear_or_the_weather_is_still_read(query):
    assert weather_question(query)


@pytest.mark.parametrize(
    "query",
    [
        "沈阳明儿下雪不",
        "明天下雨吗",
        "后天有雨没",
        "下雨了没",
        "明儿冷不",
        "下没下雪",
        "明天天儿咋样",
    ],
)
def test_rain_snow_or_cold_asked_without_hui_is_read(query):
    # Session 44: 下雪不 / 有雨没 / 冷不 close the question with no 会 before it.
    assert weather_question(query)


@pytest.mark.parametrize("query", ["下雪不去了", "下雨不出门的室内活动", "冷门展览"])
def test_a_closing_particle_inside_a_clause_is_no_question(query):
    assert not weather_question(query)


@pytest.mark.parametrize(
    "query", ["昆明这几天会不会降温", "明天要降温了吗", "降不降温", "will it get colder this week"]
)
def test_whether_it_turns_colder_or_warmer_is_a_weather_question(query):
    # Session 47: the forecast asked as a change of temperature had been unread.
    assert weather_question(query)


@pytest.mark.parametrize("query", ["降温了去哪泡温泉", "warm up with a hot chocolate somewhere"])
def test_an_outing_for_the_cold_is_no_weather_question(query):
    assert not weather_question(query)


@pytest.mark.parametrize(
    "query",
    [
        "大连这两天降温不",
        "这周雾霾严重吗",
        "这两天要落雨伐",
        "明天会不会很冷",
        "这周末有没有雨",
        "会不会起雾",
        "明天有雨不",
        "升不升温",
        "雾霾大不大",
    ],
)
def test_a_state_of_the_weather_in_any_yes_no_grammar_is_a_weather_question(query):
    # Session 48: a closing particle after the state, a degree between, a modal before it, or
    # the predicate's own A-not-A.
    assert weather_question(query)


@pytest.mark.parametrize(
    "query",
    [
        "有没有晒太阳的地方",
        "有没有热乎的吃的",
        "周末有没有冷餐会",
        "那边热闹吗",
        "有没有雨天也能玩的",
        "滑雪场开了吗",
        "雪地徒步有人组队吗",
        "那边热不热闹",
    ],
)
def test_a_request_sharing_a_weather_character_is_not(query):
    assert not weather_question(query)


@pytest.mark.parametrize(
    "query",
    [
        "有没有下雪的地方",
        "有冇落雨都开嘅地方",
        "有没有下雨也开放的室内场馆",
        "有没有空气好的公园",
        "室内滑冰场凉不凉快",
    ],
)
def test_is_there_a_place_with_some_weather_is_no_weather_question(query):
    # 有没有 is also "is there": the state must end the question (an audit, session 48).
    assert not weather_question(query)


@pytest.mark.parametrize(
    "query",
    [
        "空气好的地方走走",
        "温度合适的室内活动",
        "雪山怎么样",
        # How the air is, then a request (session 55's audit: a form reading "state + 咋样" was
        # withdrawn for emptying these).
        "今天空气质量咋样 有室内的攀岩馆吗",
        "山上空气咋样 周末想徒步",
    ],
)
def test_a_state_of_the_weather_not_asked_alone_is_no_weather_question(query):
    assert not weather_question(query)
