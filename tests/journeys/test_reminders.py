"""Asking to be reminded, over real HTTP: what the user told the agent comes back as they said it.

On the journey service (``manage.py serve``, tests/journeys/conftest.py; offline agent, local
model). Nora (Chinese) and Owen (English) tell the agent an allergy in one chat. In another
chat they ask to be reminded twice ("我对什么过敏来着" / "what am I allergic to again?"): each
answer quotes the statement, not the question asked before. Asking for something to eat, the
reply names the allergy as an allergy ("花生过敏" / "allergic to peanuts"), never the allergen
bare as if it were a liking (what one cannot eat bears on food listings only).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.journeys.helpers import organise, say

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = [pytest.mark.slow, pytest.mark.real_clock]

JOURNEYS = {
    "zh": {
        "user": "nora",
        "tell": "帮我记一下：我对花生过敏",
        "ask": "我对什么过敏来着",
        "quoted": "「帮我记一下：我对花生过敏」",
        "search": "有什么好吃的活动推荐吗",
        "listing": ("本帮菜探店晚餐", "一起去老字号吃红烧肉和腌笃鲜，人均一百。"),
        "named": "花生过敏",
    },
    "en": {
        "user": "owen",
        "tell": "Please remember: I'm allergic to peanuts",
        "ask": "what am I allergic to again?",
        "quoted": '"Please remember: I\'m allergic to peanuts"',
        "search": "any good food spots around?",
        "listing": (
            "Dumpling dinner crawl",
            "Three dumpling houses in one evening, dinner together.",
        ),
        "named": "allergic to peanuts",
    },
}


@pytest.fixture(scope="module")
def food(service):
    """A dinner listing per language three days from now, organised by Nora, indexed."""
    start = (timezone.now() + timedelta(days=3)).replace(second=0, microsecond=0)
    bodies = [
        {
            "title": journey["listing"][0],
            "description": journey["listing"][1],
            "type": "美食",
            "start_at": start.isoformat(),
            "location": {"lat": 31.2304, "lng": 121.4737},
            "location_name": journey["listing"][0][:6],
            "max_participants": 8,
        }
        for journey in JOURNEYS.values()
    ]
    return organise(service, "nora", bodies)


@pytest.mark.parametrize("lang", sorted(JOURNEYS))
def test_a_user_asking_to_be_reminded_gets_their_own_words_back(service, food, lang):
    journey = JOURNEYS[lang]
    user = journey["user"]
    say(service, user, journey["tell"], chat_id="told")

    first = say(service, user, journey["ask"], chat_id="later")
    again = say(service, user, journey["ask"], chat_id="later")
    search = say(service, user, journey["search"], chat_id="later")

    assert journey["quoted"] in first["reply"], first["reply"]
    assert journey["quoted"] in again["reply"], again["reply"]
    assert journey["named"] in search["reply"], search["reply"]
