"""Match reasons (activities/reasons.py): true, specific, in the query's language.

Built on unsaved activities and a fixed 'now', so no database is needed.
"""

from __future__ import annotations

import dataclasses
import re
import zoneinfo
from datetime import datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from activities import reasons
from activities.models import Activity
from activities.reasons import (
    ReasonContext,
    excerpt,
    match_reasons,
    offline_reason,
    one_search,
    query_terms,
)
from activities.understanding import FILTER, RANK, PlacePlan, TimePlan, read_query
from rag.understand import Window

SHANGHAI = zoneinfo.ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 11, 25, 10, 0, tzinfo=SHANGHAI)  # a Wednesday
FRIDAY_21 = datetime(2026, 11, 27, 21, 0, tzinfo=SHANGHAI)
SATURDAY_21 = datetime(2026, 11, 28, 21, 0, tzinfo=SHANGHAI)


def activity(**fields) -> Activity:
    values = {
        "title": "周五夜·巨鹿路爵士酒吧现场",
        "description": "一起听爵士，喝一杯。",
        "type": "音乐",
        "tags": ["爵士", "酒吧", "现场音乐"],
        "vibes": ["热闹", "文艺"],
        "start_at": FRIDAY_21,
        "time_zone": "Asia/Shanghai",
        "max_participants": 10,
        "current_participants": 2,
    }
    values.update(fields)
    return Activity(**values)


def context_for(query: str, *, plan: TimePlan | None = None, **kw) -> ReasonContext:
    understood = read_query(query, now=NOW, tz=SHANGHAI)
    if plan is not None:
        understood = dataclasses.replace(understood, time=plan)
    kw.setdefault("ranked", True)
    return ReasonContext(query=query, understood=understood, **kw)


def friday_evening_plan(applied=FILTER) -> TimePlan:
    window = Window(
        datetime(2026, 11, 27, 18, tzinfo=SHANGHAI), datetime(2026, 11, 28, tzinfo=SHANGHAI)
    )
    return TimePlan(applied, "周五晚上", (window,))


def test_the_time_part_names_the_window_and_the_real_start():
    reason = offline_reason(
        activity(), context=context_for("周五晚上热闹的地方", plan=friday_evening_plan())
    )
    assert "「周五晚上」" in reason
    assert "周五晚上 21:00" in reason
    assert "热闹" in reason


def test_a_saturday_activity_never_claims_a_friday_title_match():
    # The bug: "标题里提到了「周五」，周六晚上 21:00".
    saturday = activity(start_at=SATURDAY_21)
    reason = offline_reason(
        saturday, context=context_for("周五晚上热闹的地方", plan=friday_evening_plan(RANK))
    )
    assert "提到了「周五」" not in reason
    assert "周六晚上 21:00" in reason
    assert "「周五晚上」没有合适的" in reason  # said to be outside the window


def test_time_words_are_never_terms():
    assert query_terms("周五晚上热闹的地方") == ["热闹"]
    assert "friday" not in query_terms("live music on friday night")


def test_english_query_gets_an_english_reason():
    reason = offline_reason(
        activity(title="Livehouse 独立乐队之夜", tags=["livehouse"]),
        distance_km=2.34,
        context=context_for("livehouse this weekend"),
    )
    assert re.search(r"[\u4e00-\u9fff]", reason) is None
    assert 'its title mentions "livehouse"' in reason
    assert "2.3 km from you" in reason


def test_english_vibe_reason():
    reason = offline_reason(
        activity(title="室内冲浪体验课", tags=["冲浪"], vibes=["玩水", "运动"]),
        context=context_for("water sports"),
    )
    assert "something on the water" in reason


def test_spicy_query_mentions_spicy():
    hotpot = activity(title="重庆火锅局｜能吃辣的来", tags=["火锅", "重辣"], vibes=["美食"])
    reason = offline_reason(hotpot, context=context_for("想吃辣的"))
    assert "辣" in reason


def test_negated_mentions_are_not_matches():
    mild = activity(title="潮汕牛肉火锅｜不吃辣也能吃", tags=["火锅", "不辣"], vibes=["美食"])
    reason = offline_reason(mild, context=context_for("想吃辣的"))
    assert "提到了「辣」" not in reason


def test_a_listing_refusing_a_word_does_not_mention_it_in_either_language():
    # The reasons read a listing's refusals as the search's order does (one reader, issue 33).
    quiet = activity(title="Silent book club, no phones", tags=["reading"], vibes=[])
    reason = offline_reason(quiet, context=context_for("somewhere to read without phones"))
    assert "phones" not in reason
    beginners = activity(title="攀岩体验课｜不限经验", tags=["攀岩"], vibes=["运动"])
    reason = offline_reason(beginners, context=context_for("攀岩 有经验要求吗"))
    assert "经验" in reason


