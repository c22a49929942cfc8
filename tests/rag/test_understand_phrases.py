"""Time phrases people use that the grammar learnt in session 39 (issue 30), in Chinese and
English, each read against a fixed ``now``: Wednesday 2026-11-25 10:00, Shanghai for the
Chinese phrases and London for the English ones (the two weekdays' numbers below).

Written from general usage, not from any query set: days joined by "or" / 到 (周六周日,
"friday or saturday night"), two parts side by side ("tomorrow morning before work"), the
next few days (这两天, 今明两天), later today (晚点去, "later tonight"), working days (工作日,
midweek, weeknights), the days off (周末两天, 节假日, 双休日), a fortnight, after a meal (晚饭后,
"after dinner"), the small hours (后半夜, "the wee hours of saturday"), another word for 下班
(收工后) and a clock time with a bound (八点以后, "after 8pm", "before 11am").
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from rag.understand import understand

SH = ZoneInfo("Asia/Shanghai")
LONDON = ZoneInfo("Europe/London")
NOW_SH = datetime(2026, 11, 25, 10, tzinfo=SH)
NOW_LONDON = datetime(2026, 11, 25, 10, tzinfo=LONDON)


def windows(text: str) -> list[tuple[datetime, datetime]]:
    """Return the windows of the time phrase ``text`` is filtered on (searching forward)."""
    now = NOW_LONDON if text.isascii() else NOW_SH
    found = understand(text, now=now, direction="future")
    assert found.time is not None, text
    return [(w.start, w.end) for w in found.time.windows]


def on(day: int, start: float, end: float, tz=SH) -> tuple[datetime, datetime]:
    """Return [start, end) hours of November ``day`` 2026 (31: 1 December; end past 24: the
    next day)."""
    midnight = datetime(2026, 11, 1, tzinfo=tz) + timedelta(days=day - 1)
    return midnight + timedelta(hours=start), midnight + timedelta(hours=end)


def now_to(day: int, tz=SH) -> tuple[datetime, datetime]:
    """Return [now, midnight before November ``day``)."""
    return datetime(2026, 11, 25, 10, tzinfo=tz), on(day, 0, 0, tz)[0]


# Wednesday 25th: 周四 26, 周五 27, 周六 28, 周日 29, 周一 30; next week's 周六 is 5 December.
CHINESE = [
    ("大后天去爬山", [on(28, 0, 24)]),
    ("周六周日都可以", [on(28, 0, 48)]),
    ("周六或者周日去爬山", [on(28, 0, 48)]),
    ("这礼拜六礼拜天带小孩去哪里", [on(28, 0, 48)]),
    ("周六日带娃", [on(28, 0, 48)]),
    ("周末两天都有空", [on(28, 0, 48)]),
    ("节假日带孩子去哪", [on(28, 0, 48)]),
    ("双休日", [on(28, 0, 48)]),
    ("明天或者后天", [on(26, 0, 48)]),
    ("周五晚上或者周六白天", [on(27, 18, 24), on(28, 6, 18)]),
    ("周五或周六晚上", [on(27, 18, 24), on(28, 18, 24)]),
    ("下午两点到五点", [on(25, 14, 17)]),
    ("这两天有什么好玩的", [now_to(28)]),
    ("这几天", [now_to(28)]),
    ("今明两天", [now_to(27)]),
    ("明后天有空", [on(26, 0, 48)]),
    ("近两天有什么活动", [now_to(28)]),
    ("晚点去喝一杯", [now_to(26)]),
    ("待会儿一起去吃饭", [now_to(26)]),
    ("工作日晚上", [on(25, 18, 24), on(26, 18, 24), on(27, 18, 24)]),
    ("明早想去湖边晨练", [on(26, 5, 10)]),
    ("明天晚上下班后", [on(26, 18, 24)]),
    ("周五收工后", [on(27, 18, 24)]),
    ("晚饭后散步", [on(25, 19, 24)]),
    ("明天中午饭后", [on(26, 13, 18)]),
    ("今天后半夜", [on(26, 0, 6)]),
    ("黄昏去江边", [on(25, 17, 19)]),
    ("晚上八点后", [on(25, 20, 24)]),
    ("明天下午三点前", [on(26, 12, 15)]),
    ("下下周", [(on(7 + 30, 0, 0)[0], on(14 + 30, 0, 0)[0])]),
    ("月底有什么展", [now_to(31)]),  # the last seven days of November, from now
    ("礼拜六去哪玩", [on(28, 0, 24)]),
]
ENGLISH = [
    ("this coming sat, a gig", [on(28, 0, 24, LONDON)]),
    ("this weekend", [on(28, 0, 48, LONDON)]),
    ("next weekend", [on(35, 0, 48, LONDON)]),
    ("the weekend after next", [on(42, 0, 48, LONDON)]),
    ("saturday or sunday, a hike", [on(28, 0, 48, LONDON)]),
    ("friday or saturday night", [on(27, 18, 24, LONDON), on(28, 18, 24, LONDON)]),
    ("sunday 2pm to 5pm", [on(29, 14, 17, LONDON)]),
    ("tomorrow morning before work, a workout", [on(26, 6, 9, LONDON)]),
    ("friday lunch break, something to do", [on(27, 12, 14, LONDON)]),
    # A part apart from the day's own narrows it where they overlap (session 43).
    ("tmrw morning workout before work", [on(26, 6, 9, LONDON)]),
    ("tomorrow morning, a swim before work", [on(26, 6, 9, LONDON)]),
    ("friday evening, a drink after work", [on(27, 18, 24, LONDON)]),
    ("tomorrow morning a swim, then after work a beer", [on(26, 6, 12, LONDON)]),
    ("tmrw pre-work swim", [on(26, 6, 9, LONDON)]),
    ("friday post-work drinks", [on(27, 17, 24, LONDON)]),
    ("over the next fortnight", [(NOW_LONDON, NOW_LONDON + timedelta(days=14))]),
    ("midweek yoga", [now_to(27, LONDON)]),
    ("weeknights", [on(25, 18, 24, LONDON), on(26, 18, 24, LONDON), on(27, 18, 24, LONDON)]),
    ("later tonight, a drink", [on(25, 18, 24, LONDON)]),
    ("something after dinner on friday", [on(27, 19, 24, LONDON)]),
    ("sunday after lunch", [on(29, 13, 18, LONDON)]),
    ("saturday in the wee hours", [on(28, 0, 6, LONDON)]),
    ("saturday after midnight", [on(29, 0, 6, LONDON)]),
    ("after 8pm tonight", [on(25, 20, 24, LONDON)]),
    ("saturday from 2pm", [on(28, 14, 24, LONDON)]),
    ("sunday before 11am", [on(29, 0, 11, LONDON)]),
]


@pytest.mark.parametrize(("text", "expected"), CHINESE + ENGLISH)
def test_a_time_phrase_people_use_is_read_as_its_window(text, expected):
    assert windows(text) == expected


@pytest.mark.parametrize(
    "text",
    ["航班晚点了", "上下班路上", "周末和朋友去爬山", "i sat in the sun all day", "midnight snack"],
)
def test_words_that_only_look_like_these_phrases_stay_what_they_were(text):
    found = understand(text, now=NOW_LONDON if text.isascii() else NOW_SH, direction="future")
    if text == "周末和朋友去爬山":  # the weekend, with no second time to join
        assert [(w.start, w.end) for w in found.time.windows] == [on(28, 0, 48)]
    else:
        assert found.time is None, text


def test_the_words_joining_two_days_leave_the_rest():
    found = understand("周六或者周日去爬山", now=NOW_SH, direction="future")
    assert found.rest == "去爬山"
    found = understand("saturday or sunday, a hike", now=NOW_LONDON, direction="future")
    assert found.rest == "a hike"


def test_a_time_inside_another_refines_it_and_is_not_joined():
    # 周六，晚上八点: Saturday 20:00, not the whole Saturday.
    assert windows("周六，晚上八点") == [on(28, 20, 21)]


@pytest.mark.parametrize(
    ("text", "negated"),
    [
        ("想运动，但早上实在起不来", "早上"),
        ("想运动但晚上没空", "晚上"),
        ("不要周末的", "周末"),
        ("除了周六都行", "周六"),
        ("not on sunday, something outdoors", "on sunday"),
        ("except saturday", "saturday"),
    ],
)
def test_a_time_the_person_cannot_make_is_no_window(text, negated):
    found = understand(text, now=NOW_LONDON if text.isascii() else NOW_SH, direction="future")
    assert found.time is None, text
    assert [(i.text, i.reason) for i in found.ignored] == [(negated, "negated")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("周六要加班，周日想出去玩", [on(29, 0, 24)]),
        ("sunday is out, saturday works", [on(28, 0, 24, LONDON)]),
        ("晚上想出门玩，但是不想喝酒", [on(25, 18, 24)]),  # the refusal is of the drink
    ],
)
def test_the_time_the_person_can_make_is_the_window(text, expected):
    assert windows(text) == expected


@pytest.mark.parametrize("text", ["明早上班之前去游个泳", "明天早上上班前跑步", "明早上班前"])
def test_before_work_tomorrow_morning_is_early_morning_in_chinese(text):
    # 明早上班之前 is 明早 and 上班之前, not 明早上 and 班之前 (session 43).
    assert windows(text) == [on(26, 6, 9)]


def test_tonight_before_going_to_work_keeps_the_work_in_the_text():
    found = understand("今晚上班", now=NOW_SH, direction="future")
    assert [(w.start, w.end) for w in found.time.windows] == [on(25, 18, 24)]
    assert found.rest == "上班"
