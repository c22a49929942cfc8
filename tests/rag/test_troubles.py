"""A fault at home or with a service with help asked, and paperwork asked how or where, ask for
a repair, a refund or an office, not for something to do."""

from __future__ import annotations

import pytest

from activities.search_relevance import asks_elsewhere
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


def test_a_lost_belonging_stays_an_errand_of_its_own():
    assert errand("钱包丢了咋个办") == "lost"


@pytest.mark.parametrize(
    "query",
    [
        # An audit of session 48: each is a request though it holds a fault, paperwork's words
        # or 坏了 as "very".
        "饿坏了 附近有啥好吃的 咋办",
        "周末不工作 不知道干嘛 咋整",
        "心里堵了 怎么办 想出去散散心",
        "家里没网 周末咋整",
        "楼上装修噪音太吵 想出去躲躲 咋整",
        "这周的读书会在哪办",
        "灯会在哪办",
        "潜水证在哪办",
        "附近有新景点开通吗",
        "想早点申请夏令营",
        "外地户口能报名吗",
    ],
)
def test_a_mood_an_event_or_an_outing_beside_a_fault_or_a_document_is_no_trouble(query):
    assert not trouble(query) and not paperwork(query)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query",
    [
        "空调坏了 周末有什么室内活动",
        "电脑坏了 没法打游戏 咋整 想出去玩",
        "签证到期前还能去哪里玩",
        "马拉松在哪交钱报名",
    ],
)
def test_an_activity_word_keeps_a_fault_or_paperwork_a_request(query):
    assert not asks_elsewhere(query)
