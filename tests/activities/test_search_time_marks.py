"""Every result of a time-phrase query starts inside its window or says it is the closest
outside it (issue 30): one rule (activities.search_window.mark_outside) that every path of the
search goes through, tested here path by path.

The rows sit on Friday and Saturday; the query asks for Sunday evening (nothing there), so
every answer is made of rows outside the window. A fixed ``now`` (tests.conftest.FIXED_NOW,
Wednesday 2026-11-25 10:00 Shanghai).
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta
from types import SimpleNamespace

import pytest

from activities import search, search_results
from activities.search import activities_search
from activities.search_window import mark_outside
from activities.understanding import FILTER, TimePlan, read_query, user_zone
from rag.embeddings import ProviderError

pytestmark = pytest.mark.real_model

ROWS = [
    ("周五下午桌游局｜卡坦岛", "桌游", 27, 14),
    ("周五晚上狼人杀", "桌游", 27, 19),
    ("周六上午公园慢跑", "运动", 28, 9),
    ("周六下午陶艺体验", "手工", 28, 15),
    ("周六晚上剧本杀", "桌游", 28, 19),
]
MARK = "「周日晚上」没有合适的"


def now():
    from tests.conftest import FIXED_NOW

    return FIXED_NOW


def at(day: int, hour: int) -> datetime:
    return now().replace(day=day, hour=hour)


@pytest.fixture
def friday_saturday(make_activity, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        for title, kind, day, hour in ROWS:
            make_activity(
                title=title, description=title, type=kind, tags=[kind], start_at=at(day, hour)
            )


def outside_unmarked(outcome: dict) -> list[str]:
    """Return the titles of results outside the understood window that do not say so."""
    time = outcome["meta"]["understood"]["time"]
    start, end = (datetime.fromisoformat(time[k]) for k in ("start", "end"))
    return [
        r["title"]
        for r in outcome["results"]
        if not start <= datetime.fromisoformat(r["startAt"]) < end
        and "没有合适的" not in r["matchReason"]
    ]


def test_rank_mode_on_the_semantic_path_marks_every_row_outside(friday_saturday):
    outcome = activities_search(semantic_query="周日晚上想玩桌游", limit=10, now=now())
    assert outcome["meta"]["path"] == "semantic"
    assert outcome["meta"]["understood"]["time"]["applied"] == "rank"
    assert outcome["results"]
    assert outside_unmarked(outcome) == []
    assert all(MARK in r["matchReason"] for r in outcome["results"])


def test_the_sorted_path_of_a_bare_time_phrase_marks_every_row_outside(friday_saturday):
    outcome = activities_search(semantic_query="周日晚上", limit=10, now=now())
    assert outcome["meta"]["path"] == "hard_filter_sorted"
    assert outcome["results"]
    assert outside_unmarked(outcome) == []


def test_the_degraded_path_marks_every_row_outside(friday_saturday, monkeypatch):
    def down(*args, **kwargs):
        raise ProviderError("provider down")

    monkeypatch.setattr(search, "embed_query", down)
    monkeypatch.setattr(search, "embed_texts", down)
    outcome = activities_search(semantic_query="周日晚上想玩桌游", limit=10, now=now())
    assert outcome["meta"]["path"] == "hard_filter_degraded"
    assert outcome["results"]
    assert outside_unmarked(outcome) == []


def test_the_small_path_marks_every_row_outside(make_activity, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        for title, kind, day, hour in ROWS[:2]:
            make_activity(
                title=title, description=title, type=kind, tags=[kind], start_at=at(day, hour)
            )
    outcome = activities_search(semantic_query="周日晚上想玩桌游", limit=10, now=now())
    assert outcome["meta"]["path"] == "hard_filter_small"
    assert outcome["results"]
    assert outside_unmarked(outcome) == []


@pytest.mark.parametrize("writer", ["llm", "disabled"])
def test_reasons_written_elsewhere_still_carry_the_mark(
    friday_saturday, activity_settings, monkeypatch, writer
):
    if writer == "llm":
        # An LLM's sentence knows nothing of the window.
        monkeypatch.setattr(
            search_results, "match_reasons", lambda items, *a, **k: ["很适合你。"] * len(items)
        )
    else:
        activity_settings.match_reasons_enabled = False
        activity_settings.save()
    outcome = activities_search(semantic_query="周日晚上想玩桌游", limit=10, now=now())
    assert outcome["results"]
    assert outside_unmarked(outcome) == []
    assert all(r["matchReason"].startswith(MARK) for r in outcome["results"])


def test_the_rule_leaves_rows_inside_alone_and_marks_once():
    understood = read_query("周六晚上", now=now(), tz=user_zone("Asia/Shanghai"))
    phrase = understood.found.time
    understood = dataclasses.replace(understood, time=TimePlan(FILTER, phrase.text, phrase.windows))
    inside = SimpleNamespace(start_at=at(28, 20), time_zone="Asia/Shanghai")
    outside = SimpleNamespace(start_at=at(28, 15), time_zone="Asia/Shanghai")
    said = "在你说的「周六晚上」：周六晚上 20:00 开始。"
    results = [
        {"_obj": inside, "matchReason": said},
        {"_obj": outside, "matchReason": "很适合你。"},
    ]
    assert mark_outside(results, understood) == 1
    assert results[0]["matchReason"] == said
    marked = "「周六晚上」没有合适的，这个在11月28日周六下午 15:00"
    assert results[1]["matchReason"].startswith(marked)
    marked = results[1]["matchReason"]
    mark_outside(results, understood)
    assert results[1]["matchReason"] == marked  # said once


def test_rows_in_a_time_the_query_refuses_are_left_out(friday_saturday):
    outcome = activities_search(semantic_query="周六没空，想找个桌游局", limit=10, now=now())
    assert outcome["meta"]["understood"]["time"] is None  # a refusal is no window to search in
    assert outcome["results"]
    assert all(not r["title"].startswith("周六") for r in outcome["results"]), [
        r["title"] for r in outcome["results"]
    ]


def test_the_mark_names_the_date_of_a_row_outside_in_english():
    from activities.reasons import outside_note

    later = SimpleNamespace(start_at=at(28, 15) + timedelta(days=7), time_zone="Asia/Shanghai")
    note = outside_note(later, "saturday evening", english=True)
    assert note == 'nothing fits "saturday evening"; this one starts Sat 5 Dec 15:00 (afternoon)'
