"""Recommendations a user can act on, over real HTTP: ask the agent, join, be refused, leave.

On the journey service (``manage.py serve``, tests/journeys/conftest.py). Hank organises
activities on the water next weekend (a worker indexes each); Dave took one of the two places of
one of them. Gina, standing near People's Square, asks the agent "下周末想找个玩水的地方" /
"somewhere to swim next weekend": the reply lists what it found, each with its time and distance
once and no debris of the parsed message, and offers to sign her up. She then asks for a place
in one by its title (the count goes up) and leaves it again (the count goes down). Meanwhile
Frank takes the last place of the other one: asking for it by its title is refused as full.

Asked something off-topic ("今天股票怎么样" / "is the stock market up today"), the agent says
honestly, in her language, that it has no such information: no activity recommended, no
search limit blamed.

The activities start on the Saturday of the window the service reads for "next weekend" at this
moment, computed with the same reader (``agent.extract``): a whole weekend ahead at any hour, so
the journey passes on any day of the week and at any hour.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from agent import extract
from tests.journeys.helpers import organise, say

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = [pytest.mark.slow, pytest.mark.real_clock]

HERE = {"lat": 31.2304, "lng": 121.4737}  # People's Square, where Gina asks from
JOURNEYS = {
    "zh": {
        "ask": "下周末想找个玩水的地方",
        "open": ("苏州河日落桨板巡游", "在苏州河上划桨板看日落，教练带新手，适合玩水。"),
        "full": ("滴水湖皮划艇体验", "在滴水湖划皮划艇玩水，装备齐全，新手友好。"),
        "join": "我要报名{title}",
        "leave": "我不去{title}了，帮我取消报名",
        "offer": "想报名哪个",
        "distance": "公里",
        "joined": "已帮你报名「{title}」",
        "refused": "「{title}」已经满员了",
        "left": "已退出「{title}」",
    },
    "en": {
        "ask": "somewhere to swim next weekend",
        "open": ("Riverside open-water swim", "Swim in the open water with a coach; beginners."),
        "full": ("Lido pool splash morning", "A morning of swimming and splashing at the lido."),
        "join": "sign me up for {title}",
        "leave": "cancel my spot in {title}",
        "offer": "Want to join one",
        "distance": "km away",
        "joined": 'You\'re in: "{title}"',
        "refused": '"{title}" is full',
        "left": 'You left "{title}"',
    },
}
CJK = re.compile(r"[\u4e00-\u9fff]")
# Debris: a piece of the message the search should have dropped (周末想找个玩水的地方 -> 玩水).
DEBRIS = {"zh": ["个玩水", "找个", "周末想"], "en": ["somewhere to", "to swim next"]}


def weekend_start() -> datetime:
    """Return 10:00 on the Saturday of "next weekend" as both asks read it right now.

    Next weekend, not this one: this weekend asked on a Sunday afternoon has no four hours left
    to start the listings in (the journey skipped, or listed a row outside the window, from
    Sunday 11:00 Shanghai on; session 49's audit). Next weekend is a whole weekend ahead at any
    hour, read alike in both languages.
    """
    windows = [extract.time_range_of(extract.read(j["ask"])) for j in JOURNEYS.values()]
    assert len({(w.start, w.end) for w in windows}) == 1, windows
    assert windows[0].start > timezone.now() + timedelta(days=1), windows
    return windows[0].start.replace(hour=10, minute=0, second=0, microsecond=0)


@pytest.fixture(scope="module")
def activities(journey_service):
    """Hank's activities on the water next weekend, indexed; Dave has a place in each "full"."""
    start = weekend_start()
    bodies = []
    for offset, spec in enumerate(JOURNEYS.values()):
        for key, seats, km in (("open", 10, 0.012), ("full", 2, 0.025)):
            title, description = spec[key]
            bodies.append(
                {
                    "title": title,
                    "description": description,
                    "type": "水上",
                    "start_at": (start + timedelta(hours=offset * 2 + (key == "full"))).isoformat(),
                    "location": {"lat": HERE["lat"] + km, "lng": HERE["lng"]},
                    "location_name": title[:6],
                    "max_participants": seats,
                }
            )
    created = {a["title"]: a for a in organise(journey_service, "hank", bodies)}
    for spec in JOURNEYS.values():
        full = created[spec["full"][0]]
        taken = journey_service.post(f"/api/activities/{full['id']}/join/", "dave")
        assert taken.status_code == 201, taken.text
    return created


def participants(service, activity: dict) -> int:
    return service.get(f"/api/activities/{activity['id']}/", "hank").json()["current_participants"]


def line_of(reply: str, title: str) -> str:
    (line,) = [line for line in reply.splitlines() if title in line]
    return line


@pytest.mark.parametrize("lang", list(JOURNEYS))
def test_the_agent_recommends_what_the_user_can_join(journey_service, activities, lang):
    spec = JOURNEYS[lang]
    body = say(journey_service, "gina", spec["ask"], chat_id=f"swim_{lang}", location=HERE)
    reply = body["reply"]
    assert body["intent"] == "EXPLORE", body
    listed = [i["id"] for i in body["items"] if i["type"] == "activity"]
    assert str(activities[spec["open"][0]]["id"]) in map(str, listed), reply
    assert not [d for d in DEBRIS[lang] if d in reply], reply
    assert spec["offer"] in reply
    line = line_of(reply, spec["open"][0])
    assert len(re.findall(r"\d{1,2}:\d{2}", line)) == 1, line  # its time, once


@pytest.mark.parametrize("lang", list(JOURNEYS))
def test_each_recommendation_says_how_far_it_is_once(journey_service, activities, lang):
    spec = JOURNEYS[lang]
    body = say(journey_service, "gina", spec["ask"], chat_id=f"far_{lang}", location=HERE)
    line = line_of(body["reply"], spec["open"][0])
    assert line.count(spec["distance"]) == 1, line


@pytest.mark.parametrize("lang", list(JOURNEYS))
def test_the_user_joins_by_title_and_leaves_again(journey_service, activities, lang):
    spec = JOURNEYS[lang]
    chat = {"chat_id": f"join_{lang}", "location": HERE}
    wanted = activities[spec["open"][0]]
    before = participants(journey_service, wanted)

    joined = say(journey_service, "gina", spec["join"].format(title=wanted["title"]), **chat)
    assert joined["reply"].startswith(spec["joined"].format(title=wanted["title"])), joined
    assert participants(journey_service, wanted) == before + 1

    left = say(journey_service, "gina", spec["leave"].format(title=wanted["title"]), **chat)
    assert left["intent"] == "MANAGE", left
    assert left["reply"].startswith(spec["left"].format(title=wanted["title"])), left
    assert participants(journey_service, wanted) == before


@pytest.mark.parametrize("lang", list(JOURNEYS))
def test_a_listing_that_filled_up_is_refused_as_full(journey_service, activities, lang):
    spec = JOURNEYS[lang]
    chat = {"chat_id": f"full_{lang}", "location": HERE}
    full = activities[spec["full"][0]]
    others = {a["id"]: participants(journey_service, a) for a in activities.values() if a != full}
    listed = say(journey_service, "gina", spec["ask"], **chat)
    assert str(full["id"]) in [str(i["id"]) for i in listed["items"] if i["type"] == "activity"]
    last_place = journey_service.post(f"/api/activities/{full['id']}/join/", "frank")
    assert last_place.status_code == 201, last_place.text  # now full: Dave and Frank

    refused = say(journey_service, "gina", spec["join"].format(title=full["title"]), **chat)
    assert spec["refused"].format(title=full["title"]) in refused["reply"], refused
    assert participants(journey_service, full) == 2
    # Nor is she signed up for another activity instead.
    assert {i: participants(journey_service, {"id": i}) for i in others} == others


# What the answer to an off-topic question must say, and what it must never say: no limit to
# loosen (no search ran), no recommendation, no pretending to listen.
OFF_TOPIC = {
    "zh": {
        "ask": "今天股票怎么样",
        "honest": "查不到股票",
        "never": ["放宽", "限制", "换个说法", "按你的偏好", "公里", "我都记着呢"],
    },
    "en": {
        "ask": "is the stock market up today",
        "honest": "no live information",
        "never": ["limit", "widen", "another way", "km away", "I'm listening"],
    },
}


@pytest.mark.parametrize("lang", list(OFF_TOPIC))
def test_an_off_topic_question_is_answered_honestly_in_the_users_language(journey_service, lang):
    spec = OFF_TOPIC[lang]
    body = say(journey_service, "gina", spec["ask"], chat_id=f"stocks_{lang}", location=HERE)
    reply = body["reply"]
    assert spec["honest"] in reply, reply
    assert not [w for w in spec["never"] if w in reply], reply
    assert bool(CJK.search(reply)) == (lang == "zh"), reply  # in the user's language
    assert body["tool_calls"] == [], body
    assert [i for i in body["items"] if i["type"] == "activity"] == [], body


# Naming a result by its place in the list: asking about it, then joining it.
BY_PLACE = {
    "zh": {"ask": "第{n}个几点开始？", "join": "报名第{n}个", "places": "一二三"},
    "en": {
        "ask": "when does the {n} one start?",
        "join": "sign me up for the {n} one",
        "places": ("first", "second", "third"),
    },
}


@pytest.mark.parametrize("lang", list(JOURNEYS))
def test_the_user_names_a_result_by_its_place_to_ask_and_join(journey_service, activities, lang):
    spec, by_place = JOURNEYS[lang], BY_PLACE[lang]
    chat = {"chat_id": f"place_{lang}", "location": HERE}
    wanted = activities[spec["open"][0]]
    listed = say(journey_service, "gina", spec["ask"], **chat)
    shown = [str(i["id"]) for i in listed["items"] if i["type"] == "activity"][:3]
    assert str(wanted["id"]) in shown, listed["reply"]
    n = by_place["places"][shown.index(str(wanted["id"]))]
    before = participants(journey_service, wanted)

    asked = say(journey_service, "gina", by_place["ask"].format(n=n), **chat)
    assert [c["name"] for c in asked["tool_calls"]] == ["getActivity"], asked
    assert wanted["title"] in asked["reply"], asked["reply"]
    assert participants(journey_service, wanted) == before  # asking joins nothing

    joined = say(journey_service, "gina", by_place["join"].format(n=n), **chat)
    assert joined["reply"].startswith(spec["joined"].format(title=wanted["title"])), joined
    assert participants(journey_service, wanted) == before + 1
    left = say(journey_service, "gina", spec["leave"].format(title=wanted["title"]), **chat)
    assert participants(journey_service, wanted) == before, left
    replies = (asked["reply"], joined["reply"])
    assert all(bool(CJK.search(r)) == (lang == "zh") for r in replies), replies
