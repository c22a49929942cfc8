"""A fault at home or with a service with help asked, and paperwork asked how or where, ask for
a repair, a refund or an office, not for something to do."""

from __future__ import annotations

import pytest

from rag.understand.errands import errand
from rag.understand.troubles import paperwork, trouble


@pytest.mark.parametrize(
    "query",
    [
        "暖气不热找谁",
        "冰箱不制冷找谁",
        "楼上漏水 找物业还是找谁",
        "宽带断网了咋整",
        "房东不退押金怎么办",
        "洗衣机坏咗 点算",
        "手机落出租车上了咋整",
        "物业不作为 去哪投诉",
        "boiler not working, who do i call",
    ],
)
def test_a_fault_with_help_asked_is_a_trouble(query):
    assert trouble(query)


@pytest.mark.parametrize(
    "query",
    [
        "孩子在家闲不住咋整",
        "有没有不热的室内运动",
        "自行车坏了 想找人一起修车学学",
        "腿脚不好 有啥能去的",
        "不热闹的清吧",
        "",
    ],
)
def test_a_fault_without_help_asked_or_a_need_is_not(query):
    assert not trouble(query)


@pytest.mark.parametrize(
    "query",
    ["居住证在哪办 要带啥材料", "公积金怎么提取", "驾照在哪换证", "社保卡在哪补办", "煤气费在哪交"],
)
def test_paperwork_asked_how_where_or_with_which_documents_is_read(query):
    assert paperwork(query)


@pytest.mark.parametrize(
    "query",
    ["周末办生日派对在哪办", "哪里可以交朋友", "学游泳 不会换气怎么办", "办个健身卡 有推荐的吗"],
)
def test_an_occasion_a_friend_or_what_to_do_is_no_paperwork(query):
    assert not paperwork(query)


def test_a_trouble_is_an_errand_and_a_lost_belonging_stays_lost():
    assert errand("暖气不热找谁") == "trouble"
    assert errand("钱包丢了咋个办") == "lost"


def test_an_activity_noun_keeps_a_fault_a_request():
    assert errand("空调坏了 周末有什么室内活动") is None