def test_small_path_says_these_are_all_that_pass_and_never_similar():
    reason = offline_reason(
        activity(title="室内冲浪体验课", tags=["冲浪"], vibes=["玩水"]),
        context=context_for("安静读书", small=True, total=2, ranked=False),
    )
    assert "符合筛选条件的只有这 2 个" in reason
    assert "意思相近" not in reason


def test_small_path_in_english():
    reason = offline_reason(
        activity(), context=context_for("quiet reading", small=True, total=1, ranked=False)
    )
    assert reason.startswith("The only activity that passes your filters")


def test_similar_in_meaning_quotes_the_query_without_cutting_words():
    query = "a long english query about weekend photography walks along the river"
    reason = offline_reason(activity(title="x", tags=[], vibes=[]), context=context_for(query))
    quoted = reason.split('"')[1]
    assert quoted.endswith("…")
    assert query.startswith(quoted[:-1])
    assert query[len(quoted) - 1] == " "  # cut between words


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="安静读书周末想去hello world 玩水，", min_size=0, max_size=60))
def test_excerpt_keeps_a_prefix_of_whole_pieces(text):
    out = excerpt(text)
    normal = " ".join(text.split())
    if len(normal) <= 20:
        assert out == normal
    else:
        assert out.endswith("…")
        assert normal.startswith(out[:-1])


def test_the_distance_says_nearby_when_the_query_asked():
    ctx = context_for("附近的爵士")
    ctx = dataclasses.replace(
        ctx, understood=dataclasses.replace(ctx.understood, place=PlacePlan("radius", "附近", 5))
    )
    reason = offline_reason(activity(), distance_km=0.42, context=ctx)
    assert "在你附近，离你 420 米" in reason


def test_match_reasons_without_a_query_use_the_default_sentence():
    reasons = match_reasons([(activity(), None)], None)
    assert reasons == ["周五晚上开始，还剩 8 个名额。"]


def test_the_reason_time_is_the_activitys_own_local_time():
    in_utc = activity(
        start_at=(FRIDAY_21 - timedelta(hours=0)).astimezone(zoneinfo.ZoneInfo("UTC"))
    )
    reason = offline_reason(in_utc, context=context_for("爵士"))
    assert "周五晚上 21:00" in reason


def test_one_search_segments_each_query_once_and_remembers_nothing_after(monkeypatch):
    calls: list[str] = []
    real = reasons.segment_query
    monkeypatch.setattr(reasons, "segment_query", lambda q: calls.append(q) or real(q))

    with one_search():
        first = query_terms("周末想去爬山")
        again = query_terms("周末想去爬山")
        first.append("changed by the caller")
        third = query_terms("周末想去爬山")
    assert calls == ["周末想去爬山"]
    assert "changed by the caller" not in again + third  # each caller's list is its own copy
    query_terms("周末想去爬山")  # outside a search: segmented again, kept nowhere
    assert calls == ["周末想去爬山", "周末想去爬山"]


def test_a_listing_inviting_or_listing_besides_still_mentions_the_word():
    # A listing's own refusal is narrow: an imperative ("don't miss", 别错过), 除了X还有 and
    # "can't ... without X" name X; the reason says where (audit, session 41).
    def where(term, **fields):
        fields = {"tags": [], "description": "", **fields}
        return reasons._where(term, activity(**fields))

    assert where("jazz", title="Don't miss our jazz night") == "标题"
    assert where("爵士", title="别错过周末爵士之夜") == "标题"
    assert where("陶艺", title="周末手作", description="除了陶艺还有木工") == "描述"
    assert where("coffee", title="Can't start the day without coffee") == "标题"
    assert where("phones", title="A dinner with no phones") is None  # a plain refusal
    assert where("经验", title="攀岩体验课｜不限经验") == "标题"  # what is not required
    reason = offline_reason(
        activity(title="Don't miss our jazz night", tags=[], description=""),
        context=context_for("jazz"),
    )
    assert 'title mentions "jazz"' in reason


def test_a_request_for_what_is_on_is_no_topic_to_be_close_to():
    quiet = activity(title="徐汇滨江发呆局", tags=[], vibes=[], description="什么都不做。")
    reason = offline_reason(quiet, context=context_for("下周有什么好玩的"))
    assert "意思相近" not in reason and "有什么" not in reason
    assert "周五晚上 21:00" in reason


@pytest.mark.parametrize(
    ("kind", "named"),
    [("音乐", "music"), ("美食", "food"), ("桌游", "board game"), ("Music", "Music")],
)
def test_an_english_reason_names_a_chinese_type_in_english(kind, named):
    assert reasons.type_name_en(kind) == named
