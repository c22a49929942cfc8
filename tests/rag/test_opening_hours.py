"""Whether a named place is open, asked as the whole query (rag.understand.opening_hours)."""

from __future__ import annotations

import pytest

from rag.understand.opening_hours import hours_asked


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("is freddys open on thanksgiving", ("freddys",)),
        ("what time does tesco close on sunday", ("tesco",)),
        ("is servo open late near glenelg?", ("servo",)),
        ("when does kmart open tomorrow", ("kmart",)),
        ("what are freddys hours on thanksgiving", ("freddys",)),
    ],
)
def test_a_place_asked_whether_it_is_open_gives_its_words(query, words):
    assert hours_asked(query) == words


@pytest.mark.parametrize(
    "query",
    [
        "anything open on thanksgiving",
        "is anything open on thanksgiving",
        "is it open late",
        "whats open tonight",
        "nice places open late tonight",
        "opening hours",
    ],
)
def test_a_general_word_in_the_place_of_the_subject_names_no_place(query):
    assert hours_asked(query) == ()


@pytest.mark.parametrize(
    "query",
    [
        "good spot open late for a drink",
        "is the christmas market open tonight, any food stalls",
        "is the pool open? want to swim with the kids",
        "open mic tonight",
    ],
)
def test_anything_asked_beside_the_hours_leaves_the_form_unread(query):
    assert hours_asked(query) == ()


@pytest.mark.parametrize(
    "query",
    [
        "is the castle open on boxing day",
        "what time does the packie close on thanksgiving",
        "is the arcade open late",
        "when does the night market open tomorrow",
        # Typed without the verb, a common noun drops its article: not read either.
        "arcade open late?",
        "servo open late near glenelg?",
    ],
)
def test_a_common_noun_after_an_article_is_a_kind_of_place_and_unread(query):
    assert hours_asked(query) == ()
