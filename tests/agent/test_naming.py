"""Which of the user's activities a message names."""

from __future__ import annotations

from agent.naming import named_matches

HIKES = [
    {"id": 1, "title": "美兰湖环湖夜徒步", "type": "户外"},
    {"id": 2, "title": "佘山徒步加天文台参观", "type": "户外"},
]


def test_a_single_character_beside_the_words_tells_two_activities_apart():
    assert [a["id"] for a in named_matches("我不想参加夜徒步了", HIKES)[1]] == [1]


def test_words_both_titles_hold_name_both():
    assert [a["id"] for a in named_matches("我不想参加徒步了", HIKES)[1]] == [1, 2]
