"""Whether the closest listing names a word of the query few listings hold."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from activities.rare_words import names_rare_word

pytestmark = pytest.mark.django_db

START = datetime(2031, 3, 1, 10, 0, tzinfo=UTC)  # a fixed instant, not today's


@pytest.fixture
def catalogue(make_activity):
    """Twelve walks along the river and one ceilidh; return the ceilidh and a walk."""
    walks = [
        make_activity(title=f"River walk {n}", type="walk", tags=["river"], start_at=START)
        for n in range(12)
    ]
    ceilidh = make_activity(
        title="Ceilidh steps for beginners", type="dance", tags=["folk"], start_at=START
    )
    return ceilidh, walks[0]


def test_a_word_one_listing_holds_is_rare(catalogue):
    ceilidh, _ = catalogue
    assert names_rare_word(query="ceilidh wi a caller", activity=ceilidh)


def test_a_word_most_listings_hold_is_not(catalogue):
    _, walk = catalogue
    assert not names_rare_word(query="is the river path flooded", activity=walk)


def test_a_listing_holding_no_word_of_the_query_names_none(catalogue):
    _, walk = catalogue
    assert not names_rare_word(query="ceilidh wi a caller", activity=walk)


def test_a_word_the_query_refuses_names_nothing(catalogue):
    ceilidh, _ = catalogue
    assert not names_rare_word(query="anything but a ceilidh", activity=ceilidh)
