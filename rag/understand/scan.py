"""Find the time phrases of a normalised query: atoms (a day, a part of the day, a clock time, a
week, a month, ...) and runs of adjacent day / part / clock atoms ("下周五 晚上 七点半")."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, tzinfo

from rag.understand.clock_words import CLOCK_JOINED, CLOCK_PATTERNS, clock_atom
from rag.understand.dates import listed, month_add, month_range, safe_date, short_month_date
from rag.understand.holidays import HOLIDAY_GATE, HOLIDAY_PATTERNS, holiday_atom
from rag.understand.joins import (
    WEEKDAY_KINDS,
    join_apart,
    join_week,
    names_outing,
    paired_weekday,
)
from rag.understand.numbered import (
    NUMBERED_KINDS,
    NUMBERED_PATTERNS,
    agreeing,
    nth_weekday,
    numbered_atom,
    weekday_of,
)
from rag.understand.numbers import EN_NUMBERS, cn_number
from rag.understand.parts import MEALS, narrowed, part_of_day
from rag.understand.regional import SCOTS_DAYS, TRADITIONAL, ZH_MEALS_AFTER_DAY
from rag.understand.words import (
    DAY_PATTERNS,
    EN_AMBIGUOUS_MONTHS,
    EN_DAY_OFFSETS,
    EN_MONTHS,
    GAP_RE,
    MAX_ROLLING_DAYS,
    NEAR_DAYS,
    PART_JOINED,
    PART_PATTERNS,
    RECENT_FUTURE,
    RECENT_PAST,
    STANDALONE_PATTERNS,
    THIS_WEEKDAY,
    ZH_DAY_OFFSETS,
    ZH_DAY_PARTS,
    ZH_WEEK_PREFIX,
    ZH_WEEKDAYS,
    month_number,
    weekday_index,
)

# --- atoms and phrases --------------------------------------------------------------------------

# A date rule: k (the occurrence: 0 the current one, 1 the next, -1 the previous) -> the dates
# named (one, or two for a weekend), or None when k names no real date.
DateRule = Callable[[int], "list[date] | None"]


@dataclass
class Ctx:
    now: datetime  # aware, in tz
    tz: tzinfo

    @property
    def today(self) -> date:
        return self.now.date()

    @property
    def monday(self) -> date:
        return self.today - timedelta(days=self.today.weekday())


@dataclass
class Atom:
    start: int
    end: int
    role: str  # "day", "part", "clock", or "alone"
    kind: str
    # day: (cycle or None, DateRule, implied part); part: name; clock: (hour, minute, am/pm)
    # alone: (cycle or None, k -> list[(datetime, datetime)] | None) or ("rolling", {dir: win})
    data: object = None
    # A named day's own words (the name without "on" / "the day after"): they stay in the text.
    said: tuple[int, int] | None = None


@dataclass
class Phrase:
    """A run of atoms found together in the text (internal)."""

    start: int
    end: int
    atoms: list[Atom] = field(default_factory=list)
    # Spans of its meals ("brunch", 早茶, 过早): they say what as well as when and stay in the
    # text the model reads, wherever they stand in the phrase.
    meals: list[tuple[int, int]] = field(default_factory=list)

    def get(self, role: str) -> Atom | None:
        return next((a for a in self.atoms if a.role == role), None)


def _year_offset(word: str | None, ctx: Ctx) -> int | None:
    """Return the year a prefix names, relative (去年 -> -1) or absolute (2025年), else None."""
    if not word:
        return None
    relative = {"去年": -1, "今年": 0, "明年": 1, "前年": -2}
    if word in relative:
        return ctx.today.year + relative[word]
    return int(word.rstrip("年"))


def _day_atom(kind: str, match: re.Match, ctx: Ctx) -> tuple | None:
    """Return (cycle, DateRule, implied part) for a day atom, or None if it names no date."""
    text = match.group(0)
    monday, today = ctx.monday, ctx.today
    if kind == "zh_day":
        offset = ZH_DAY_OFFSETS[text]
        return None, lambda k: [today + timedelta(days=offset)], None
    if kind == "zh_day_part":
        offset, part = ZH_DAY_PARTS[text]
        return None, lambda k: [today + timedelta(days=offset)], part
    if kind == "en_day":
        offset, part = EN_DAY_OFFSETS[" ".join(match.group(1).split())]
        return None, lambda k: [today + timedelta(days=offset)], part
    if kind == "en_scots_day":
        offset, part = SCOTS_DAYS[" ".join(match.group(1).lower().split())]
        return None, lambda k: [today + timedelta(days=offset)], part
    if kind == "zh_near_days":
        first, count = NEAR_DAYS.get(text[:2], (0, 3))
        return None, lambda k: [today + timedelta(days=first + i) for i in range(count)], None
    if kind == "zh_later":
        return None, lambda k: [today], None
    if kind in ("zh_weekdays", "en_weekdays"):
        word = " ".join((match.group(1) if kind == "en_weekdays" else text).split())
        first, last = (1, 3) if word in ("midweek", "mid-week", "周中") else (0, 4)
        implied = "evening" if "night" in word else None

        def weekdays(k: int) -> list[date]:
            start = monday + timedelta(days=7 * k)
            return [start + timedelta(days=i) for i in range(first, last + 1)]

        return "week", weekdays, implied
    if kind in ("zh_weekend", "en_weekend"):
        prefix = (match.group(1) or "").split(" ")[0]
        week = ZH_WEEK_PREFIX.get(prefix)
        week = {"next": 1, "last": -1, "this": 0}.get(prefix, week)
        if prefix == "this" and "coming" in match.group(1):
            week = None
        if text.endswith("after next"):  # "the weekend after next"
            week = 2

        def weekend(k: int, week=week) -> list[date]:
            saturday = monday + timedelta(days=5 + 7 * (k if week is None else week))
            return [saturday, saturday + timedelta(days=1)]

        return (None if week is not None else "week"), weekend, None
    if kind in ("zh_weekday", "en_weekday"):
        if kind == "zh_weekday":
            prefix, target = match.group(1), ZH_WEEKDAYS[match.group(2)]
            week = ZH_WEEK_PREFIX.get(prefix) if prefix else None
        else:
            prefix = " ".join((match.group(1) or "").split())
            target = weekday_index(match.group(2))
            if prefix == "last":  # the latest such day before today
                back = (today.weekday() - target) % 7 or 7
                return None, lambda k: [today - timedelta(days=back)], None
            week = 1 if prefix == "next" else None  # "this Friday" = the coming Friday
        if week is not None:
            return None, lambda k: [monday + timedelta(days=7 * week + target)], None
        # "this Sunday" repeats as "Sunday" does, but asked on it late in the day it is still
        # today's, not next week's too (rag.understand.time.ENDING_SHARE; the round's audit).
        cycle = THIS_WEEKDAY if prefix == "this" else "week"
        return cycle, lambda k: [monday + timedelta(days=7 * k + target)], None
    if kind == "zh_date":
        year = _year_offset(match.group(1), ctx)
        month = cn_number(match.group(2)) if match.group(2) else None
        day = cn_number(match.group(3))
        if not day or not 1 <= day <= 31 or (month is not None and not 1 <= month <= 12):
            return None
        if month is None:
            if year is not None:
                return None

            def of_month(k: int) -> list[date] | None:
                first = month_add(today, k)
                found = safe_date(first.year, first.month, day)
                return [found] if found else None

            return "month", of_month, None
        if year is not None:
            found = safe_date(year, month, day)
            return (None, lambda k: [found], None) if found else None
        return "year", (lambda k: listed(safe_date(today.year + k, month, day))), None
    if kind == "en_date":
        name = match.group(1) or match.group(4)
        day = int(match.group(2) or match.group(3))
        month = month_number(name)
        if not 1 <= day <= 31 or not short_month_date(match):
            return None
        if match.group(5):  # a day of that year; one that does not exist is "invalid"
            found = safe_date(int(match.group(5)), month, day)
            return None, lambda k: listed(found), None
        return "year", (lambda k: listed(safe_date(today.year + k, month, day))), None
    return None


def _alone_atom(kind: str, match: re.Match, ctx: Ctx) -> tuple | None:
    """Return (cycle, k -> [(start day, end day)]) or ("rolling", {direction: (start, end)})."""
    g = match.group
    today, monday = ctx.today, ctx.monday
    if kind in ("zh_week", "en_week"):
        word = g(1)
        offset = {"next": 1, "last": -1, "this": 0}.get(word, ZH_WEEK_PREFIX.get(word))
        first = monday + timedelta(days=7 * offset)
        # "This week" said on its last day (Sunday) is the rest of today and the week ahead:
        # asked then, it is the coming week that is meant, not the hours left of Sunday.
        days = 14 if offset == 0 and today.weekday() == 6 else 7
        return None, lambda k: (first, first + timedelta(days=days))
    if kind in ("zh_rel_month", "zh_month_part", "en_month", "en_month_part"):
        if kind == "zh_rel_month":
            offset, part = ZH_WEEK_PREFIX[g(1)], g(2)
        elif kind == "zh_month_part":
            offset, part = None, g(1)
        elif kind == "en_month":
            offset, part = {"next": 1, "last": -1, "this": 0}[g(1)], None
        else:
            offset = {"next": 1, "last": -1, "this": 0}.get(g(2) or "")  # "the month": repeats
            part = g(1)
        if offset is None:
            return "month", lambda k: month_range(month_add(today, k), part)
        return None, lambda k: month_range(month_add(today, offset), part)
    if kind in ("zh_month", "en_month_name"):
        if kind == "zh_month":
            year, month, part = _year_offset(g(1), ctx), cn_number(g(2)), g(3)
            relative = None
        else:
            cue, part, name, year = g(1), g(2), g(3), g(4)
            year = int(year) if year else None
            month = EN_MONTHS.index(name) + 1
            if name in EN_AMBIGUOUS_MONTHS and not (cue or part or year):
                return None
            relative = cue if cue in ("this", "next", "last") else None
        if not month or not 1 <= month <= 12:
            return None
        if year is not None:
            return None, lambda k: month_range(date(year, month, 1), part)
        if relative == "this":
            return None, lambda k: month_range(date(today.year, month, 1), part)
        if relative in ("next", "last"):
            # next May: the first May after this month; last May: the latest before it.
            if relative == "next":
                year = today.year + (1 if month <= today.month else 0)
            else:
                year = today.year - (1 if month >= today.month else 0)
            return None, lambda k: month_range(date(year, month, 1), part)
        return "year", lambda k: month_range(date(today.year + k, month, 1), part)
    if kind in ("zh_year", "en_year"):
        word = g(0) if kind == "zh_year" else g(1)
        year = _year_offset(word, ctx) if kind == "zh_year" else None
        if kind == "en_year":
            year = today.year + {"next": 1, "last": -1, "this": 0}[word]
        return None, lambda k: (date(year, 1, 1), date(year + 1, 1, 1))
    now = ctx.now
    if kind == "zh_recent":
        return "rolling", {
            "past": (now - RECENT_PAST, now),
            "future": (now, now + RECENT_FUTURE),
            "any": (now - RECENT_PAST, now + RECENT_FUTURE),
        }
    if kind == "en_recent":
        return "rolling", {"past": (now - RECENT_PAST, now), "any": (now - RECENT_PAST, now)}
    if kind == "en_fortnight":
        span = timedelta(days=14)
        return "rolling", {"future": (now, now + span), "any": (now, now + span)}
    if kind in ("zh_rolling", "en_rolling", "en_past_unit"):
        if kind == "en_past_unit":
            word, count, unit = g(1), 1, g(2)
        else:
            word, number, unit = g(1), g(2), g(3)
            if kind == "zh_rolling":
                count = 3 if number == "几" else cn_number(number)
            else:
                number = " ".join(number.split())
                count = int(number) if number.isdigit() else EN_NUMBERS.get(number)
        if not count:
            return None
        unit = unit.rstrip("s")
        days = count * (7 if unit in ("周", "星期", "礼拜", "week", "wk") else 1)
        days = count * 14 if unit == "fortnight" else days
        days = count * 30 if unit in ("月", "month") else days
        if days > MAX_ROLLING_DAYS:
            return None
        span = timedelta(days=days)
        if word in ("未来", "接下来", "next", "coming"):
            return "rolling", {"future": (now, now + span), "any": (now, now + span)}
        if word in ("最近", "近"):  # 最近三天 / 近两周: the days ahead when searching forward
            return "rolling", {"past": (now - span, now), "future": (now, now + span)} | {
                "any": (now - span, now + span)
            }
        return "rolling", {"past": (now - span, now), "any": (now - span, now)}
    return None


def _never(k: int) -> None:
    """Name no date (the rule of a phrase whose dates fall outside the calendar)."""
    return None


def _atom_data(role: str, kind: str, match: re.Match, ctx: Ctx):
    if role == "day":
        if kind in NUMBERED_KINDS:
            return numbered_atom(kind, match, ctx.today, ctx.tz)
        if kind == "en_weekday" and (nth_weekday(match) or not paired_weekday(match)):
            return None
        return _day_atom(kind, match, ctx)
    if role == "part":
        return part_of_day(match.group(1) if kind == "en_part" else match.group(0))
    if role == "clock":
        return clock_atom(kind, match)
    return _alone_atom(kind, match, ctx)


def scan(text: str, ctx_now: datetime, tz: tzinfo) -> list[Phrase]:
    """Return the time phrases of normalised ``text`` (atoms joined), left to right."""
    ctx = Ctx(ctx_now.astimezone(tz), tz)
    # Time words written in traditional characters read as the simplified ones (one for one:
    # the spans stay those of ``text``).
    text = text.translate(TRADITIONAL)
    found: list[Atom] = []
    for role, patterns in (
        ("day", [*DAY_PATTERNS, *NUMBERED_PATTERNS]),
        ("part", PART_PATTERNS),
        ("clock", CLOCK_PATTERNS),
        ("alone", STANDALONE_PATTERNS),
    ):
        for kind, pattern in patterns:
            for match in pattern.finditer(text):
                if match.end() == match.start():
                    continue
                try:
                    data = _atom_data(role, kind, match, ctx)
                except (ValueError, OverflowError):  # a date past the calendar's ends
                    data = (None, _never, None) if role == "day" else (None, _never)
                if data is not None:
                    found.append(Atom(match.start(), match.end(), role, kind, data))
    for kind, pattern, name in HOLIDAY_PATTERNS if HOLIDAY_GATE.search(text) else ():
        for match in pattern.finditer(text):
            try:
                data = holiday_atom(name, match, ctx.today, ctx.tz)
            except (ValueError, OverflowError):  # a date past the calendar's ends
                data = ("year", _never, None)
            if data is not None:
                said = match.span(4 if kind == "en_holiday" else 1)
                if kind == "en_holiday" and (match.group(5) or "").lower() == "eve":
                    # "christmas eve" is a day's own name (what a listing calls it), not the
                    # name and a composition like "the day after" or "weekend": kept whole.
                    said = (said[0], match.end(5))
                found.append(Atom(match.start(), match.end(), "day", kind, data, said))
    # Leftmost-longest, no overlaps.
    found.sort(key=lambda a: (a.start, -(a.end - a.start)))
    atoms: list[Atom] = []
    for atom in found:
        if not atoms or atom.start >= atoms[-1].end:
            atoms.append(atom)
    phrases: list[Phrase] = []
    for i, atom in enumerate(atoms):
        last = phrases[-1] if phrases else None
        if last is not None and _labels_date(last, atom, text, atoms[i + 1 : i + 2]):
            # A weekday beside its date ("sat dec 5", 12月5日周六, "saturday night, dec 5")
            # names that date: the date decides, whether or not the weekday agrees with it;
            # beside a day with no month (周六5号, "saturday the 5th") it chooses the month, and
            # with no month agreeing it is read alone (rag.understand.numbered.agreeing).
            day = last.get("day")
            date_atom, weekday_atom = (atom, day) if atom.kind in _DATE_KINDS else (day, atom)
            weekday = weekday_of(weekday_atom.data)
            if weekday is not None:
                # No month ahead where they agree: the weekday alone, its date unread.
                date_atom.data = agreeing(date_atom.data, weekday, ctx.today) or weekday_atom.data
            if atom.kind in _DATE_KINDS:
                last.atoms[last.atoms.index(day)] = atom
            closed = "(" in text[last.end : atom.start] and text[atom.end : atom.end + 1] == ")"
            last.end = atom.end + closed  # 12月5日（周六）: the bracket goes with it
            continue
        meal = atom.role == "part" and (_is_meal(atom, text) or names_outing(atom, text, atoms))

        if (
            last is not None
            and atom.role != "alone"
            and last.atoms[0].role != "alone"
            and last.get(atom.role) is None
            and GAP_RE.fullmatch(text, last.end, atom.start)
        ):
            last.atoms.append(atom)
            last.end = atom.end
            if meal:
                last.meals.append((atom.start, atom.end))
            if atom.said:
                last.meals.append(atom.said)
            if (
                atom.role == "day"
                and (part := last.get("part")) is not None
                and part.data in ("early", "late")
                and (own := atom.data[2]) is not None
            ):
                # "early" before a day that carries its own part ("early tonight", "early this
                # aft") is that part's early end, as before a day and its part (audit, session 41).
                part.data = narrowed("early", own)
            continue
        if (
            last is not None
            and atom.role == "part"
            and (part := last.get("part")) is not None
            and (
                last.atoms[-1] is part
                or (last.atoms[-1].role == "day" and last.get("clock") is None)
            )
            and GAP_RE.fullmatch(text, last.end, atom.start)
        ):
            # Two parts side by side narrow each other ("tomorrow morning before work"; 明天
            # 晚上下班后): one part, their overlap (words.part_hours); so do two on either side
            # of their day ("early tmrw morning": early morning, 5-9).
            part.data = narrowed(part.data, atom.data)
            last.end = atom.end
            if meal:
                last.meals.append((atom.start, atom.end))
            if last.atoms[-1] is part:
                part.end = atom.end
            continue
        # A named day says what as well as when (a St Andrew's Day ceilidh, 冬至 dumplings): its
        # own words stay in the text the model reads, as a meal's (issue 30, session 50).
        said = [(atom.start, atom.end)] if meal else [atom.said] if atom.said else []
        phrases.append(Phrase(atom.start, atom.end, [atom], said))
    join_week(phrases, text)
    join_apart(phrases, text)
    # Alone, an English part of the day ("evening jazz"), 早 / 晚 and 一点 ("a little": 快一点)
    # are no time.
    return [p for p in phrases if not (len(p.atoms) == 1 and _not_alone(p.atoms[0], text))]


_DATE_KINDS = frozenset({"zh_date", "en_date", *NUMBERED_KINDS})
# What may stand between a date and its weekday: "Saturday, December 5", 12月5日（周六）.
_LABEL_GAP = re.compile(r"[\s,，(（的]*")
# A weekday listed with another day ("dec 5, saturday and sunday") is one of the list, not the
# date's label: the old reading (the date and the weekend) stands.
_LIST_JOIN = re.compile(r"\s*(?:and|or|to|&|/|、|-|和|或者?|跟|与|及|还是|到|至)\s*")


def _labels_date(last: Phrase, atom: Atom, text: str, after: list[Atom]) -> bool:
    """Return whether ``atom`` and the day of ``last`` (a part of the day or a clock time
    between them or not: 周六晚上12月5日, "周六 8点 12月5日") are a date and its weekday."""
    day = last.get("day")
    kinds = {day.kind if day else None, atom.kind}
    listed = atom.kind in WEEKDAY_KINDS and any(
        a.role == "day" and _LIST_JOIN.fullmatch(text, atom.end, a.start) for a in after
    )
    return (
        last.atoms[0].role != "alone"
        and atom.role == "day"
        and bool(kinds & _DATE_KINDS)
        and bool(kinds & WEEKDAY_KINDS)
        and _LABEL_GAP.fullmatch(text, last.end, atom.start) is not None
        and not listed
    )


def _is_meal(atom: Atom, text: str) -> bool:
    """Return whether a part of the day is a meal ("brunch", "lunch", 过早 and 早茶: breakfast,
    午饭 after a day)."""
    words = text[atom.start : atom.end].lower().split()
    return (
        atom.data in MEALS
        or (bool(words) and words[-1] in MEALS)
        or text[atom.start : atom.end] in ZH_MEALS_AFTER_DAY
    )


def _not_alone(atom: Atom, text: str) -> bool:
    """Return whether an atom means no time when it stands alone."""
    if atom.kind in PART_JOINED or atom.kind in CLOCK_JOINED:
        return True
    return atom.kind == "zh_clock" and text[atom.start : atom.end] == "一点"
