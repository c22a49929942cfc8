"""How the activity search uses a query's time words (issue 30, session 40): a time word that is
the time of a feeling, not of the request, orders the search instead of narrowing it
(rag/understand/soft.py): 「今天就想哈哈大笑」 finds the comedy night tomorrow, marked as outside
"today"; a time saying when to search still narrows, in Cantonese too (听日晚黑, 听日下昼:
rag/understand/regional.py).

A fixed ``now`` (tests.conftest.FIXED_NOW, Wednesday 2026-11-25 10:00 Shanghai), the real model.
"""

from __future__ import annotations

import pytest

from activities.search import activities_search
from tests.activities.test_search_time_marks import outside_unmarked
from tests.conftest import FIXED_NOW

pytestmark = pytest.mark.real_model

ROWS = [
    ("周三下午读书会｜安静地读一本书", "读书", 25, 15),
    ("周三晚上手工编织", "手工", 25, 19),
    ("脱口秀开放麦｜爆笑之夜", "演出", 26, 20),
    ("即兴喜剧｜笑到停不下来", "演出", 28, 19),
    ("周六上午公园慢跑", "运动", 28, 9),
]


def now():
    return FIXED_NOW


@pytest.fixture
def week(make_activity, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        for title, kind, day, hour in ROWS:
            start = now().replace(day=day, hour=hour)
            make_activity(title=title, description=title, type=kind, tags=[kind], start_at=start)


def test_the_time_of_a_feeling_orders_and_marks_rows_outside(week):
    outcome = activities_search(semantic_query="今天就想哈哈大笑", limit=10, now=now())
    time = outcome["meta"]["understood"]["time"]
    assert time["phrase"] == "今天"
    assert time["applied"] == "rank"
    titles = [r["title"] for r in outcome["results"]]
    assert any("脱口秀" in t or "喜剧" in t for t in titles)
    assert outside_unmarked(outcome) == []


def test_a_time_saying_when_still_narrows(week):
    outcome = activities_search(semantic_query="今天下午有什么活动", limit=10, now=now())
    assert outcome["meta"]["understood"]["time"]["applied"] == "filter"
    assert [r["title"] for r in outcome["results"]] == ["周三下午读书会｜安静地读一本书"]


def test_a_cantonese_day_and_part_narrow_like_the_mandarin_ones(week):
    outcome = activities_search(semantic_query="听日夜晚有咩好睇", limit=10, now=now())
    time = outcome["meta"]["understood"]["time"]
    assert time["phrase"] == "听日夜晚"
    assert time["applied"] == "filter"
    assert [r["title"] for r in outcome["results"]] == ["脱口秀开放麦｜爆笑之夜"]


@pytest.fixture
def tomorrow_morning(make_activity, django_capture_on_commit_callbacks):
    rows = [
        ("Dawn trail run", "sport", 26, 6),
        ("Sunrise paddle on the lake", "sport", 26, 7),
        ("Toddler storytime at the library", "kids", 26, 10),
        ("Late morning pottery", "craft", 26, 11),
    ]
    with django_capture_on_commit_callbacks(execute=True):
        for title, kind, day, hour in rows:
            start = now().replace(day=day, hour=hour)
            make_activity(title=title, description=title, type=kind, tags=[kind], start_at=start)


def test_early_before_a_texted_day_and_its_part_reads_the_early_morning(tomorrow_morning):
    # Issue 30, session 41: read as the whole morning (6-12), the storytime at 10:00 stood
    # inside the window the service stated and outside the one the person meant.
    outcome = activities_search(
        semantic_query="something active early tmrw morning", limit=10, now=now()
    )
    time = outcome["meta"]["understood"]["time"]
    assert time["phrase"] == "early tmrw morning"
    assert (time["start"][11:16], time["end"][11:16]) == ("05:00", "09:00")
    assert outside_unmarked(outcome) == []
