"""Errands (buying, changing money, something lost, a route) ask for a shop or an office, not
for something to do; an activity noun, a ticket or a market keeps a query a request."""

from __future__ import annotations

import pytest

from rag.understand.errands import errand


@pytest.mark.parametrize(
    ("query", "kind"),
    [
        ("想买一双跑鞋，哪个牌子好", "buy"),
        ("边度可以买到平啲嘅电饭煲", "buy"),
        ("where can I buy a secondhand bike", "buy"),
        ("shopping for a new laptop", "buy"),
        ("哪里可以换港币", "money"),
        ("边度有找换店", "money"),
        ("where can I change euros downtown", "money"),
        ("nearest atm to the station", "money"),
        ("我把钥匙落在出租车上了", "lost"),
        ("个银包唔见咗 点算", "lost"),
        ("钱包丢了咋个办", "lost"),
        ("lost my wallet on the bus", "lost"),
        ("I left my umbrella at the cinema", "lost"),
        ("火车站点去机场最快", "route"),
        ("坐几号线去火车站", "route"),
        ("地铁末班车几点", "route"),
        ("how do I get from the station to the hotel", "route"),
        ("is the subway running on christmas day", "route"),
        ("when is the last train home", "route"),
        ("recipe for banana bread", "recipe"),
        ("糖醋排骨的做法", "recipe"),
        ("鱼香肉丝怎么做", "recipe"),
    ],
)
def test_an_errand_is_read_in_mandarin_cantonese_sichuanese_and_english(query, kind):
    assert errand(query) == kind


@pytest.mark.parametrize(
    "query",
    [
        "去花市买年花",
        "where to buy tickets for the symphony",
        "想找回一点童心",
        "有没有手帐交换的活动",
        "make something with my hands",
        "夜跑团 周三晚上",
        "看日落的地方",
        "a bus tour of the old town",
        "buy-nothing swap meetup",
        "跑步",
        "how do i make friends in a new city",
        "想学红烧肉怎么做",
        "recipe swap meetup",
        "怎么做才能交到朋友",
        "",
    ],
)
def test_a_request_for_something_to_do_is_not_an_errand(query):
    assert errand(query) is None
