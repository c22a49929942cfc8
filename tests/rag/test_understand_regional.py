"""Time words of the regional and colloquial varieties of Chinese (and a few of English), read
against a fixed ``now``: Wednesday 2026-11-25 10:00, Shanghai for the Chinese phrases and London
for the English ones (issue 30, session 40; the table: rag/understand/regional.py).

Cantonese (听日, 听朝早, 下昼, 朝早, 日头, 呢个礼拜), Beijing and Northeastern (今儿个, 后儿,
晌午, 后晌, 擦黑, 头午), Wu (今朝, 下半日, 夜快), traditional characters (週六, 下禮拜天, 八點),
Australian and texting English (s'arvo, 2day, tmw) and the narrower English parts ("late
afternoon"). Written from general knowledge of each variety, not from any query set.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from tests.rag.time_helpers import LONDON, on, read


def windows(text: str, direction: str = "future") -> list[tuple[datetime, datetime]]:
    found = read(text, direction)
    assert found.time is not None, text
    return [(w.start, w.end) for w in found.time.windows]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Cantonese
        ("听日收工后想做下运动", [on(26, 18, 24)]),
        ("听朝早边度可以晨练", [on(26, 5, 12)]),
        ("听晚食饭", [on(26, 18, 24)]),
        ("后日去行山", [on(27, 0, 24)]),
        ("周日下昼有咩手作", [on(29, 12, 18)]),
        ("周六朝早带小朋友去玩", [on(28, 5, 12)]),
        ("周六朝早十一点", [on(28, 11, 12)]),  # 朝早 runs to noon
        ("礼拜六晏昼饮茶", [on(28, 12, 18)]),
        ("下礼拜六日头想去郊外走走", [on(35, 6, 18)]),
        ("呢个周末去边度", [on(28, 0, 48)]),
        ("呢个礼拜六", [on(28, 0, 24)]),
        ("今个礼拜有咩搞", [on(25, 10, 24 * 5)]),
        ("今晚黑去边", [on(25, 18, 24)]),
        # Beijing and Northeastern
        ("今儿个晚上", [on(25, 18, 24)]),
        ("明儿个下午", [on(26, 12, 18)]),
        ("后儿去爬山", [on(27, 0, 24)]),
        ("大后儿", [on(28, 0, 24)]),
        ("礼拜天晌午", [on(29, 11, 14)]),
        ("周六后晌去公园", [on(28, 12, 18)]),
        ("明儿擦黑", [on(26, 17, 19)]),
        ("周五头午", [on(27, 6, 12)]),
        ("明天上半天", [on(26, 6, 12)]),
        ("周日下半天", [on(29, 12, 18)]),
        # Wu (Shanghainese)
        ("今朝夜里", [on(25, 18, 24)]),
        ("礼拜六下半日", [on(28, 12, 18)]),
        ("明天夜快头", [on(26, 17, 19)]),
        # Traditional characters
        ("週六晚上", [on(28, 18, 24)]),
        ("下禮拜天", [on(36, 0, 24)]),
        ("這週末", [on(28, 0, 48)]),
        ("明天晚上八點", [on(26, 20, 21)]),
        ("聽日下晝", [on(26, 12, 18)]),
        # English
        ("a walk s'arvo", [on(25, 12, 18, LONDON)]),
        ("anything on 2day", [on(25, 10, 24, LONDON)]),
        ("drinks tmw", [on(26, 0, 24, LONDON)]),
        ("saturday late afternoon", [on(28, 15, 18, LONDON)]),
        ("friday early evening drinks", [on(27, 17, 20, LONDON)]),
        ("sunday mid-morning", [on(29, 9, 12, LONDON)]),
    ],
)
def test_a_regional_time_word_is_read_as_its_window(text, expected):
    assert windows(text) == expected


def test_yesterday_in_cantonese_is_yesterday():
    assert windows("琴日去咗边", direction="past") == [on(24, 0, 24)]
    assert windows("琴晚睇咗咩", direction="past") == [on(24, 18, 24)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("阵间去饮茶", [on(25, 10, 24)]), ("等一下去看电影", [on(25, 10, 24)])],
)
def test_in_a_while_before_a_verb_is_later_today(text, expected):
    assert windows(text) == expected


def test_lately_in_cantonese_is_recent():
    assert read("呢排有咩好睇", direction="past").time.kind == "recent"


@pytest.mark.parametrize(
    "text",
    [
        "明朝古城墙",  # the Ming dynasty, not Shanghainese "tomorrow"
        "节日里的灯会",  # 日里 only after a day
        "想去晒日头",  # 日头: the sun
        "早起跑步",
        # A dialect day word inside other words: 之后 + 儿子, 然后 + 儿童, 午后 + 日落, 之前 +
        # 日本, 寻 + 日出; 天黑 + 下山 (黑下 only after a day).
        "吃完饭之后儿子想去游泳",
        "然后儿童",
        "午后日落",
        "之前日本",
        "去山顶寻日出",
        "天黑下山",
        "早早睡觉",  # 早早: "early", an adverb
        "黑夜里的星星",  # 黑夜 only after a day
    ],
)
def test_words_that_are_other_words_name_no_time(text):
    found = read(text)
    assert found.times == ()
    assert found.rest == text


def test_an_adverb_leaves_the_day_to_the_day_word():
    assert windows("早早睡觉的人周六去哪") == [on(28, 0, 24)]


def test_heixia_after_a_day_is_its_night():
    assert windows("明儿黑下去哪") == [on(26, 18, 24)]


@pytest.mark.parametrize("text", ["今儿黑夜想动一动 出出汗", "今天黑夜去哪耍"])
def test_heiye_after_a_day_is_its_night_not_the_whole_day(text):
    assert windows(text) == [on(25, 18, 24)]


def test_a_refused_day_in_traditional_characters_is_refused():
    # 週六沒空: the negation reads the folded text (周六没空), as the scan does.
    found = read("週六沒空，週日去爬山")
    assert [(w.start, w.end) for w in found.time.windows] == [on(29, 0, 24)]
    assert [i.reason for i in found.ignored] == ["negated"]


def test_yixia_before_a_weekday_is_briefly_not_next_week():
    # 订一下周六: 一下 ("briefly") then this Saturday, not 下周六.
    assert windows("帮我订一下周六晚上") == [on(28, 18, 24)]
