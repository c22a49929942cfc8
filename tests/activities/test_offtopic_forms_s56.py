"""Session 56's English off-topic readings, and the genuine requests written near them.

A place asked whether it is open that the city lists nothing of (``unlisted_hours``), how are
you asked as keeping or staying (``small_talk``), a hot-air balloon flight as a kind. Before
they were committed, requests typed as people type them on a phone, near each form, were read
with them: none may be read as a question (answered empty whatever the scores) or name the new
kind (docs/RELEVANCE.md, "English off-topic answered with listings", session 56).
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from activities.named_kinds import kinds_named
from activities.search_relevance import answer_question, unlisted_hours
from activities.understanding import read_query, user_zone

pytestmark = pytest.mark.django_db

# The city's listings: a night market, a brewery, a board game night, a balloon-twisting party,
# a trivia night and a thanksgiving dinner.
LISTINGS = (
    ("Night market on the waterfront", "Street food stalls and live music every Friday."),
    ("Brewery tour and tasting", "Four pours at a family brewery in the Pearl."),
    ("Board game night at the corner cafe", "Catan, Ticket to Ride, all welcome."),
    ("Balloon twisting party for kids", "Dogs, swords and crowns from long balloons."),
    ("Powell's Books author talk", "A reading and signing on the third floor."),
    ("Thanksgiving potluck dinner", "Bring a dish, meet the neighbours."),
)

GENUINE = [
    # opening hours of a place people go to, or something open asked generally
    "is the ice rink open saturday",
    "anything open on thanksgiving",
    "is anything open thanksgiving night",
    "whats open late tonight",
    "is the night market open tonight",
    "when does the night market open",
    "is the brewery open late",
    "is powell's open late tonight",
    "is the pool open sunday",
    "is the zoo open on thanksgiving?",
    "what time does the museum close today",
    "is the rink open tmrw",
    "is the skate park open after dark",
    "is the golf course open on christmas day",
    "are the trails open after the storm",
    "good spot open late for a drink",
    "places open late for food near me",
    "is the christmas market open tonight, any food stalls",
    "is the aquarium open mondays",
    "is the climbing gym open on thanksgiving",
    "is navy pier open on thanksgiving",
    "is the castle open on boxing day",
    "arcade open late?",
    "is the observatory open tonight",
    # greetings and small talk beside a request
    "sup, anything fun tonight?",
    "hey neighbor any board game nights",
    "sup neighbor, whats good this weekend",
    "yo, any trivia tonight",
    "hey neighbour, kid friendly stuff saturday?",
    "hi, still looking for something to do tonight",
    "keeping it chill tonight, any quiet bars",
    "staying in tonight, anything online?",
    "still up for a hike this weekend, any trails",
    "keepin it weird, whats the strangest thing to do here",
    "still keen for live music tonight",
    "you keeping busy this weekend? need ideas for the kids",
    "hey, staying warm? any indoor stuff for a rainy day",
    "holding a party saturday, any venues",
    # balloons that are no flight
    "balloon twisting for kids",
    "balloon animals at a kids party",
    "parade with the giant balloons",
    "water balloon fight at the park",
    "balloon arch workshop",
    # more requests near the forms
    "hey neighbor any board game nights this week",
    "board games open to newcomers?",
    "is the brewery tour open to kids",
    "thanksgiving dinner for people on their own",
    "sup, where's the weird stuff in portland",
]


@pytest.fixture
def listings(make_activity):
    return [
        make_activity(
            title=title, description=text, type="outing", tags=[], location_name="Portland"
        )
        for title, text in LISTINGS
    ]


@pytest.mark.parametrize("query", GENUINE)
def test_a_genuine_request_near_the_forms_is_not_read_as_a_question(listings, query):
    understood = read_query(query, now=timezone.now(), tz=user_zone(None))
    assert not answer_question(query, understood)


@pytest.mark.parametrize("query", GENUINE)
def test_a_genuine_request_near_the_forms_names_no_balloon_flight(query):
    assert "hot-air ballooning" not in [kind.label for kind in kinds_named(query)]


def test_a_place_the_city_lists_nothing_of_asked_whether_open_is_a_question(listings):
    query = "is freddys open on thanksgiving"
    understood = read_query(query, now=timezone.now(), tz=user_zone(None))
    assert unlisted_hours(query, understood)
    assert answer_question(query, understood)


def test_a_place_a_listing_names_asked_whether_open_is_not(listings):
    query = "is powell's open on thanksgiving"
    understood = read_query(query, now=timezone.now(), tz=user_zone(None))
    assert not unlisted_hours(query, understood)


def test_a_place_named_as_one_word_is_found_written_as_two(make_activity):
    make_activity(
        title="Water world day", description="Slides and a lazy river.", type="outing", tags=[]
    )
    assert not unlisted_hours("is waterworld open today")
    assert unlisted_hours("is funland open today")


def test_small_talk_asked_as_keeping_is_a_question(listings):
    query = "sup neighbor, still keepin it weird?"
    assert answer_question(query, read_query(query, now=timezone.now(), tz=user_zone(None)))
