"""A calendar of named days: public holidays and widely kept days, by the country of the user's
time zone, and the patterns that find their names in a query ("thanksgiving day", "day after
thanksgiving", "christmas eve", "bank holiday weekend", 国庆, 中秋节, 春节).

Written from general knowledge of each calendar, not fitted on any query set. The country comes
from the time zone database's own map of zones to countries (``zone.tab``, beside the zone
files): America/Los_Angeles -> US, Europe/London -> GB, Asia/Shanghai -> CN. A name kept in
several countries on different days (Thanksgiving: the US's fourth Thursday of November,
Canada's second Monday of October) takes the user's country's day; a name the user's country
does not keep takes its first listed country's (an American holiday asked about in London is
the American one). Pure: no database, no clock; the zone table is read once per process.
"""

from __future__ import annotations

import functools
import os
import re
import zoneinfo
from collections.abc import Callable
from datetime import date, timedelta, tzinfo

from rag.understand.calendar_zh import (
    DOUBLE_NINTH,
    DRAGON_BOAT,
    LABA,
    LUNAR_NEW_YEAR,
    MID_AUTUMN,
    QIXI,
    SOLAR_TERMS,
    lunar,
    solar_term,
)
from rag.understand.named_things import names_a_thing
from rag.understand.words import PRONOUN_AFTER_AM, rx

# --- the country of a time zone ------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _zone_countries() -> dict[str, str]:
    """Return zone name -> ISO 3166 country code from the tz database's ``zone.tab`` (also
    under each zone's resolved path, so a link such as Asia/Chongqing finds its zone)."""
    table: dict[str, str] = {}
    for root in zoneinfo.TZPATH:
        path = os.path.join(root, "zone.tab")
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("#") or not line.strip():
                    continue
                fields = line.split("\t")
                if len(fields) >= 3:
                    code, zone = fields[0], fields[2].strip()
                    table.setdefault(zone, code)
                    table.setdefault(os.path.realpath(os.path.join(root, zone)), code)
        break
    return table


def country_of(tz: tzinfo | None) -> str | None:
    """Return the country (ISO 3166 alpha-2) of an IANA time zone, or None (UTC, unknown)."""
    key = getattr(tz, "key", None)
    if not key:
        return None
    table = _zone_countries()
    if key in table:
        return table[key]
    for root in zoneinfo.TZPATH:
        found = table.get(os.path.realpath(os.path.join(root, key)))
        if found:
            return found
    return None


# --- rules: year -> the day(s) kept --------------------------------------------------------

Rule = Callable[[int], "list[date] | None"]


def fixed(month: int, day: int, days: int = 1) -> Rule:
    """The same date every year (``days`` long: 国庆 is seven)."""
    return lambda year: [date(year, month, day) + timedelta(days=i) for i in range(days)]


def nth_weekday(month: int, weekday: int, n: int) -> Rule:
    """The ``n``-th ``weekday`` (Monday 0) of ``month``; ``n`` = -1: the last."""

    def rule(year: int) -> list[date]:
        if n > 0:
            first = date(year, month, 1)
            return [first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))]
        last = date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)
        return [last - timedelta(days=(last.weekday() - weekday) % 7)]

    return rule


def weekday_before(month: int, day: int, weekday: int) -> Rule:
    """The last ``weekday`` strictly before ``month``/``day`` (Victoria Day: the Monday before
    25 May)."""

    def rule(year: int) -> list[date]:
        limit = date(year, month, day) - timedelta(days=1)
        return [limit - timedelta(days=(limit.weekday() - weekday) % 7)]

    return rule


