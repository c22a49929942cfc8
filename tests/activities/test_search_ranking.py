"""What the activity search reads of a query in the rows (activities/search_ranking.py)."""

from __future__ import annotations

from django.utils import timezone


def _row(pk, title, *, type="其他", tags=(), vibes=()):
    from types import SimpleNamespace

    return SimpleNamespace(pk=pk, title=title, type=type, tags=list(tags), vibes=list(vibes))


def test_cue_ranking_puts_rows_of_the_asked_kind_and_mood_first():
    from activities.search_ranking import cue_ranking
    from activities.understanding import read_query

    understood = read_query("安静的读书会", now=timezone.now(), tz=None)
    rows = [
        _row(1, "夜跑", type="运动", vibes=["运动"]),
        _row(2, "拼图", type="桌游", vibes=["安静"]),
        _row(3, "读书分享", type="读书", vibes=["安静", "文艺"]),
    ]
    assert cue_ranking(rows, understood) == [3, 2]  # two cues, then one; none: left out


def test_few_rows_are_ordered_by_what_the_query_names_without_a_provider():
    from activities.search_ranking import evidence_order
    from activities.understanding import read_query

    understood = read_query("爵士现场", now=timezone.now(), tz=None)
    rows = [_row(1, "夜市吃喝"), _row(2, "游泳约练"), _row(3, "爵士酒吧现场", type="音乐")]
    assert [a.pk for a in evidence_order(rows, "爵士现场", understood)] == [3, 1, 2]


def test_query_evidence_needs_a_word_or_cue_the_rows_have():
    from activities.search_ranking import query_evidence
    from activities.understanding import read_query

    rows = [_row(1, "周日七人制足球约战", type="运动", vibes=["运动"])]
    for query, expected in (("踢足球", True), ("修理打印机", False)):
        understood = read_query(query, now=timezone.now(), tz=None)
        assert query_evidence(query, rows, understood) is expected, query
