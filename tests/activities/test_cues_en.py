"""English vibe and type words of a query, matched as whole words (activities.cues_en)."""

from __future__ import annotations

from activities.cues_en import english_kinds, english_moods


def test_english_moods_match_whole_words_only():
    assert [c.label for c in english_moods("quiet reading with kids")] == ["安静", "亲子"]
    assert english_moods("a party") and english_moods("a party")[0].label == "热闹"
    # "art" hides in "party" and "start": no 文艺.
    assert "文艺" not in [c.label for c in english_moods("party start")]


def test_english_kinds_name_activity_types_as_whole_words():
    assert {c.label for c in english_kinds("hiking in the mountains")} == {"户外", "徒步"}
    assert [c.label for c in english_kinds("a party")] == []  # "art" is not in "party"
