"""A query with no word in it (emoji, punctuation) is answered as an empty query is: nothing
in it can be matched (issue 30, session 51)."""

from __future__ import annotations

import pytest

from activities.search import activities_search
from activities.search_filters import with_words


@pytest.mark.parametrize("query", ["🎉🎉", "👍", "?! …", "🎉 👍"])
def test_a_query_of_emoji_or_punctuation_only_has_no_words(query):
    assert with_words(query) == ""


@pytest.mark.parametrize("query", ["徒步🎉", "hike 👍", "3v3", "爬山"])
def test_a_query_with_a_letter_digit_or_chinese_character_is_kept(query):
    assert with_words(query) == query


@pytest.mark.django_db
@pytest.mark.real_model
def test_an_emoji_query_is_answered_as_the_empty_query_without_embedding(
    demo_activities, counting_provider
):
    emoji = activities_search(semantic_query="🎉🎉", limit=10)
    empty = activities_search(semantic_query="", limit=10)
    assert emoji["meta"]["path"] == "hard_filter_sorted"
    assert [r["id"] for r in emoji["results"]] == [r["id"] for r in empty["results"]]
    assert counting_provider.calls == 0
