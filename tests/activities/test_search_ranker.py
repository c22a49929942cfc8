"""The learned precision gate of the activity search (activities/search_ranker.py)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from activities import search_ranker
from activities.models import Activity
from activities.search import activities_search
from activities.search_ranker import (
    FEATURES,
    FLOOR_FEATURES,
    FLOOR_WEIGHTS,
    WEIGHTS,
    Pool,
    chinese_listings,
    features,
    first_likeness,
    floor_features,
    other_script,
    refused_words,
    unlikely,
)
from activities.search_ranking import cue_counts
from activities.understanding import read_query, user_zone


def _pool(margins, named, coverage=(), cues=()) -> Pool:
    return Pool(
        margins=tuple(margins),
        named=tuple(named),
        english=False,
        coverage=tuple(coverage),
        cues=tuple(cues),
    )


# A best hit standing alone, then a crowd far below it.
MARGINS = [0.35] + [0.05 - 0.002 * i for i in range(19)]


def test_every_candidate_gets_one_row_of_the_fitted_features():
    rows = features(_pool(MARGINS, [False] * 20))
    assert rows.shape == (20, len(FEATURES)) and len(WEIGHTS) == len(FEATURES)
    below_best, dense_rank = FEATURES.index("below_best"), FEATURES.index("dense_rank")
    # The best hit stands 0 below itself, at rank 0; the last stands farthest below it.
    assert rows[0, below_best] == 0.0 and rows[0, dense_rank] == 0.0
    assert rows[-1, below_best] == max(rows[:, below_best]) > 0.0


def test_the_first_hit_stays_however_unlikely():
    drop = unlikely(_pool(MARGINS, [False] * 20), list(range(20)), threshold=1.0)
    assert 0 not in drop and drop == set(range(1, 20))


def test_a_hit_naming_the_query_is_read_too():
    named = [False, True, False] + [True] * 17
    assert unlikely(_pool(MARGINS, named), list(range(20)), threshold=1.0) == set(range(1, 20))


def test_a_hit_of_a_kind_or_mood_the_query_asks_for_stays():
    cues = [1.0, 0.0, 1.0] + [0.0] * 17
    drop = unlikely(_pool(MARGINS, [True] * 20, [0.0] * 20, cues), list(range(20)), threshold=1.0)
    assert drop == {1} | set(range(3, 20))


def test_a_hit_of_another_kind_than_the_one_asked_for_by_name_goes():
    # "pottery class": rows 0 and 2 are pottery, the rest another kind, all likely to the model
    # (threshold 0): the others go, and neither the first hit nor the pottery rows do.
    of_kind = (True, False, True) + (False,) * 17
    pool = Pool(margins=tuple(MARGINS), named=(True,) * 20, english=True, of_kind=of_kind)
    # (No floor: the kind rule alone.)
    drop = unlikely(pool, list(range(20)), threshold=0.0, floor=[False] * 20)
    assert drop == {1} | set(range(3, 20))


def test_with_no_row_of_the_kind_shown_the_model_decides():
    pool = Pool(margins=tuple(MARGINS), named=(True,) * 20, english=True, of_kind=(False,) * 20)
    assert unlikely(pool, list(range(20)), threshold=0.0, floor=[False] * 20) == set()


def test_a_row_of_a_kind_or_mood_cue_of_the_query_stays_whatever_its_named_kind():
    of_kind = (True,) + (False,) * 19
    cues = (0.0, 1.0) + (0.0,) * 18
    pool = Pool(
        margins=tuple(MARGINS), named=(True,) * 20, english=True, cues=cues, of_kind=of_kind
    )
    assert 1 not in unlikely(pool, list(range(20)), threshold=0.0)


def test_a_hit_of_a_kind_the_query_refuses_is_not_kept_for_it():
    # 「不要户外的」: the outdoor rows hold a cue of the query, under its negation only.
    cues = [1.0, 1.0, 1.0] + [0.0] * 17
    pool = Pool(
        margins=tuple(MARGINS),
        named=(True,) * 20,
        english=False,
        coverage=(0.0,) * 20,
        cues=tuple(cues),
        asked=(0.0,) * 20,
    )
    assert unlikely(pool, list(range(20)), threshold=1.0) == set(range(1, 20))


def test_a_cue_of_a_query_in_another_script_than_the_listings_keeps_no_hit():
    # A Chinese query over English listings: 运动 read from 球 matches an English row's vibes,
    # which says nothing of whether it is the activity asked for.
    cues = [1.0, 1.0, 1.0] + [0.0] * 17
    pool = Pool(
        margins=tuple(MARGINS),
        named=(True,) * 20,
        english=False,
        coverage=(0.0,) * 20,
        cues=tuple(cues),
        other_script=True,
    )
    assert unlikely(pool, list(range(20)), threshold=1.0) == set(range(1, 20))
    cued = FEATURES.index("cued")
    assert not features(pool)[:, cued].any()


def test_a_chinese_query_is_in_another_script_when_most_titles_are_not():
    english = ["Pottery for beginners", "Sunset kayak", "陶艺体验课"]
    assert other_script("想学做陶艺", english)
    assert not other_script("pottery class", english)
    assert not other_script("想学做陶艺", ["陶艺体验课", "周末徒步", "Sunset kayak"])
    # An English query reads its moods from mood words only: its cues count over Chinese rows.
    assert not other_script("quiet reading", ["静读会", "周末徒步", "陶艺体验课"])


def test_a_cue_of_an_english_query_over_chinese_listings_vouches_for_no_hit():
    # "pottery workshop" over Chinese rows: 手工 read from "pottery" holds for every craft row.
    cues = [1.0, 1.0, 1.0] + [0.0] * 17
    kw = {"margins": tuple(MARGINS), "named": (True,) * 20, "english": True, "cues": tuple(cues)}
    assert unlikely(Pool(**kw), list(range(20)), threshold=1.0) == set(range(3, 20))
    pool = Pool(**kw, chinese_listings=True)
    assert unlikely(pool, list(range(20)), threshold=1.0) == set(range(1, 20))
    # The model still reads the cues, as fitted.
    cued = FEATURES.index("cued")
    assert features(pool)[:3, cued].all()


def test_an_english_query_is_over_chinese_listings_when_most_titles_are_chinese():
    assert chinese_listings(True, ["陶艺体验课", "周末徒步", "Sunset kayak"])
    assert not chinese_listings(True, ["Pottery for beginners", "Sunset kayak", "陶艺体验课"])
    assert not chinese_listings(False, ["陶艺体验课", "周末徒步", "Sunset kayak"])


def test_the_cue_features_read_how_common_holding_a_cue_is():
    cues = [1.0, 0.0, 1.0, 0.0]
    pool = Pool(margins=(0.3, 0.2, 0.1, 0.0), named=(True,) * 4, english=True, cues=tuple(cues))
    rows = features(pool)
    share, rare = FEATURES.index("cued_share"), FEATURES.index("cued_rare")
    assert list(rows[:, share]) == [0.5] * 4
    assert list(rows[:, rare]) == [0.5, 0.0, 0.5, 0.0]


def test_holding_the_query_rare_words_makes_a_hit_more_likely_than_naming_nothing():
    # The same place in the pool; one hit holds every word of the query, where few others do.
    named = [True, True, False] + [False] * 17
    coverage = [1.0, 1.0, 0.0] + [0.0] * 17
    margins = [0.30, 0.20, 0.20] + [0.10 - 0.002 * i for i in range(17)]
    rows = features(_pool(margins, named, coverage, [0.0] * 20))
    score = rows @ WEIGHTS
    assert score[1] > score[2]


def test_a_similar_only_hit_far_below_the_best_goes():
    drop = unlikely(_pool(MARGINS, [False] * 20), list(range(20)))
    assert set(range(10, 20)) <= drop


@pytest.mark.django_db
@pytest.mark.real_model
class TestInTheSearch:
    # Relevance: ranked by meaning, so the real model (docs/DEVELOPING.md).

    @pytest.mark.parametrize("query", ["周末想出去走走", "something relaxing"])
    def test_the_gate_only_drops_rows_and_keeps_the_order(
        self, demo_activities, monkeypatch, query
    ):
        gated = [r["title"] for r in activities_search(semantic_query=query, limit=10)["results"]]
        monkeypatch.setattr(search_ranker, "THRESHOLD", 0.0)  # drops nothing
        monkeypatch.setattr(search_ranker, "SECOND_THRESHOLD", 0.0)  # nor for a Chinese query
        ungated = [r["title"] for r in activities_search(semantic_query=query, limit=10)["results"]]
        assert gated and gated[0] == ungated[0]
        assert gated == [t for t in ungated if t in gated]

    @pytest.mark.parametrize("query", ["玩水", "周末想出去走走"])
    def test_with_nothing_likely_a_list_keeps_its_best_hit_and_the_rows_of_its_kinds_and_moods(
        self, demo_activities, monkeypatch, query
    ):
        ungated = activities_search(semantic_query=query, limit=10)["results"]
        monkeypatch.setattr(search_ranker, "THRESHOLD", 1.0)  # nothing is likely
        monkeypatch.setattr(search_ranker, "SECOND_THRESHOLD", 1.0)  # nor for a Chinese query
        gated = [r["title"] for r in activities_search(semantic_query=query, limit=10)["results"]]
        understood = read_query(query, now=timezone.now(), tz=user_zone(None))
        rows = [Activity.objects.get(pk=r["id"]) for r in ungated]
        cued = [r.title for r, n in zip(rows, cue_counts(rows, understood), strict=True) if n]
        expected = [ungated[0]["title"]] + [r["title"] for r in ungated[1:] if r["title"] in cued]
        assert gated == expected

    @pytest.mark.parametrize("query", ["周末想出去走走", "something relaxing", "压力大想发呆"])
    def test_the_floor_only_drops_rows_and_keeps_the_order(
        self, demo_activities, monkeypatch, query
    ):
        floored = [r["title"] for r in activities_search(semantic_query=query, limit=10)["results"]]
        monkeypatch.setattr(search_ranker, "FLOOR_THRESHOLD", 0.0)  # no floor
        plain = [r["title"] for r in activities_search(semantic_query=query, limit=10)["results"]]
        assert floored and floored[0] == plain[0]
        assert floored == [t for t in plain if t in floored]

    def test_an_off_topic_query_still_answers_nothing(self, demo_activities):
        outcome = activities_search(semantic_query="量子力学考试复习", limit=10)
        assert outcome["results"] == []
        assert outcome["meta"]["relevance"]["offTopic"] is True


# The floor (issue 30, session 40): a second model over every candidate of the query.


def test_the_floor_reads_one_row_per_candidate_and_the_fused_order():
    fused = tuple(0.1 * i for i in range(20))  # the fused order reverses the dense one
    rows = floor_features(
        Pool(margins=tuple(MARGINS), named=(False,) * 20, english=False, fused=fused)
    )
    assert rows.shape == (20, len(FLOOR_FEATURES)) and len(FLOOR_WEIGHTS) == len(FLOOR_FEATURES)
    place = FLOOR_FEATURES.index("fused_rank")
    assert rows[-1, place] == 0.0 and rows[0, place] == max(rows[:, place])
    # Without a fused order (no hybrid) the dense margins stand for it.
    dense = floor_features(_pool(MARGINS, [False] * 20))
    assert dense[0, place] == 0.0


def test_a_hit_the_fused_order_puts_first_is_likelier_under_the_floor():
    def score(fused):
        pool = Pool(margins=tuple(MARGINS), named=(False,) * 20, english=False, fused=fused)
        return floor_features(pool) @ FLOOR_WEIGHTS

    low = (1.0, 0.0) + tuple(0.5 - 0.01 * i for i in range(18))
    high = (1.0, 0.9) + tuple(0.5 - 0.01 * i for i in range(18))
    assert score(high)[1] > score(low)[1]


def test_a_hit_under_the_floor_goes_though_the_gate_keeps_it():
    floor = [True] * 20
    # The gate's threshold 0 keeps every hit; the floor drops all but the first.
    drop = unlikely(_pool(MARGINS, [False] * 20), list(range(20)), threshold=0.0, floor=floor)
    assert drop == set(range(1, 20))
    drop = unlikely(
        _pool(MARGINS, [False] * 20), list(range(20)), threshold=0.0, floor=[False] * 20
    )
    assert drop == set()


def test_a_hit_of_a_kind_the_query_asks_for_stays_under_the_floor():
    cues = [1.0, 0.0, 1.0] + [0.0] * 17
    pool = _pool(MARGINS, [True] * 20, [0.0] * 20, cues)
    drop = unlikely(pool, list(range(20)), threshold=0.0, floor=[True] * 20)
    assert drop == {1} | set(range(3, 20))


def test_a_query_refuses_its_refused_words_not_the_words_framing_the_refusal():
    assert refused_words("exercise but no running") == {"running"}
    assert refused_words("on the water but i cant surf") == {"surf"}
    # "water" is asked for outside the refusal too: not refused.
    assert "water" not in refused_words("on the water but NOT swimming in freezing water")
    assert refused_words("pottery class") == set()


def test_a_hit_naming_what_the_query_refuses_goes_whatever_its_cue():
    cues = [1.0] * 20
    refusing = (False, True) + (False,) * 18
    pool = Pool(
        margins=tuple(MARGINS),
        named=(True,) * 20,
        english=True,
        cues=tuple(cues),
        refusing=refusing,
    )
    # Every hit holds a cue of the query (exempt from the model), the second names the refused.
    assert unlikely(pool, list(range(20)), threshold=0.0, floor=[False] * 20) == {1}
    # The first hit stays even when it names it.
    first = Pool(
        margins=tuple(MARGINS),
        named=(True,) * 20,
        english=True,
        cues=tuple(cues),
        refusing=(True,) + (False,) * 19,
    )
    assert unlikely(first, list(range(20)), threshold=0.0, floor=[False] * 20) == set()


def test_an_english_query_reads_the_gate_at_its_own_threshold():
    import numpy as np

    # A model whose probability is the same for every hit: 0.24, between the two thresholds.
    weights = np.zeros(len(WEIGHTS))
    intercept = float(np.log(0.24 / 0.76))
    never = [False] * 20
    zh = _pool(MARGINS, [False] * 20)
    en = Pool(margins=tuple(MARGINS), named=(False,) * 20, english=True)
    assert search_ranker.THRESHOLD < 0.24 < search_ranker.THRESHOLD_EN
    kw = {"weights": weights, "intercept": intercept, "floor": never}
    assert unlikely(zh, list(range(20)), **kw) == set()
    assert unlikely(en, list(range(20)), **kw) == set(range(1, 20))


@pytest.mark.django_db
def test_the_pool_marks_a_listing_naming_the_refused_word_plainly():
    from activities.search_ranker import refusing_hits
    from activities.search_ranking import lexical_held

    now = timezone.now()
    rows = [
        Activity(pk=i + 1, title=title, type="Sports", tags=[], start_at=now)
        for i, title in enumerate(
            ["Social 5K run and running club", "Beginners' bouldering", "No running, just yoga"]
        )
    ]
    query = "exercise but no running"
    held = lexical_held(query, rows)
    assert refusing_hits(query, rows, held) == (True, False, False)
    assert refusing_hits("exercise", rows, lexical_held("exercise", rows)) == ()


def test_first_likeness_is_each_row_cosine_with_the_first_row():
    import numpy as np

    like = first_likeness([[2.0, 0.0], [0.0, 3.0], [1.0, 1.0]], 0)
    assert np.allclose(like, [1.0, 0.0, np.sqrt(0.5)])


def test_a_chinese_row_reading_like_the_first_row_stays_where_one_unlike_it_goes():
    import numpy as np

    pool = _pool(MARGINS, [True] * 20)
    like = np.full(20, 0.5)
    like[1] = 1.0  # a second listing of the same thing: its embedding is the first row's
    never = [False] * 20
    assert {1, 2} <= unlikely(pool, list(range(20)), floor=never)
    drop = unlikely(pool, list(range(20)), floor=never, first_like=like)
    assert 1 not in drop and 2 in drop


def test_an_english_query_does_not_read_the_likeness_to_the_first_row():
    import numpy as np

    pool = Pool(margins=tuple(MARGINS), named=(True,) * 20, english=True)
    never = [False] * 20
    like = np.ones(20)
    assert unlikely(pool, list(range(20)), floor=never, first_like=like) == unlikely(
        pool, list(range(20)), floor=never
    )
