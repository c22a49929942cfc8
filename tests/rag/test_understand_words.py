"""Parts of the day (rag.understand.parts.PARTS_OF_DAY): each narrows a day to its hours, in
Chinese and English, alone or with a day; words that only look like one stay text.

Every case passes a fixed ``now`` (no clock): Wednesday 2026-11-25 10:00, Shanghai for the
Chinese phrases and London for the English ones.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from rag.understand import understand
from rag.understand.parts import PARTS_OF_DAY, part_of_day
from tests.rag.time_helpers import LONDON, NOW_LONDON, NOW_SH, SH, on, windows

# Wednesday 25th: 周四 26, 周五 27, 周六 28, 周日 29, 周一 30 (then 1 December).
CHINESE = [
    ("周六上午", [on(28, 6, 12)]),
    ("周六早上", [on(28, 5, 10)]),  # 早上: first light to nine or ten (the dictionary's 早晨)
    ("周六早", [on(28, 5, 10)]),
    ("明天一早", [on(26, 5, 9)]),
    ("周日一大早", [on(29, 5, 9)]),
    ("明天上班前", [on(26, 6, 9)]),
    ("明天中午", [on(26, 11, 14)]),
    ("周四午休", [on(26, 12, 14)]),  # the offices' lunch break
    ("明天午饭时间", [on(26, 11, 14)]),
    ("午休时间", [on(25, 12, 14)]),  # alone: today's, not over at 10:00
    ("周日下午", [on(29, 12, 18)]),
    ("周四放学后", [on(26, 16, 20)]),
    ("明天傍晚", [on(26, 17, 19)]),
    ("明天下班后", [on(26, 18, 24)]),
    ("周一下班以后", [on(30, 18, 24)]),
    ("下班后", [on(25, 18, 24)]),
    ("周五晚上", [on(27, 18, 24)]),
    ("周五晚", [on(27, 18, 24)]),
    ("周六夜里", [on(28, 18, 24)]),
    ("周六深夜", [on(28, 22, 26)]),
    ("周六通宵", [on(28, 20, 26)]),
    ("周六白天", [on(28, 6, 18)]),
    ("这周末晚上", [on(28, 18, 24), on(29, 18, 24)]),
    ("周末上午", [on(28, 6, 12), on(29, 6, 12)]),
]
ENGLISH = [
    ("Saturday morning", [on(28, 6, 12, LONDON)]),
    ("early Saturday", [on(28, 5, 9, LONDON)]),
    ("tomorrow early morning", [on(26, 5, 9, LONDON)]),
    ("before work on Tuesday", [on(31, 6, 9, LONDON)]),
    ("tomorrow lunchtime", [on(26, 11, 14, LONDON)]),
    ("lunch break on Monday", [on(30, 12, 14, LONDON)]),
    ("Sunday afternoon", [on(29, 12, 18, LONDON)]),
    ("after school on Thursday", [on(26, 15, 19, LONDON)]),
    ("Monday after work", [on(30, 17, 24, LONDON)]),
    ("after-work on Friday", [on(27, 17, 24, LONDON)]),
    ("Friday evening", [on(27, 18, 24, LONDON)]),
    ("tonight", [on(25, 18, 24, LONDON)]),
    ("Friday late night", [on(27, 22, 26, LONDON)]),
    ("Saturday during the day", [on(28, 6, 18, LONDON)]),
    ("this weekend evening", [on(28, 18, 24, LONDON), on(29, 18, 24, LONDON)]),
    ("weekend evenings", [on(28, 18, 24, LONDON), on(29, 18, 24, LONDON)]),
    # "early" before a day and its part is the early end of that part (issue 30, session 41),
    # with the day in any of its spellings.
    ("early tmrw morning", [on(26, 5, 9, LONDON)]),
    ("early tomorrow morning", [on(26, 5, 9, LONDON)]),
    ("early sat morning", [on(28, 5, 9, LONDON)]),
    ("early tomorrow evening", [on(26, 17, 20, LONDON)]),
    ("early 2moro", [on(26, 5, 9, LONDON)]),
    # Before a day that carries its own part, the early end of that part (audit, session 41).
    ("early tonight", [on(25, 17, 20, LONDON)]),
    ("early tonite", [on(25, 17, 20, LONDON)]),
    ("early this evening", [on(25, 17, 20, LONDON)]),
    ("early this eve", [on(25, 17, 20, LONDON)]),
    ("early this afternoon", [on(25, 12, 15, LONDON)]),
    ("early this aft", [on(25, 12, 15, LONDON)]),
    # Written shorthand after a day.
    ("sat am", [on(28, 6, 12, LONDON)]),
    ("tmrw pm", [on(26, 12, 24, LONDON)]),
    ("tomorrow aft", [on(26, 12, 18, LONDON)]),
    ("this eve", [on(25, 18, 24, LONDON)]),
    ("tmoz morning", [on(26, 6, 12, LONDON)]),
]
# 午后 ("after noon") after a day (alone it is as often a mood: 午后阳光).
CHINESE += [("明天午后", [on(26, 12, 18)]), ("周六午后", [on(28, 12, 18)])]


@pytest.mark.parametrize(("text", "expected"), CHINESE + ENGLISH)
def test_a_part_of_the_day_narrows_its_day_to_its_hours(text, expected):
    assert windows(text) == expected


def test_every_part_word_names_a_part_with_hours():
    for words in ("下了班", "午饭时间", "lunch-time", "Late  Night".lower(), "一大早", "evenings"):
        assert part_of_day(words) in PARTS_OF_DAY, words


def test_a_part_of_the_day_read_back_is_that_days_part():
    # Memory reads backwards: 昨天下班后 is yesterday evening, "last Friday after work" too.
    assert windows("昨天下班后", "past") == [on(24, 18, 24)]
    assert windows("Friday after work", "past") == [on(20, 17, 24, LONDON)]


@pytest.mark.parametrize(
    ("text", "phrase", "rest"),
    [
        # The end of a span is no time to start at; the day before it is.
        ("周六晚上想玩到半夜", "周六晚上", "想玩到半夜"),
        ("周五营业至深夜的酒吧", "周五", "营业至深夜的酒吧"),
        # "once work is over" is.
        ("等到下班后再去", "下班后", "等到 再去"),
        # Nor is the time a thing is moved to.
        ("把羽毛球局改到晚上7点", "晚上7点", "把羽毛球局改到"),
        ("推迟到周六晚上", "周六晚上", "推迟到"),
        # 早 / 晚 inside a word are not parts of the day.
        ("周五晚会", "周五", "晚会"),
        ("周六早点出发", "周六", "早点出发"),
        # 早 after a day is "early", unless a clock time or a pause follows.
        ("周五早到了", "周五", "早到了"),
    ],
)
def test_words_that_only_look_like_a_part_of_the_day(text, phrase, rest):
    found = understand(text, now=NOW_SH, direction="future")
    assert [t.text for t in found.times] == [phrase]
    assert found.rest == rest


@pytest.mark.parametrize(
    "text",
    [
        "上下班通勤",  # commuting, not 下班
        "太晚了",  # 晚 alone
        "after work drinks",  # an English part alone is no time ("evening jazz")
        "lunchtime recital",
        "I woke up early",
        "what we had for lunch",
        "午后阳光",  # 午后 alone: the mood of a thing
        "what am i doing",  # "am" is a part of the day only next to a day
    ],
)
def test_no_time_is_read(text):
    now = NOW_SH if not text.isascii() else NOW_LONDON
    assert understand(text, now=now, direction="future").times == ()


@pytest.mark.parametrize(
    ("text", "hour"),
    [("明天下班后七点", 24 + 19), ("明天午休一点", 24 + 13), ("周五晚八点", 48 + 20)],
)
def test_a_clock_time_after_a_part_of_the_day_is_read_in_it(text, hour):
    found = understand(text, now=NOW_SH, direction="future").times[0]
    assert found.point == datetime(2026, 11, 25, tzinfo=SH) + timedelta(hours=hour)


def test_a_part_alone_is_a_part_not_a_day():
    # Memory search reads a part of the day alone as a habit (memory.understanding.HABIT_KINDS).
    found = understand("下班后一般做什么", now=NOW_SH, direction="past")
    assert [t.kind for t in found.times] == ["part"]


def test_am_or_pm_apart_from_the_day_leaves_the_day_whole():
    # Only next to its day is "am" the morning: "what am i doing" is a verb.
    assert windows("tomorrow, what am i doing") == [on(26, 0, 24, LONDON)]


@pytest.mark.parametrize(
    ("text", "phrase", "rest"),
    [
        # A meal after its day says when and what: its word stays in the text the model reads.
        ("sunday brunch spots", "sunday brunch", "brunch spots"),
        ("tmrw lunch", "tmrw lunch", "lunch"),
        ("礼拜六过早去哪里", "礼拜六过早", "过早去哪里"),  # Wuhan 过早: breakfast
        ("周日早茶", "周日早茶", "早茶"),
        # Mandarin meals after a day (session 42): when the meal is, and the meal stays.
        ("周二午饭约一个", "周二午饭", "午饭约一个"),
        ("周日晚饭吃什么", "周日晚饭", "晚饭吃什么"),
        ("明天早餐去哪吃", "明天早餐", "早餐去哪吃"),
        ("周末早午餐", "周末早午餐", "早午餐"),
        # Joined with another part or after "early", the meal stays too (audit, session 41).
        ("周六早上早茶", "周六早上早茶", "早茶"),
        ("early sunday brunch", "early sunday brunch", "brunch"),
        ("early friday lunch", "early friday lunch", "lunch"),
        # A part that only says when leaves.
        ("tomorrow lunchtime", "tomorrow lunchtime", ""),
    ],
)
def test_a_meal_after_its_day_is_its_mealtime_and_stays_in_the_text(text, phrase, rest):
    found = understand(text, now=NOW_SH if not text.isascii() else NOW_LONDON, direction="future")
    assert [t.text for t in found.times] == [phrase]
    assert found.rest == rest


def test_wuhan_breakfast_is_saturday_morning():
    assert windows("礼拜六过早去哪里") == [on(28, 6, 10)]


def test_a_mandarin_meal_after_its_day_is_its_mealtime():
    # Tuesday is 1 December (day 31).
    assert windows("周二午饭约一个") == [on(31, 11, 14)]
    assert windows("周日晚饭吃什么") == [on(29, 17, 22)]
    assert windows("周六早饭") == [on(28, 6, 10)]
    # 早点 is also "a bit early": no meal (an existing reading).
    assert windows("周六早点出发") == [on(28, 0, 24)]


@pytest.mark.parametrize(
    ("text", "rest"),
    [
        # "am" before a pronoun is the verb, not the morning (audit, session 41).
        ("on friday am i too late for pottery", "am i too late for pottery"),
        ("tomorrow am i able to bring kids", "am i able to bring kids"),
    ],
)
def test_am_before_a_pronoun_is_the_verb(text, rest):
    found = understand(text, now=NOW_LONDON, direction="future")
    assert [t.text for t in found.times] == [text.split(" am ")[0]]
    assert found.rest == rest
    day = found.times[0].windows[0]
    assert (day.end - day.start).total_seconds() == 24 * 3600  # the whole day


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("remind me to take my pills at 8 tonight", [on(25, 20, 21, LONDON)]),
        ("tonight at 8", [on(25, 20, 21, LONDON)]),
        ("at 9 tomorrow morning", [on(26, 9, 10, LONDON)]),
        ("at 10 o'clock tomorrow morning", [on(26, 10, 11, LONDON)]),
        ("friday night at 9", [on(27, 21, 22, LONDON)]),
        ("sat at 3", [on(28, 15, 16, LONDON)]),  # a bare 1-6 is the afternoon
    ],
)
def test_an_hour_without_am_or_pm_beside_a_day_is_that_hour(text, expected):
    assert windows(text) == expected


@pytest.mark.parametrize("text", ["anything on this week", "这周有什么活动"])
def test_this_week_said_on_sunday_runs_through_the_week_ahead(text):
    sunday = datetime(2026, 11, 29, 10, tzinfo=LONDON if text.isascii() else SH)
    [phrase] = understand(text, now=sunday, direction="future").times
    assert [(w.start, w.end) for w in phrase.windows] == [
        (sunday, on(31, 0, 24 * 6, sunday.tzinfo)[1])
    ]


def test_this_week_said_midweek_ends_on_sunday():
    assert windows("anything on this week") == [(NOW_LONDON, on(30, 0, 0, LONDON)[0])]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A bare 7-11 without a part of the day is either half (session 55's audit).
        ("drinks friday at 9", [on(27, 0, 24, LONDON)]),
        ("trivia thursday at 7", [on(26, 0, 24, LONDON)]),
        ("anything saturday at 10 min from downtown", [on(28, 0, 24, LONDON)]),
        # "early" after other words than the day says how early, not when.
        ("friday drinks but i have to leave early", [on(27, 0, 24, LONDON)]),
        ("saturday early, anything on?", [on(28, 5, 9, LONDON)]),
        # An age after the children it is of is no hour.
        ("classes for kids from 3 on saturday", [on(28, 0, 24, LONDON)]),
    ],
)
def test_an_hour_or_early_that_is_not_the_days_leaves_the_day_whole(text, expected):
    assert windows(text) == expected


def test_the_sun_before_a_clock_time_is_no_sunday():
    assert understand("somewhere to sit in the sun at 4", now=NOW_LONDON).times == ()


@pytest.mark.parametrize("text", ["at 8", "kids at 5", "table for dinner at 8 people"])
def test_an_hour_without_am_or_pm_alone_is_no_time(text):
    assert understand(text, now=NOW_LONDON, direction="future").times == ()


@pytest.mark.parametrize(
    "text",
    ["sat or sun, somewhere to take the kiddos", "sat/sun kids", "sun or sat", "sat & sun markets"],
)
def test_two_short_weekend_days_joined_are_both_days(text):
    assert windows(text) == [on(28, 0, 48, LONDON)]


@pytest.mark.parametrize("text", ["fri or sat gig", "fri n sat gig"])
def test_a_short_day_after_another_day_and_a_joiner_is_a_day(text):
    assert windows(text) == [on(27, 0, 48, LONDON)]


@pytest.mark.parametrize("text", ["fun in the sun or rain", "she sat and read", "art and sun"])
def test_a_short_day_after_a_joiner_without_a_day_is_the_word(text):
    assert understand(text, now=NOW_LONDON, direction="future").times == ()


def test_am_before_anything_else_after_a_day_is_the_morning():
    assert windows("sat am pottery") == [on(28, 6, 12, LONDON)]


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        # 过早 where it can be "too early" is no breakfast (audit, session 41).
        ("今天过早了吧", "今天"),
        ("周六过早啦", "周六"),
        ("明天过早点吧", "明天"),
    ],
)
def test_too_early_is_not_breakfast(text, phrase):
    found = understand(text, now=NOW_SH, direction="future")
    assert [t.text for t in found.times] == [phrase]
