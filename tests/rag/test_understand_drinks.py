"""Going out for a drink, said the way people say it (rag.understand.drinks)."""

from __future__ import annotations

import pytest

from rag.understand.drinks import drink_out


@pytest.mark.parametrize(
    ("query", "phrase"),
    [
        ("周五晚上喝点儿去", "喝点儿"),
        ("下班喝两杯", "喝两杯"),
        ("一起喝几杯吧", "喝几杯"),
        ("找个地方小酌", "小酌"),
        ("下班整两口", "整两口"),
        ("今晚喝点？", "喝点"),
        ("想喝酒", "喝酒"),
    ],
)
def test_a_drink_with_nothing_named_is_a_drink_out(query, phrase):
    span = drink_out(query)
    assert span is not None
    assert query[span[0] : span[1]] == phrase


@pytest.mark.parametrize(
    "query",
    [
        "喝点热的",
        "喝点奶茶",
        "喝杯咖啡",
        "喝一杯奶茶",
        "想喝点东西",
        "整点出发",
        "不喝酒的社交活动",
        "晚上想出门玩，但是不想喝酒",
        "喝茶",
    ],
)
def test_a_drink_named_refused_or_a_clock_word_is_none(query):
    assert drink_out(query) is None
