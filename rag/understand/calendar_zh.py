"""The Chinese calendar's days as Gregorian dates: the lunar festivals from a table, the
twenty-four solar terms by formula.

Lunar festivals (春节, 端午, 中秋, 七夕, 重阳, 腊八) move against the Gregorian calendar and need
an astronomical calendar to compute; no such library is installed, so the dates are a table,
2020-2050 (``LAST_YEAR``), as published in the Chinese calendar (2020-2030 checked against
``lunardate`` 0.3.0 on PyPI in issue 30, session 50; 2031-2050 generated from it in session 51).
A year outside the table names no date, so the phrase is not applied: extend the tables before
``LAST_YEAR`` runs out (tests/rag/test_understand_named_days.py pins it). Solar terms (立冬,
大雪, 冬至 ...) follow the sun and are computed to the day by the usual 21st-century formula
with its published exceptions. Pure: no clock.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta

Rule = Callable[[int], "list[date] | None"]

# The last Gregorian year every lunar table below covers.
LAST_YEAR = 2050

# The Gregorian date of the first day of the lunar year, of the fifth month's fifth day (端午),
# the seventh month's seventh (七夕), the eighth month's fifteenth (中秋), the ninth month's ninth
# (重阳), each by Gregorian year.
LUNAR_NEW_YEAR = {2020: (1, 25), 2021: (2, 12), 2022: (2, 1), 2023: (1, 22), 2024: (2, 10)}
LUNAR_NEW_YEAR.update({2025: (1, 29), 2026: (2, 17), 2027: (2, 6), 2028: (1, 26), 2029: (2, 13)})
LUNAR_NEW_YEAR.update({2030: (2, 3)})
LUNAR_NEW_YEAR.update({2031: (1, 23), 2032: (2, 11), 2033: (1, 31), 2034: (2, 19), 2035: (2, 8)})
LUNAR_NEW_YEAR.update({2036: (1, 28), 2037: (2, 15), 2038: (2, 4), 2039: (1, 24), 2040: (2, 12)})
LUNAR_NEW_YEAR.update({2041: (2, 1), 2042: (1, 22), 2043: (2, 10), 2044: (1, 30), 2045: (2, 17)})
LUNAR_NEW_YEAR.update({2046: (2, 6), 2047: (1, 26), 2048: (2, 14), 2049: (2, 2), 2050: (1, 23)})
DRAGON_BOAT = {2020: (6, 25), 2021: (6, 14), 2022: (6, 3), 2023: (6, 22), 2024: (6, 10)}
DRAGON_BOAT.update({2025: (5, 31), 2026: (6, 19), 2027: (6, 9), 2028: (5, 28), 2029: (6, 16)})
DRAGON_BOAT.update({2030: (6, 5)})
DRAGON_BOAT.update({2031: (6, 24), 2032: (6, 12), 2033: (6, 1), 2034: (6, 20), 2035: (6, 10)})
DRAGON_BOAT.update({2036: (5, 30), 2037: (6, 18), 2038: (6, 7), 2039: (5, 27), 2040: (6, 14)})
DRAGON_BOAT.update({2041: (6, 3), 2042: (6, 22), 2043: (6, 11), 2044: (5, 31), 2045: (6, 19)})
DRAGON_BOAT.update({2046: (6, 8), 2047: (5, 29), 2048: (6, 15), 2049: (6, 4), 2050: (6, 23)})
QIXI = {2020: (8, 25), 2021: (8, 14), 2022: (8, 4), 2023: (8, 22), 2024: (8, 10)}
QIXI.update({2025: (8, 29), 2026: (8, 19), 2027: (8, 8), 2028: (8, 26), 2029: (8, 16)})
QIXI.update({2030: (8, 5)})
QIXI.update({2031: (8, 24), 2032: (8, 12), 2033: (8, 1), 2034: (8, 20), 2035: (8, 10)})
QIXI.update({2036: (8, 28), 2037: (8, 17), 2038: (8, 7), 2039: (8, 26), 2040: (8, 14)})
QIXI.update({2041: (8, 3), 2042: (8, 22), 2043: (8, 11), 2044: (7, 31), 2045: (8, 19)})
QIXI.update({2046: (8, 8), 2047: (8, 27), 2048: (8, 16), 2049: (8, 5), 2050: (8, 23)})
MID_AUTUMN = {2020: (10, 1), 2021: (9, 21), 2022: (9, 10), 2023: (9, 29), 2024: (9, 17)}
MID_AUTUMN.update({2025: (10, 6), 2026: (9, 25), 2027: (9, 15), 2028: (10, 3), 2029: (9, 22)})
MID_AUTUMN.update({2030: (9, 12)})
MID_AUTUMN.update({2031: (10, 1), 2032: (9, 19), 2033: (9, 8), 2034: (9, 27), 2035: (9, 16)})
MID_AUTUMN.update({2036: (10, 4), 2037: (9, 24), 2038: (9, 13), 2039: (10, 2), 2040: (9, 20)})
MID_AUTUMN.update({2041: (9, 10), 2042: (9, 28), 2043: (9, 17), 2044: (10, 5), 2045: (9, 25)})
MID_AUTUMN.update({2046: (9, 15), 2047: (10, 4), 2048: (9, 22), 2049: (9, 11), 2050: (9, 30)})
DOUBLE_NINTH = {2020: (10, 25), 2021: (10, 14), 2022: (10, 4), 2023: (10, 23), 2024: (10, 11)}
DOUBLE_NINTH.update({2025: (10, 29), 2026: (10, 18), 2027: (10, 8), 2028: (10, 26)})
DOUBLE_NINTH.update({2029: (10, 16), 2030: (10, 5)})
DOUBLE_NINTH.update({2031: (10, 24), 2032: (10, 12), 2033: (10, 1), 2034: (10, 20), 2035: (10, 9)})
DOUBLE_NINTH.update({2036: (10, 27), 2037: (10, 17), 2038: (10, 7), 2039: (10, 26), 2040: (10, 14)})
DOUBLE_NINTH.update({2041: (10, 3), 2042: (10, 22), 2043: (10, 11), 2044: (10, 29), 2045: (10, 18)})
DOUBLE_NINTH.update({2046: (10, 8), 2047: (10, 27), 2048: (10, 16), 2049: (10, 5), 2050: (10, 24)})
# 腊八, the twelfth month's eighth day, falls in January or December: by the Gregorian year it
# falls in (2022 had two, 10 January and 30 December; the table keeps the January one, and
# 2023 and 2042 have none: session 50's 2023 entry, 30 December, was 2022's second).
LABA = {2020: (1, 2), 2021: (1, 20), 2022: (1, 10), 2024: (1, 18)}
LABA.update({2025: (1, 7), 2026: (1, 26), 2027: (1, 15), 2028: (1, 4), 2029: (1, 22)})
LABA.update({2030: (1, 11)})
LABA.update({2031: (1, 1), 2032: (1, 20), 2033: (1, 8), 2034: (1, 27), 2035: (1, 16)})
LABA.update({2036: (1, 5), 2037: (1, 23), 2038: (1, 12), 2039: (1, 2), 2040: (1, 21)})
LABA.update({2041: (1, 10), 2043: (1, 18), 2044: (1, 7), 2045: (1, 25), 2046: (1, 14)})
LABA.update({2047: (1, 3), 2048: (1, 22), 2049: (1, 11), 2050: (1, 1)})


def lunar(table: dict[int, tuple[int, int]], offset: int = 0, days: int = 1) -> Rule:
    """Days counted from a lunar date's Gregorian day in ``table`` (元宵: new year + 14)."""

    def rule(year: int) -> list[date] | None:
        # The day may fall in the next Gregorian year's table entry (除夕 before 春节).
        for source in (year, year + 1):
            if source in table:
                first = date(source, *table[source]) + timedelta(days=offset)
                if first.year == year:
                    return [first + timedelta(days=i) for i in range(days)]
        return None

    return rule


