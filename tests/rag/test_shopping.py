"""A shop's opening hours and goods asked for by price are shopping, said without a verb of
buying; a place to go out, something open to do, a hire or a lesson is not."""

from __future__ import annotations

import pytest

from rag.understand.errands import errand
from rag.understand.shopping import goods_by_price, shop_hours


@pytest.mark.parametrize(
    "query",
    [
        "servo open late near glenelg?",
        "what time does the big tesco shut",
        "is the post office open on saturdays",
        "when does the chemist close",
        "petrol station open 24/7 near me",
        "超市几点关门",
        "银行营业到几点",
        "药店今天开门吗",
    ],
)
def test_when_a_named_shop_is_open_is_read(query):
    assert shop_hours(query)


@pytest.mark.parametrize(
    "query",
    [
        # A general word in the subject's place: something open to do is asked for.
        "somewhere open late for a drink",
        "anything open late on christmas day",
        "what's open tonight",
        # A place to eat, drink or be entertained.
        "cafe open late near me",
        "library open late for study",
        "咖啡馆几点关门",
        # An event's start is no shop's hours.
        "what time does the show start",
        "",
    ],
)
def test_something_open_to_do_or_a_place_to_go_out_is_no_shops_hours(query):
    assert not shop_hours(query)


@pytest.mark.parametrize(
    "query",
    [
        "warm winter jacket under 100 quid",
        "cheap rain jacket in town",
        "cheap esky and thongs for the beach",
        "best place for a new esky, kmart or bunnings?",
        "second hand sofa near me",
        "new phone under $500",
    ],
)
def test_goods_asked_for_by_price_or_newness_are_read(query):
    assert goods_by_price(query)


@pytest.mark.parametrize(
    "query",
    [
        "cheap eats",
        "cheap dumplings gouger st",
        "cheap things to do this weekend",
        "new bands playing this week",
        # Goods that are not the head of the phrase, hired, or part of a lesson.
        "cheap tent camping spots",
        "cheap wetsuit hire",
        "cheap surf lessons board included",
        "cheap jacket potato lunch",
        "",
    ],
)
def test_an_outing_by_price_a_hire_or_goods_in_another_phrase_are_not(query):
    assert not goods_by_price(query)


def test_the_errand_reads_goods_as_buying_and_hours_as_hours():
    assert errand("cheap rain jacket in town") == "buy"
    assert errand("servo open late near glenelg?") == "hours"


def test_a_place_people_go_out_to_keeps_its_hours_a_request():
    # The errand's own outing places (parks, pubs, pools); a market is an activity noun.
    assert errand("pubs open late near me") is None
    assert errand("what time does the pool open on saturday") is None
    assert errand("what time does the night market open") is None
