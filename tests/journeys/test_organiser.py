"""An organiser, over real HTTP: draft, move, publish, a wrong cancel refused, a cancel by name.

On the journey service (``manage.py serve``, tests/journeys/conftest.py; offline agent). Pia
(Chinese) and Quin (English) ask the agent to organise a frisbee game on Saturday afternoon,
move it to Sunday (the hour stays, the title says no day), ask when it starts (the draft is
shown, no new one drafted), publish it, then say they will not
go to "Saturday's hike": they organise no hike, so nothing is cancelled and the agent says so.
Cancelling the frisbee game by name cancels it. Every reply is in the user's language.
"""

from __future__ import annotations

import re

import pytest

from tests.journeys.helpers import say

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = [pytest.mark.slow, pytest.mark.real_clock]

CJK = re.compile(r"[\u4e00-\u9fff]")
JOURNEYS = {
    "zh": {
        "user": "pia",
        "turns": (
            "我想组织一个周六下午的飞盘局，10个人",
            "改成周日吧",
            "几点开始的？",
            "发布",
            "我不想参加周六那个徒步了",
            "取消飞盘局",
        ),
        "title": "飞盘局",
        "not_found": "你的活动里没有「徒步」",
        "cancelled": "已取消「飞盘局」。",
    },
    "en": {
        "user": "quin",
        "turns": (
            "I want to set up a frisbee game on saturday afternoon",
            "make it sunday",
            "what time does it start?",
            "publish",
            "I can't make it to the hike anymore",
            "cancel the frisbee game",
        ),
        "title": "Frisbee game",
        "not_found": 'None of your activities is "hike"',
        "cancelled": 'Cancelled "Frisbee game".',
    },
}


@pytest.mark.parametrize("lang", sorted(JOURNEYS))
def test_an_organiser_moves_publishes_and_cancels_only_what_they_name(service, lang):
    journey = JOURNEYS[lang]
    user = journey["user"]
    made = say(service, user, journey["turns"][0])
    chat = made["chat_id"]
    moved, asked, published, wrong, cancelled = (
        say(service, user, message, chat_id=chat) for message in journey["turns"][1:]
    )

    before = made["tool_calls"][-1]["result"]["draft"]
    after = moved["tool_calls"][-1]["result"]["draft"]
    assert before["title"] == after["title"] == journey["title"]
    assert before["startAt"][11:16] == after["startAt"][11:16]  # the same hour, a day later
    # A question about the draft shows it; it drafts nothing new.
    assert [c["name"] for c in asked["tool_calls"]] == ["getActivity"], asked
    assert journey["title"] in asked["reply"]
    assert published["tool_calls"][-1]["name"] == "publishActivity"
    assert published["tool_calls"][-1]["result"]["activity"]["title"] == journey["title"]
    assert [c["name"] for c in wrong["tool_calls"]] == ["getMyActivities"]
    assert wrong["reply"].startswith(journey["not_found"])
    assert cancelled["reply"] == journey["cancelled"]
    replies = [t["reply"] for t in (made, moved, asked, published, wrong, cancelled)]
    assert all(bool(CJK.search(r)) == (lang == "zh") for r in replies), replies
