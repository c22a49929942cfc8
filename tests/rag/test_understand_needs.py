"""A restless need stated (bored, cooped up, energy to burn) is a request for an outing."""

from __future__ import annotations

import pytest

from rag.understand.needs import need_request


@pytest.mark.parametrize(
    "query",
    [
        "the kids are bored stiff",
        "my cat is restless",
        "going stir-crazy at home",
        "need to burn off some energy",
        "burn some calories before dinner",
        "want to blow off steam",
        "孩子在家憋坏了",
        "周末闷得慌",
        "想找个地方发泄一下",
        "想去吼两嗓子",
        "娃精力太旺 得带出去放放电",
    ],
)
def test_a_restless_need_is_read(query):
    assert need_request(query)


@pytest.mark.parametrize(
    "query",
    [
        "a boring job",
        "I work at night",
        "burn the old letters",
        "憋尿太久了",
        "推荐几部不无聊的电影",
        "restless legs at night, what helps",
        "managing my money",
        "周末去哪玩",
        "手机放电很快",  # a battery, not energy to let out
        "憋死我了 找厕所",
        "工作好憋屈",
        "",
    ],
)
def test_a_thing_described_or_another_verb_is_not(query):
    # "boring" describes a thing, not the person; "work" and "burn" need what is worked off.
    assert not need_request(query)