def easter_sunday(year: int) -> date:
    """Return Western Easter Sunday (the Anonymous Gregorian computus)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    ell = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * ell) // 451
    month, day = divmod(h + ell - 7 * m + 114, 31)
    return date(year, month, day + 1)


def easter(offset: int, days: int = 1) -> Rule:
    """Days counted from Easter Sunday (Good Friday -2, Easter Monday +1)."""
    return lambda year: [easter_sunday(year) + timedelta(days=offset + i) for i in range(days)]


# --- the calendar: name -> {country: rule}; the first country's rule is the default ----------

US, CA, GB, AU, NZ, IE, CN = "US", "CA", "GB", "AU", "NZ", "IE", "CN"
ANY = "*"
CALENDAR: dict[str, dict[str, Rule]] = {
    "new year's day": {ANY: fixed(1, 1)},
    "new year's eve": {ANY: fixed(12, 31)},
    "valentine's day": {ANY: fixed(2, 14)},
    "st patrick's day": {ANY: fixed(3, 17)},
    "halloween": {ANY: fixed(10, 31)},
    "christmas": {ANY: fixed(12, 25)},
    "boxing day": {ANY: fixed(12, 26)},
    "good friday": {ANY: easter(-2)},
    "easter": {ANY: easter(0)},
    "easter monday": {ANY: easter(1)},
    "easter weekend": {ANY: easter(-2, 4)},  # Good Friday to Easter Monday
    "mother's day": {ANY: nth_weekday(5, 6, 2), GB: easter(-21), IE: easter(-21)},
    "father's day": {ANY: nth_weekday(6, 6, 3), AU: nth_weekday(9, 6, 1), NZ: nth_weekday(9, 6, 1)},
    "thanksgiving": {US: nth_weekday(11, 3, 4), CA: nth_weekday(10, 0, 2)},
    # The shops' day after the American Thanksgiving, kept under that name elsewhere too.
    "black friday": {ANY: lambda y: [nth_weekday(11, 3, 4)(y)[0] + timedelta(days=1)]},
    "independence day": {US: fixed(7, 4)},
    "memorial day": {US: nth_weekday(5, 0, -1)},
    "labor day": {US: nth_weekday(9, 0, 1), CA: nth_weekday(9, 0, 1)},
    "martin luther king day": {US: nth_weekday(1, 0, 3)},
    "presidents' day": {US: nth_weekday(2, 0, 3)},
    "columbus day": {US: nth_weekday(10, 0, 2)},
    "juneteenth": {US: fixed(6, 19)},
    "veterans day": {US: fixed(11, 11)},
    "remembrance day": {ANY: fixed(11, 11)},
    "remembrance sunday": {GB: nth_weekday(11, 6, 2)},
    "canada day": {CA: fixed(7, 1)},
    "victoria day": {CA: weekday_before(5, 25, 0)},
    "family day": {CA: nth_weekday(2, 0, 3)},
    "civic holiday": {CA: nth_weekday(8, 0, 1)},
    "australia day": {AU: fixed(1, 26)},
    "anzac day": {AU: fixed(4, 25), NZ: fixed(4, 25)},
    "king's birthday": {AU: nth_weekday(6, 0, 2), NZ: nth_weekday(6, 0, 1)},
    "melbourne cup day": {AU: nth_weekday(11, 1, 1)},
    "waitangi day": {NZ: fixed(2, 6)},
    "bonfire night": {GB: fixed(11, 5)},
    "early may bank holiday": {GB: nth_weekday(5, 0, 1), IE: nth_weekday(5, 0, 1)},
    "spring bank holiday": {GB: nth_weekday(5, 0, -1)},
    "summer bank holiday": {GB: nth_weekday(8, 0, -1), IE: nth_weekday(8, 0, 1)},
    "lunar new year": {ANY: lunar(LUNAR_NEW_YEAR)},
    "mid-autumn festival": {ANY: lunar(MID_AUTUMN)},
    "dragon boat festival": {ANY: lunar(DRAGON_BOAT)},
    # Chinese: the day itself, or the statutory holiday where the name means the break (国庆:
    # 1-7 October; 五一: 1-5 May; 春节: 除夕 to the sixth day, the first week of the year).
    "元旦": {ANY: fixed(1, 1)},
    "除夕": {ANY: lunar(LUNAR_NEW_YEAR, -1)},
    "春节": {ANY: lunar(LUNAR_NEW_YEAR, -1, 7)},
    "大年初一": {ANY: lunar(LUNAR_NEW_YEAR)},
    "元宵节": {ANY: lunar(LUNAR_NEW_YEAR, 14)},
    "清明节": {ANY: solar_term("清明")},
    "劳动节": {ANY: fixed(5, 1, 5)},
    "端午节": {ANY: lunar(DRAGON_BOAT)},
    "中秋节": {ANY: lunar(MID_AUTUMN)},
    "国庆节": {ANY: fixed(10, 1, 7)},
    "平安夜": {ANY: fixed(12, 24)},
    "跨年": {ANY: fixed(12, 31)},
    # Session 50: the Chinese lunar days besides the statutory ones, and the shopping days.
    "七夕": {ANY: lunar(QIXI)},
    "重阳节": {ANY: lunar(DOUBLE_NINTH)},
    "腊八节": {ANY: lunar(LABA)},
    "双十一": {ANY: fixed(11, 11)},
    "双十二": {ANY: fixed(12, 12)},
    # Scotland's days (Europe/London covers Scotland; St Andrew's Day is its bank holiday).
    "st andrew's day": {ANY: fixed(11, 30)},
    "burns night": {ANY: fixed(1, 25)},
}
# The twenty-four solar terms (冬至, 大雪, 立冬 ...), each its own day (清明节 above is the
# festival's name for one of them).
CALENDAR.update({term: {ANY: solar_term(term)} for term in SOLAR_TERMS if term != "清明"})

# The public holidays of each country ("bank holiday", "public holiday", "long weekend": the
# next of these): the national ones of each calendar.
PUBLIC: dict[str, tuple[str, ...]] = {
    US: ("new year's day", "martin luther king day", "presidents' day", "memorial day"),
    CA: ("new year's day", "family day", "good friday", "victoria day", "canada day"),
    GB: ("new year's day", "good friday", "easter monday", "early may bank holiday"),
    AU: ("new year's day", "australia day", "good friday", "easter monday", "anzac day"),
    NZ: ("new year's day", "waitangi day", "good friday", "easter monday", "anzac day"),
    IE: ("new year's day", "st patrick's day", "easter monday", "early may bank holiday"),
    CN: ("元旦", "春节", "清明节", "劳动节", "端午节", "中秋节", "国庆节"),
}
PUBLIC[US] += ("juneteenth", "independence day", "labor day", "columbus day", "veterans day")
PUBLIC[US] += ("thanksgiving", "christmas")
PUBLIC[CA] += ("civic holiday", "labor day", "thanksgiving", "christmas", "boxing day")
PUBLIC[GB] += ("spring bank holiday", "summer bank holiday", "christmas", "boxing day")
PUBLIC[AU] += ("king's birthday", "christmas", "boxing day")
PUBLIC[NZ] += ("king's birthday", "christmas", "boxing day")
PUBLIC[IE] += ("summer bank holiday", "christmas", "boxing day")


def days_of(name: str, country: str | None, year: int) -> list[date] | None:
    """Return the day(s) ``name`` (a key of CALENDAR) falls on in ``year`` for ``country``."""
    rules = CALENDAR[name]
    rule = rules.get(country or "") or rules.get(ANY) or next(iter(rules.values()))
    return rule(year)


def public_holidays(country: str | None, years: range) -> list[list[date]]:
    """Return the public holidays of ``country`` in ``years``, in date order (none when the
    country has no calendar here)."""
    found = []
    for name in PUBLIC.get(country or "", ()):
        for year in years:
            days = days_of(name, country, year)
            if days:
                found.append(days)
    return sorted(found)


# --- the names in a query, and what they are composed with ------------------------------------

PUBLIC_HOLIDAY = "public holiday"
LONG_WEEKEND = "long weekend"
# The cycle of a named day: yearly, and read as its nearest occurrence even when that one is
# over (``rag.understand.time``): "black friday" the day after is the one just past.
NAMED = "named"

_S = r"['’]?s"  # an optional possessive: "new year's", "new years", "new year’s"
EN_NAMES: dict[str, str] = {
    "new year's day": r"new\s+year(?:" + _S + r")?(?:\s+day)?",
    "new year's eve": r"nye|hogmanay",
    "st andrew's day": r"(?:st\.?|saint)\s+andrew" + _S + r"?\s+day",
    "burns night": r"burns['’]?\s+(?:night|supper)",
    "valentine's day": r"valentine" + _S + r"?(?:\s+day)?",
    "st patrick's day": r"(?:st\.?|saint)\s+patrick" + _S + r"?(?:\s+day)?|paddy" + _S + r"\s+day",
    "halloween": r"hallowe['’]?en",
    "christmas": r"(?:christmas|xmas)(?:\s+day)?",
    "boxing day": r"boxing\s+day",
    "good friday": r"good\s+friday",
    "easter monday": r"easter\s+monday",
    "easter weekend": r"easter\s+(?:long\s+)?weekend",
    "easter": r"easter(?:\s+sunday)?",
    "mother's day": r"mother" + _S + r"?\s+day|mothering\s+sunday",
    "father's day": r"father" + _S + r"?\s+day",
    "thanksgiving": r"thanksgiving(?:\s+day)?",
    "black friday": r"black\s+friday",
    "independence day": r"independence\s+day|(?:the\s+)?(?:4th|fourth)\s+of\s+july",
    "memorial day": r"memorial\s+day",
    "labor day": r"labou?r\s+day",
    "martin luther king day": r"(?:martin\s+luther\s+king|mlk)(?:\s+jr\.?)?\s+day",
    "presidents' day": r"presidents?['’]?\s+day",
    "columbus day": r"columbus\s+day",
    "juneteenth": r"juneteenth",
    "veterans day": r"veterans?['’]?\s+day",
    "remembrance day": r"remembrance\s+day",
    "remembrance sunday": r"remembrance\s+sunday",
    "canada day": r"canada\s+day",
    "victoria day": r"victoria\s+day",
    "family day": r"family\s+day",
    "civic holiday": r"civic\s+holiday",
    "australia day": r"australia\s+day",
    "anzac day": r"anzac\s+day",
    "king's birthday": r"king" + _S + r"\s+birthday",
    "melbourne cup day": r"melbourne\s+cup(?:\s+day)?",
    "waitangi day": r"waitangi\s+day",
    "bonfire night": r"bonfire\s+night|guy\s+fawkes(?:\s+night)?",
    "early may bank holiday": r"early\s+may\s+bank\s+holiday",
    "spring bank holiday": r"spring\s+bank\s+holiday",
    "summer bank holiday": r"(?:summer|august)\s+bank\s+holiday",
    "lunar new year": r"(?:lunar|chinese)\s+new\s+year",
    "mid-autumn festival": r"mid[\s-]?autumn(?:\s+festival)?|moon\s+festival",
    "dragon boat festival": r"dragon\s+boat\s+festival",
    # Not a day of its own: the next public holiday of the user's country (``PUBLIC``).
    PUBLIC_HOLIDAY: r"(?:public|bank|stat|statutory|federal)\s+holiday",
    LONG_WEEKEND: r"long\s+weekend",
}
# Chinese names: the holiday with 节 or a word for its break (假期, 期间, 黄金周); a bare name
# only where it is not the start of another word (清明上河图, 五一广场, 国庆路, 元宵 the food).
_ZH_BREAK = r"(?:小长假|长假|假期|黄金周|期间|当天|那天|的时候)?"
ZH_NAMES: dict[str, str] = {
    "元旦": r"元旦" + _ZH_BREAK,
    "除夕": r"除夕夜?|大年三十|年三十|大年夜",
    "春节": r"春节" + _ZH_BREAK + r"|过年(?:期间|那几天|的时候)?",
    "大年初一": r"大年初一|正月初一",
    "元宵节": r"元宵节|正月十五",
    "清明节": r"清明节" + _ZH_BREAK + r"|清明(?:小长假|假期|期间)",
    "劳动节": r"劳动节" + _ZH_BREAK + r"|(?<![0-9零〇一二两三四五六七八九十百])五一"
    r"(?![0-9零〇一二两三四五六七八九十广路大街村中小])" + _ZH_BREAK,
    "端午节": r"端午节?" + _ZH_BREAK,
    "中秋节": r"中秋节?" + _ZH_BREAK,
    "国庆节": r"国庆节?(?![路大广街])" + _ZH_BREAK + r"|十一(?:小长假|长假|假期|黄金周)",
    "christmas": r"圣诞节" + _ZH_BREAK + r"|圣诞(?:当天|那天|假期|期间)",
    "平安夜": r"平安夜",
    "valentine's day": r"情人节" + _ZH_BREAK,
    "halloween": r"万圣节" + _ZH_BREAK,
    "thanksgiving": r"感恩节" + _ZH_BREAK,
    "跨年": r"跨年夜?",
    "七夕": r"七夕节?" + _ZH_BREAK,
    "重阳节": r"重阳节?" + _ZH_BREAK,
    "腊八节": r"腊八节" + _ZH_BREAK + r"|腊八(?!粥|蒜|醋)",
    "双十一": r"双十一|双11",
    "双十二": r"双十二|双12",
}
# A solar term is a day's name alone (冬至吃饺子, 立冬那天) except where it starts another word
# (春分点, 大暑天). Five are also the weather (雨水, 大雪, 小雪, 白露, 霜降: 明天有大雪吗, 下小雪):
# a day only as 节气 or with a word for the day after them (大雪节气, 小雪那天, 霜降的时候).
_ZH_TERM_NOT = r"(?![花纷飘天片封山地点])"
_ZH_WEATHER_TERMS = ("雨水", "大雪", "小雪", "白露", "霜降")
_ZH_TERM_DAY = r"(?=节气|那天|当天|这天|那日|的时候)"
ZH_NAMES.update(
    {
        t: t + (_ZH_TERM_DAY if t in _ZH_WEATHER_TERMS else _ZH_TERM_NOT + _ZH_BREAK)
        for t in SOLAR_TERMS
        if t != "清明"
    }
)

# English: a name with what composes it: a cue before ("on", "over", "this"), "the day after" /
# "the day before" / "the night before", and "eve" / "weekend" after.
_EN_CUE = r"(?:(on|for|over|at|during|around|until|till|by|before|after|this|next|last|coming)\s+)?"
_EN_AROUND = r"(?:(?:the\s+)?(day|night)\s+(after|before)\s+)?"
_EN_AFTER = r"(?:\s+(eve|long\s+weekend|weekend))?"
# A bare name before another word is a name, not a time ("christmas market", "easter egg hunt");
# these words after it still make it one. The written shorthand am / pm after it is a part of its
# day as after a weekday ("thanksgiving am fun run", "christmas eve pm"; parts.py's "am", "pm"),
# "am" not before a pronoun ("christmas am i right": the verb, as words.py reads it after a day).
# Issue 30, session 56, after fresh26's "thanksgiving am fun run" had been seen.
_EN_TIME_AFTER = rx(
    r"\s*(?:$|[,.;:!?()]|(?:morning|afternoon|evening|night|nite|arvo|day|pm)\b|\d"
    r"|am\b(?!\s+" + PRONOUN_AFTER_AM + r"\b))"
)
_DAY_WORDS = (
    "day",
    "friday",
    "sunday",
    "monday",
    "night",
    "birthday",
    "holiday",
    "festival",
    "weekend",
)
# Names that are also ordinary phrases ("a family day out"): a time only with a cue.
_AMBIGUOUS = frozenset({"family day"})
_ZH_BEFORE = r"(?:的?(前一天|前一晚|前夕|后一天|第二天))?"
# A Chinese name followed by 的 and a noun describes the noun (过年的味道: "the taste of New
# Year"), unless 的 starts a time word (的时候, 的前一天).
_ZH_ATTRIBUTIVE = re.compile(r"的(?!时候|前一|后一|第二天|前夕)")
HOLIDAY_PATTERNS: list[tuple[str, re.Pattern, str]] = [
    ("en_holiday", rx(r"\b" + _EN_CUE + _EN_AROUND + r"(" + words + r")" + _EN_AFTER + r"\b"), name)
    for name, words in EN_NAMES.items()
] + [("zh_holiday", rx(r"(" + words + r")" + _ZH_BEFORE), name) for name, words in ZH_NAMES.items()]

# Any name at all: one pass that lets most queries skip the patterns above.
HOLIDAY_GATE = rx("|".join(f"(?:{w})" for w in (*EN_NAMES.values(), *ZH_NAMES.values())))


def _weekend_of(days: list[date]) -> list[date]:
    """Return the days of "X weekend": the weekend a holiday joins (a Monday or Tuesday one:
    from the Saturday before; a Thursday or Friday one: to the Sunday after), the weekend after
    a Wednesday one."""
    first, last = days[0], days[-1]
    start = first + timedelta(days=_WEEKEND_START[first.weekday()])
    end = max(last, start + timedelta(days=(6 - start.weekday()) % 7))
    return [start + timedelta(days=i) for i in range((end - start).days + 1)]


# Weekday of the holiday (Monday 0) -> days from it to the first day of its weekend.
_WEEKEND_START = {0: -2, 1: -3, 2: 3, 3: 0, 4: 0, 5: 0, 6: -1}


def _compose(days: list[date], around: str | None, after: str | None) -> list[date]:
    if around in ("day", "night"):
        return [days[-1] + timedelta(days=1)] if after == "after" else [days[0] - timedelta(days=1)]
    if after == "eve":
        return [days[0] - timedelta(days=1)]
    if after and after.endswith("weekend"):
        return _weekend_of(days)
    return days


def holiday_atom(name: str, match: re.Match, today: date, tz: tzinfo):
    """Return (cycle, DateRule, implied part) for a holiday name found by HOLIDAY_PATTERNS, or
    None when the words are no time here (a bare name before another word, a calendar the
    user's country does not have)."""
    country = country_of(tz)
    if match.re.groups >= 5:  # an English name (HOLIDAY_PATTERNS)
        cue, around, before_after, words, after = match.group(1, 2, 3, 4, 5)
        day_name = " ".join(words.split()).endswith(_DAY_WORDS) or name.endswith(" eve")
        day_name = day_name and name not in _AMBIGUOUS
        cued = cue or around or after or day_name
        if not cued and not _EN_TIME_AFTER.match(match.string, match.end()):
            return None
        if after and name == "easter" and after.endswith("weekend"):
            name, after = "easter weekend", None
        part = "evening" if around == "night" else None
    else:
        if _ZH_ATTRIBUTIVE.match(match.string, match.end()):
            return None
        if match.end(1) == match.end() and names_a_thing(match.string, match.end()):
            return None  # 谷雨茶, 重阳糕: a thing named after the day (rag.understand.named_things)
        tail = match.group(2)
        around = "day" if tail else None
        before_after = "before" if tail and tail[0] in "前" else "after"
        after, part = None, ("晚上" if tail == "前一晚" else None)
    if name in (PUBLIC_HOLIDAY, LONG_WEEKEND):
        years = range(today.year - 3, today.year + 4)
        listed = public_holidays(country, years)
        if name == LONG_WEEKEND:  # a holiday joined to a weekend: Thursday to Tuesday
            listed = [_weekend_of(d) for d in listed if d[0].weekday() in (0, 1, 3, 4)]
            after = None
        if not listed:
            return None
        base = next((i for i, d in enumerate(listed) if d[-1] >= today), len(listed))

        def nth(k: int) -> list[date] | None:
            index = base + k
            if not 0 <= index < len(listed):
                return None
            return _compose(listed[index], around, before_after if around else after)

        return "holiday", nth, part

    def of_year(k: int) -> list[date] | None:
        days = days_of(name, country, today.year + k)
        return _compose(days, around, before_after if around else after) if days else None

    return NAMED, of_year, part
