"""Bookings: a query asking a business to reserve a table, a room or a ride."""

from __future__ import annotations

import pytest

from rag.understand.bookings import booking_request, repair_request


@pytest.mark.parametrize(
    "query",
    [
        "book a table for six on friday",
        "can you reserve us a table at an italian place",
        "table for two tonight",
        "book me a hotel room near the station",
        "get me a taxi to the airport",
        "帮我订个餐厅，周五晚上",
        "预订一个包间 十个人",
        "订一桌 明天中午 五个人",
        "帮我叫辆车",
    ],
)
def test_a_reservation_at_a_business_is_a_booking(query):
    assert booking_request(query)


@pytest.mark.parametrize(
    "query",
    [
        "a book club to join",
        "book club",
        "book a pottery class for saturday",
        "tickets for a comedy show",
        "table tennis on saturday",
        "帮我订两张话剧票",
        "报名周六的陶艺课",
        "订阅读书会",
        "四个人玩的桌游",
        "",
    ],
)
def test_a_request_for_something_to_do_is_no_booking(query):
    assert not booking_request(query)


@pytest.mark.parametrize(
    "query", ["修自行车", "手机屏幕碎了找人修一下手机", "电脑维修", "fix my laptop screen"]
)
def test_a_repair_is_work_for_a_business(query):
    assert repair_request(query)


@pytest.mark.parametrize(
    "query", ["学修自行车", "进修课程", "装修风格讲座", "修身瑜伽", "repair cafe volunteering"]
)
def test_learning_or_other_words_with_repair_are_no_repair(query):
    assert not repair_request(query)
