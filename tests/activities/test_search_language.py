"""Which language a query and its candidates are in, and the fusion over the other language
(activities/search_language.py, activities.search_ranking.evidence_trust)."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from activities import search_ranking
from activities.search_language import chinese_listings, han, other_script
from activities.search_ranking import evidence_trust, hybrid_scores
from activities.understanding import read_query

NOW = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)
CHINESE = ["陶艺体验课", "周末徒步", "城墙根 City Walk"]
ENGLISH = ["Pottery for beginners", "Sunset kayak", "陶艺体验课"]


def _hits(titles, scores, type="其他"):
    rows = [
        SimpleNamespace(pk=i + 1, title=t, type=type, tags=[], vibes=[])
        for i, t in enumerate(titles)
    ]
    return [SimpleNamespace(obj=row, score=s) for row, s in zip(rows, scores, strict=True)]


def test_a_title_with_one_han_character_is_han():
    assert han("城墙根 City Walk") and not han("City Walk")


def test_the_language_pair_is_read_from_the_query_and_most_titles():
    assert other_script("想学做陶艺", ENGLISH) and not other_script("想学做陶艺", CHINESE)
    assert chinese_listings(True, CHINESE) and not chinese_listings(True, ENGLISH)


def test_the_fusion_weighs_the_evidence_apart_only_over_the_other_language():
    english = read_query("pottery class", now=NOW, tz=None)
    chinese = read_query("想学做陶艺", now=NOW, tz=None)
    assert evidence_trust("pottery class", english, CHINESE) == search_ranking.FUSION_OVER_CHINESE
    assert evidence_trust("想学做陶艺", chinese, ENGLISH) == search_ranking.FUSION_OVER_OTHER_SCRIPT
    assert evidence_trust("pottery class", english, ENGLISH) == (1.0, 1.0)
    assert evidence_trust("想学做陶艺", chinese, CHINESE) == (1.0, 1.0)


@pytest.mark.parametrize("trusted", [False, True])
def test_a_latin_word_in_a_chinese_row_does_not_lift_it_over_the_dense_best(monkeypatch, trusted):
    # "cycling on top of the city wall" over a Chinese city: the walk along the wall holds "city"
    # in Latin, the cycling on the wall holds no word of the English query but the model puts
    # it first. Read as in one language (trusted), the word would lift the walk above it.
    if trusted:
        monkeypatch.setattr(search_ranking, "FUSION_OVER_CHINESE", (1.0, 1.0))
    query = "cycling on top of the city wall"
    titles = ["古城墙骑行半圈", "城墙根 City Walk"] + [f"其他活动{i}" for i in range(18)]
    candidates = _hits(titles, [0.90, 0.89] + [0.80] * 18)
    understood = read_query(query, now=NOW, tz=None)
    fused = hybrid_scores(candidates, query, candidates=candidates, understood=understood)
    assert (fused[2] > fused[1]) is trusted
