"""What a user said they cannot eat or drink moves the listings naming it down their list."""

from __future__ import annotations

import pytest

from activities.avoided import AVOID_PENALTY, avoided_things, names_avoided
from activities.models import Activity
from activities.search import activities_search
from rag import preferences
from rag.preferences import StatedPreference


@pytest.fixture
def stated(user):
    """Register a reader stating ``values`` (category, value) for ``user`` only; unregister it."""

    def state(*values):
        said = [StatedPreference(category, value) for category, value in values]
        preferences.register_reader("test", lambda who, limit: said if who == user else [])

    yield state
    preferences._readers.pop("test", None)


@pytest.mark.parametrize(
    ("category", "value", "thing"),
    [
        ("food", "不吃辣", "辣"),
        ("food", "no spicy food", "辣"),
        ("drink", "不喝酒", "酒"),
        ("drink", "no alcohol", "酒"),
        ("allergy", "花生", "花生"),
        ("allergy", "peanuts", "花生"),
        # The agent stores 「不吃牛肉」 as the refused thing itself (agent.extract).
        ("food", "牛肉", "牛肉"),
        ("food", "don't eat beef", "牛肉"),
        ("dislikes", "香菜", "香菜"),
        ("dislikes", "喝酒", "酒"),
    ],
)
def test_a_stated_refusal_names_the_thing_refused(category, value, thing):
    assert avoided_things([StatedPreference(category, value)]) == {thing}


@pytest.mark.parametrize(
    ("category", "value"),
    [
        ("food", "爱吃辣"),
        ("food", "spicy food"),
        ("food", "火锅"),
        ("vibe", "安静"),
        ("dislikes", "热闹"),
    ],
)
def test_a_liked_food_or_another_preference_refuses_nothing(category, value):
    assert avoided_things([StatedPreference(category, value)]) == set()


@pytest.mark.parametrize(
    ("title", "tags", "things", "names"),
    [
        ("重庆火锅局｜能吃辣的来", ["火锅"], {"辣"}, True),
        ("潮汕牛肉火锅｜不吃辣也能吃", ["火锅", "不辣"], {"辣"}, False),
        ("潮汕牛肉火锅｜不吃辣也能吃", ["火锅"], {"牛肉"}, True),
        ("Craft beer tasting in RiNo", ["Food & Drink"], {"酒"}, True),
        ("Alcohol-free mocktail social", ["Social"], {"酒"}, False),
        ("周末酒店自助早餐", ["美食"], {"酒"}, False),
        # Made for those who refuse it, or the word inside another (an audit, session 48).
        ("无酒精鸡尾酒调制课", ["饮品"], {"酒"}, False),
        ("Mocktail making class (alcohol-free cocktails)", ["Food & Drink"], {"酒"}, False),
        ("重庆火锅局｜怕辣的有清汤锅", ["火锅"], {"辣"}, False),
        ("Chilling by the lake", ["Outdoors"], {"辣"}, False),
        ("辣妈亲子瑜伽", ["亲子"], {"辣"}, False),
        ("Twine and paper craft", ["Arts & Crafts"], {"酒"}, False),
        ("Whiskey distillery tour", ["Food & Drink"], {"酒"}, True),
        ("Sunday hike", ["Outdoors"], set(), False),
    ],
)
def test_a_listing_names_a_refused_thing_only_outside_its_own_refusal(title, tags, things, names):
    listing = Activity(title=title, type="美食", tags=tags)
    assert names_avoided(listing, things) is names


@pytest.mark.django_db
@pytest.mark.real_model  # the order of a search by meaning
def test_a_user_who_eats_no_chilli_sees_the_chilli_hotpot_below_the_mild_one(
    demo_activities, user, other_user, stated
):
    stated(("food", "不吃辣"))
    mine = activities_search(user=user, semantic_query="想吃火锅", limit=10)["results"]
    theirs = activities_search(user=other_user, semantic_query="想吃火锅", limit=10)["results"]
    titles = [r["title"] for r in mine]
    spicy, mild = "重庆火锅局｜能吃辣的来", "潮汕牛肉火锅｜不吃辣也能吃"

    assert titles.index(mild) < titles.index(spicy)
    assert next(r for r in mine if r["title"] == spicy)["boost"] == -AVOID_PENALTY
    # Nobody else's list moves, and the listing is moved down, not hidden.
    assert all(r["boost"] == 0 for r in theirs)
    assert {r["title"] for r in theirs} <= set(titles) | {spicy}
