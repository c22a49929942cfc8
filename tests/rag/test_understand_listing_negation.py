"""A listing's own refusals (rag/understand/listing_negation.py): read narrowly."""

from __future__ import annotations

import pytest

from rag.understand.listing_negation import mentions_plainly


@pytest.mark.parametrize(
    ("term", "text", "held"),
    [
        # A listing's own refusal: under a query's negation or right after a bare negator.
        ("说话", "静读两小时｜不说话的读书会", False),
        ("辣", "潮汕牛肉火锅｜不吃辣也能吃", False),
        ("辣", "不辣", False),
        ("酒精", "无酒精特调之夜", False),
        ("alcoholic", "Non-alcoholic cocktail class", False),
        ("phones", "A dinner with no phones", False),
        ("辣", "重庆火锅局｜能吃辣的来", True),
        ("说话", "不说话的读书会，读完再说话", True),  # one plain mention is enough
        # What a beginner's listing does not require is not refused, as in a query.
        ("experience", "Pottery for beginners, no experience needed", True),
        ("经验", "攀岩体验课｜无需经验", True),
        ("经验", "攀岩体验课｜不限经验", True),
        # Plain refusals of a listing.
        ("kids", "Not suitable for kids", False),
        ("alcohol", "An alcohol-free bar", False),
        ("alcohol", "We don't serve alcohol", False),
        ("宠物", "谢绝宠物", False),
        ("酒精", "不含酒精", False),
        ("吸烟", "请勿吸烟", False),
        ("phones", "Come without phones", False),
        # An imperative, 除了X还有, "can't ... without X", "not only X" name X (audit, session 41).
        ("jazz", "Don't miss our jazz night", True),
        ("爵士", "别错过周末爵士之夜", True),
        ("爵士", "不要错过爵士之夜", True),
        ("陶艺", "除了陶艺还有木工", True),
        ("coffee", "Can't start the day without coffee", True),
        ("jazz", "Not only jazz but blues too", True),
        # A word that is itself a refusal: the listing refuses with the query.
        ("不吃辣", "潮汕牛肉火锅｜不吃辣也能吃", False),
        ("不用", "千片拼图安静局 不用说话", False),
        ("不错", "氛围不错的小酒馆", True),
    ],
)
def test_a_listing_holds_a_word_plainly_unless_it_refuses_it(term, text, held):
    assert mentions_plainly(term, text) is held
