"""A time phrase that is the time of a feeling or names a kind of outing is soft: its window
orders a search, it does not narrow it (issue 30, session 40; rag/understand/soft.py). Read
against Wednesday 2026-11-25 10:00 (Shanghai; London for English)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from rag.understand import understand
from rag.understand.apply import NARROW, RANK, decide_time
from rag.understand.time import Window

SH = ZoneInfo("Asia/Shanghai")
LONDON = ZoneInfo("Europe/London")


def read(text: str):
    now = datetime(2026, 11, 25, 10, tzinfo=LONDON if text.isascii() else SH)
    return understand(text, now=now, direction="future")


@pytest.mark.parametrize(
    ("text", "phrase", "why"),
    [
        # The time of a feeling: a degree adverb, the subject of a state, a desire for the day.
        ("今天有点丧，想吃点甜的", "今天", "state"),
        ("今天心情超好，想去嗨一下", "今天", "state"),
        ("今天我好累 想放松", "今天", "state"),
        ("今天就想躺平", "今天", "state"),
        ("最近压力好大", "最近", "state"),
        ("最近失眠，想静下来", "最近", "state"),
        ("feeling creative today", "today", "state"),
        ("in a silly mood tonight", "tonight", "state"),
        ("need a good laugh after this week", "this week", "state"),
        # A habit: every such time.
        ("晚上老睡不着", "晚上", "habit"),
        ("周末总是宅在家", "周末", "habit"),
        # The end of the working day with no day: the person's working days (session 53).
        ("在光谷上班 下班后有么活动", "下班后", "habit"),
        ("高新区下班打羽毛球", "下班", "habit"),
        # A kind of outing.
        ("想疯一把 通宵那种", "通宵", "kind"),
        ("晚上的那种活动", "晚上", "kind"),
        # A length of time: a whole part of the day, not which day's (issue 30, session 41).
        ("想嗨一晚上 不回屋的", "晚上", "kind"),
        ("玩一下午", "下午", "kind"),
        ("整个下午都想待在外面", "下午", "kind"),
        # Suitable for a part of any day.
        ("适合上班族午休去的", "午休", "suits"),
        ("午休可以去的地方", "午休", "suits"),
    ],
)
def test_the_time_of_a_feeling_or_a_kind_is_soft(text, phrase, why):
    found = read(text)
    assert found.time is not None
    assert (found.time.text, found.time.soft) == (phrase, why)
    assert found.time.as_dict()["soft"] == why
    # Part of what the request means: the words stay in the text the model reads.
    assert phrase in found.rest


@pytest.mark.parametrize(
    "text",
    [
        "今天下午有什么",
        "今天有什么好玩的",
        "今天好玩的活动",
        "周末都有什么活动",
        "今晚想找个安静的地方待着",
        "最近有没有读书会",
        "周六晚上老孙家聚餐",
        "明天晚上打球",
        "anything on today",
        "tonight",
        "free tomorrow lunchtime, any music?",
        "after work today, something creative",
        "今天下班后去出出汗",
        "周四下班以后有课吗",
        # This one occasion: done, about to be, waited for, or a day said elsewhere.
        "下班了 附近有什么好吃的",
        "刚下班 附近有啥",
        "等我下班了去吃饭",
        "这周五，下班后去哪",
        # A wish after a degree adverb, or "feel like": a time to search, not a feeling.
        "今晚很想去看电影",
        "周末特别想去爬山",
        "今天好想去海边",
        "i feel like dancing tonight",
        "feel like going out tonight",
        "in the mood for a walk tonight",
        # 一 ending another word is no count of a part's length, and a length said to be free
        # says when (audit, session 41).
        "每周一晚上的课",
        "统一下午出发",
        "初一晚上",
        "整个下午都行",
    ],
)
def test_a_time_saying_when_to_search_is_not_soft(text):
    found = read(text)
    assert found.time is not None
    assert found.time.soft is None


def test_a_firm_time_wins_over_a_soft_one():
    found = read("今天有点丧，明晚想去看电影")
    assert found.time.text == "明晚"
    assert found.time.soft is None
    assert [t.text for t in found.times] == ["今天", "明晚"]
    assert found.rest == "今天有点丧， 想去看电影"


def test_a_soft_window_ranks_even_with_rows_inside():
    now = datetime(2026, 11, 25, 10, tzinfo=SH)
    window = Window(now, now.replace(hour=23))
    assert decide_time(window=window, inside=3, total=9).mode == NARROW
    assert decide_time(window=window, inside=3, total=9, soft=True).mode == RANK
    # With no row at all, an honest empty answer as before.
    assert decide_time(window=window, inside=0, total=0, soft=True).mode == NARROW