# Solar term -> (month, the formula's constant C for 2001-2099): day = int(Y * 0.2422 + C) - L,
# Y the year's last two digits, L the leap days before it (Y // 4; (Y - 1) // 4 in January and
# February, before that year's leap day).
SOLAR_TERMS: dict[str, tuple[int, float]] = {
    "小寒": (1, 5.4055),
    "大寒": (1, 20.12),
    "立春": (2, 3.87),
    "雨水": (2, 18.73),
    "惊蛰": (3, 5.63),
    "春分": (3, 20.646),
    "清明": (4, 4.81),
    "谷雨": (4, 20.1),
    "立夏": (5, 5.52),
    "小满": (5, 21.04),
    "芒种": (6, 5.678),
    "夏至": (6, 21.37),
    "小暑": (7, 7.108),
    "大暑": (7, 22.83),
    "立秋": (8, 7.5),
    "处暑": (8, 23.13),
    "白露": (9, 7.646),
    "秋分": (9, 23.042),
    "寒露": (10, 8.318),
    "霜降": (10, 23.438),
    "立冬": (11, 7.438),
    "小雪": (11, 22.36),
    "大雪": (12, 7.18),
    "冬至": (12, 21.94),
}
# The formula's published exceptions in 2001-2099 (term, year) -> days to add.
_EXCEPTIONS = {("小寒", 2019): -1, ("大寒", 2082): 1, ("雨水", 2026): -1, ("春分", 2084): 1}
_EXCEPTIONS.update({("小满", 2008): 1, ("芒种", 2016): 1, ("立秋", 2002): 1})
_EXCEPTIONS.update({("霜降", 2089): 1, ("立冬", 2089): 1, ("冬至", 2021): -1})


def solar_term_day(term: str, year: int) -> date | None:
    """Return the day of solar term ``term`` in ``year`` (China Standard Time), or None outside
    2001-2099."""
    if not 2001 <= year <= 2099:
        return None
    month, constant = SOLAR_TERMS[term]
    y = year % 100
    leap = (y - 1) // 4 if month <= 2 else y // 4
    return date(year, month, int(y * 0.2422 + constant) - leap + _EXCEPTIONS.get((term, year), 0))


def solar_term(term: str) -> Rule:
    """The day of a solar term each year."""

    def rule(year: int) -> list[date] | None:
        day = solar_term_day(term, year)
        return [day] if day else None

    return rule
