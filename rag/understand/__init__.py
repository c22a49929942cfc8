"""Query understanding: what a search query asks for besides its meaning.

``understand(text, now=..., tz=..., direction=..., lexicon=...)`` returns an
:class:`Understanding`: the time phrases of the query resolved to windows of local time, place
cues ("nearby", a radius), kind and mood cues from a lexicon the caller passes in, the language
of the query, and ``rest``: the query without its time and place phrases, for the semantic part.
Everything is a pure function of its arguments: no database, no settings, no clock. The same
module serves the agent's planner, and is meant for ``/rag/search`` and memory search, so one
phrase means one window everywhere. docs/QUERY_UNDERSTANDING.md lists every phrase.

Semantics
---------

Windows are half-open ``[start, end)``, aware, in the given time zone ``tz``; a day is
``[00:00, next day 00:00)`` local (23 or 25 hours on a DST change). Weeks run Monday-Sunday.

``direction`` says which occurrence a phrase that repeats means, and which phrases apply:

- ``"future"`` (activity search): a repeating phrase (周五, 周末, 三月, 月底, 晚上, 5号,
  "Friday", "in March") means its first occurrence that has not ended, today's included; a
  window containing ``now`` starts at ``now``. A fixed phrase (昨天, 上周, "last May") that has
  ended is not applied: it is reported in ``ignored`` with reason ``"past"``. A named day
  (``rag.understand.holidays``: "black friday", 国庆, 冬至) means its nearest occurrence in
  every direction, kept whole when it is over: asked the day after, the one just past, not
  next year's (nothing can start in it, so a search says nothing fits).
- ``"past"`` (memory recall): a repeating phrase means its latest occurrence that has started;
  a window containing ``now`` ends at ``now``. A fixed phrase that has not started (明天) is
  ignored with reason ``"future"``.
- ``"any"``: the occurrence containing now, else the nearest one (a tie goes to the later);
  nothing is cut and nothing ignored for its direction.

Occurrences of a repeating phrase are searched two cycles either way (周五: this week's, the
next two and the previous two), so 2月30日 or 31号 in a short month can be ``"invalid"``.

Days: 今天/today, 明天/tomorrow, 后天/the day after tomorrow, 大后天 (+3), 昨天/yesterday,
前天/the day before yesterday (-2), 大前天 (-3): that whole day. 今晚/tonight, 明晚, 昨晚/last
night: that day's evening (18-24); 今早/this morning, 明早: its morning. "this afternoon" /
"this evening": today's.

Parts of the day (hours, end exclusive; they narrow a day: 明天下午, "Friday night", 周一下班后,
"Sunday lunchtime"; alone, a Chinese part is a repeating daily phrase: 晚上 = this evening, or
tomorrow's once it has ended): 凌晨 0-6, 清晨 5-8, 一早/一大早/"early morning" 5-9, 上班前/
"before work" 6-9, 早上/早晨/上午/morning 6-12, 白天/daytime 6-18, 中午/午间/noon/midday 11-14,
午休/午饭时间/lunchtime/"lunch break" 11-14, 下午/afternoon 12-18, 放学后 16-20, "after
school" 15-19, 傍晚 17-19, 下班后/下班/下了班 18-24, "after work" 17-24 (the working days of
each language: 朝九晚六, nine to five), 晚上/晚间/夜里/夜间/夜晚/evening/night 18-24, 通宵/
"all night"/overnight 20-02, 深夜/半夜/午夜/"late night" 22-02 (next day); where the hours
come from is said in ``rag.understand.parts.PARTS_OF_DAY``. 早 and 晚 are parts only right after
a day (周六早, 周五晚八点; not 晚会; 早 only before a clock time or a pause, 周五早到了 being
"early"); "early" only right before one ("early Saturday").
An English part alone ("evening jazz", "after work drinks") is not read as a time. The end of a
span is no start: 玩到半夜 and 营业至深夜 are no time (等到下班 is).

Informal words: tonite, tmrw, wknd, nite, arvo, "sat nite" (sat/sun/mon/wed only with a cue
or a part after them); meals right next to a day narrow it ("sunday brunch" 10-14); an English
part apart from the query's one day is read on it, and narrows the day's own part where the
two overlap ("tmrw morning workout before work": 6-9). Named days (holidays of the country of
``tz``, "the day after X", "X eve", "X weekend", 国庆, 中秋节): ``rag.understand.holidays``.
docs/QUERY_UNDERSTANDING.md lists them all.

Regional and colloquial words (听日, 下昼, 朝早, 后儿, 晌午, 擦黑, 今朝, 下半日, traditional
characters, s'arvo, Scots "the night" / "the morn"): ``rag.understand.regional``. A phrase
that is the time of a feeling, a habit or a kind of outing (今天有点丧, 晚上老睡不着, 通宵那种,
"feeling creative today") keeps its window but is soft (``TimePhrase.soft``;
``rag.understand.soft``): a search ranks by it, and :attr:`Understanding.time` prefers a phrase
that is not soft.

Clock times (三点, 3点半, 七点一刻, 15:00, 8pm, 8:30 p.m.): a point and the window
``[point, point + 1h)``. After 下午/晚上/evening/night an hour below 12 is p.m. (晚上12点 is
midnight); after 深夜 1-5 is the next morning; a bare Chinese hour 1-6 (三点开会) is p.m.
一点 alone is "a little" (快一点), not a time.

Weekdays: 周五 / 星期五 / 礼拜五 / "Friday" / "this Friday" / "coming Friday" repeat weekly
(on a Friday, future: today while it lasts; past: today once begun). 这周五/本周五: this
week's, 下周五: next week's, 下下周五: the week after, 上周五: last week's (fixed).
"next Friday" is next week's Friday, like 下周五 (so on a Thursday it is 8 days away, never
tomorrow); "last Friday" is the latest Friday before today (on a Saturday: yesterday).

Weekends: Saturday 00:00 to Monday 00:00. 周末/"weekend"/"the weekend"/"this coming weekend"
repeat weekly (on a Sunday, future: the rest of today); 这周末/本周末/"this weekend": this
week's; 下周末/"next weekend": next week's; 上周末/"last weekend": last week's. With a part of
the day or a clock time, one window per day (周末晚上: Saturday 18-24 and Sunday 18-24).

Weeks: 这周/本周/"this week" (Monday-Monday), 下周/"next week", 下下周, 上周/"last week",
上上周. Months: 这个月/本月/"this month", 下个月/"next month", 上个月/"last month";
三月/3月/三月份/"in March" repeat yearly (in November, future: next March; past: this year's);
去年三月, 2025年3月, "March 2025": fixed; "this May": this year's; "next May": the first May
after this month; "last May": the latest May before this month. (May and March need a cue:
"in May", "last March", a day or a year; "I may go" is no month.)
Parts of a month: 月初/上旬/"early"/"beginning of" days 1-10, 月中/中旬/"mid" 11-20, 下旬/
"late" 21-end, 月底/月末/"end of the month" the last 7 days; 月底 repeats monthly, 这个月底 /
下个月底 / "end of next month" are fixed; 三月底 is the end of March.
Dates: 12月3号, 12月3日, 3号 (repeats monthly), "March 3", "3rd of March" (repeat yearly).
Years: 今年/明年/去年/前年, 2026年, "this/next/last year".
Recent: 最近/近期/这段时间/这阵子: past: the 30 days before now; future: the 14 days after;
any: both. "recently"/"lately": the 30 days before now (past or any only). Rolling spans:
最近3天, 过去一周, 近两个月, 未来三天, 接下来一周, "the past 3 days", "last 2 weeks", "next 5
days", "the past week" (a month = 30 days, at most 366 days).

A part of the day or a clock time standing apart from an earlier day phrase is read on that
day: "明天去爬山，下午三点出发" is tomorrow 15:00.

Joined phrases (session 39): days joined by or / and / nothing name both (周六周日, 明天或者后天,
"friday or saturday night"), by to / 到 the span (下午两点到五点); two parts side by side narrow
each other ("tomorrow morning before work"). A time the person cannot or will not make
(晚上没空, 早上实在起不来, 除了周六, "not on sunday", "sunday is out") is ignored as
``"negated"``. The next few days (这两天, 今明两天), later today (晚点去, "later tonight"),
working days (工作日, weekdays, weeknights, midweek), the days off (周末两天, 节假日), a
fortnight, after a meal (晚饭后, "after dinner"), 后半夜 / "the wee hours" and clock bounds
(八点以后, "after 8pm", "before 11am"): docs/QUERY_UNDERSTANDING.md.

Places: 附近, 周边, 周围, 离我近, 近一点, 家门口, 不远, "near me", "nearby", "near here",
"around here", "close to me", ... set ``nearby``; "3公里内" / "within 2 miles" also set
``radius_km``. The caller applies them only when it knows the user's location.

Kinds and moods come from the caller's :class:`Lexicon`; they are not removed from ``rest``
(they carry meaning for the embedding). A negated word names nothing: 不/没/别 right before
it, or 不想/不要/不用/... up to four characters before it in the same clause ("不吃辣",
"不用跟人聊天"; "不错的音乐" still names 音乐). ``rag.understand.negation`` holds every
refusal marker and reads what a query refuses: words, times, the spans under a negation.

``rest`` is the text with every applied time phrase and place cue removed, whitespace collapsed
and punctuation or 的 at either end dropped; removing is repeated until nothing is found, so
``understand(rest)`` finds no time and no place but soft ones and named days. Ignored phrases
stay in ``rest``, and so do soft ones (通宵那种, 午休可以去的: part of what the request means)
and a named day's own words ("st andrews day", 冬至: they say what as well as when).

Only the first ``MAX_CHARS`` characters are read (queries are capped well below that).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from itertools import pairwise
from zoneinfo import ZoneInfo

from rag.understand.cues import (
    Cue,
    Lexicon,
    information_request,
    keyboard_noise,
    language,
    match_lexicon,
    normalise,
    scan_places,
    yes_no_question,
)
from rag.understand.negation_refused import refused_time
from rag.understand.regional import TRADITIONAL
from rag.understand.scan import scan
from rag.understand.soft import soft_reason
from rag.understand.time import Ignored, TimePhrase, Window, resolve

__all__ = [
    "DIRECTIONS",
    "Cue",
    "Ignored",
    "Lexicon",
    "TimePhrase",
    "Understanding",
    "Window",
    "keyboard_noise",
    "information_request",
    "yes_no_question",
    "understand",
]

MAX_CHARS = 4000
DIRECTIONS = ("future", "past", "any")
_EDGE = " \t\n\r,，.。!！?？、;；:：~～…-—"


@dataclass(frozen=True)
class Understanding:
    """What a query asks for besides its meaning (see the module docstring)."""

    text: str
    language: str
    direction: str
    times: tuple[TimePhrase, ...]
    ignored: tuple[Ignored, ...]
    places: tuple[Cue, ...]
    kinds: tuple[Cue, ...]
    moods: tuple[Cue, ...]
    rest: str

    @property
    def nearby(self) -> bool:
        """Return whether the query asks for something near the user."""
        return bool(self.places)

    @property
    def radius_km(self) -> float | None:
        """Return the distance the query names ("3公里内"), if any."""
        return next((c.radius_km for c in self.places if c.radius_km is not None), None)

    @property
    def time(self) -> TimePhrase | None:
        """Return the one time phrase to filter on: the narrowest applied, else None.

        Several phrases usually refine each other ("周五有什么活动，晚上的"), so the narrowest
        is the most specific (a tie goes to the first); a caller wanting all reads ``times``.
        A phrase saying when to search wins over a soft one (the time of a feeling: "今天有点丧，
        明晚想去看电影" is tomorrow evening).
        """
        if not self.times:
            return None
        firm = [t for t in self.times if t.soft is None]
        return min(firm or self.times, key=lambda t: (_seconds(t.start, t.end), t.span[0]))

    @property
    def window(self) -> Window | None:
        """Return the window of :attr:`time` (start of its first, end of its last window)."""
        found = self.time
        return None if found is None else Window(found.start, found.end)

    def as_meta(self) -> dict:
        """Return plain JSON data for a search's ``meta.understood``."""
        return {
            "language": self.language,
            "direction": self.direction,
            "times": [t.as_dict() for t in self.times],
            "ignored": [i.as_dict() for i in self.ignored],
            "nearby": self.nearby,
            "radiusKm": self.radius_km,
            "places": [c.as_dict() for c in self.places],
            "kinds": [c.as_dict() for c in self.kinds],
            "moods": [c.as_dict() for c in self.moods],
            "rest": self.rest,
        }


def _time_words(phrase, span: tuple[int, int], back: list[int]):
    """Return the spans of ``phrase`` (at ``span`` of the working text) that only say when:
    all of it but its meals ("sunday brunch", "early friday lunch", 礼拜六过早, 周六早上早茶),
    which say what too and stay in the text the model reads (issue 30, session 41)."""
    spans, cursor = [], span[0]
    for start, end in phrase.meals:
        meal = (back[start], back[end - 1] + 1)
        if cursor < meal[0]:
            spans.append((cursor, meal[0]))
        cursor = max(cursor, meal[1])
    if cursor < span[1]:
        spans.append((cursor, span[1]))
    return spans


def _seconds(start: datetime, end: datetime) -> float:
    """Return the real length of [start, end) (same-zone subtraction would use wall time)."""
    return end.timestamp() - start.timestamp()


def _span(origin: list[int], start: int, end: int) -> tuple[int, int]:
    """Map a span of a derived text back to the original (its first and last known chars)."""
    known = [i for i in origin[start:end] if i >= 0]
    return (known[0], known[-1] + 1) if known else (0, 0)


# Two time phrases joined by "or" / "and" / "n" / nothing name both (周六周日, 明天或者后天,
# "friday or saturday night", "fri n sat"); joined by "to" / 到 they name the span from the
# first to the second (周一到周五, 两点到五点, "2pm to 5pm").
_BOTH = re.compile(
    r"[\s,，、/&+]*(?:或者|或是|或|和|跟|与|及|还是|or|and|and/or|n)?[\s,，、/]*", re.I
)
_SPAN = timedelta(days=31)  # "to" joins at most a month: 2pm today to 5pm on sunday is two
_THROUGH = re.compile(r"\s*(?:到|至|-|–|~|～|to|through|thru|until|till)\s*", re.I)


def _join_gaps(ordered: list[TimePhrase], joined: list[TimePhrase]) -> list[tuple[int, int]]:
    """Return the spans of ``original`` between phrases that :func:`_joined` read as one."""
    gaps = []
    for phrase in joined:
        inside = [p for p in ordered if phrase.span[0] <= p.span[0] and p.span[1] <= phrase.span[1]]
        gaps += [(a.span[1], b.span[0]) for a, b in pairwise(inside) if a.span[1] < b.span[0]]
    return gaps


def _joined(times: list[TimePhrase], original: str) -> list[TimePhrase]:
    """Return ``times`` with phrases joined as one where the query joins them (see above).

    Only phrases naming different times are joined: one inside the other refines it ("周六，晚上
    八点" is Saturday 20:00, as read already) and stays as it is.
    """
    out: list[TimePhrase] = []
    for phrase in times:
        last = out[-1] if out else None
        if last is None or _overlap(last, phrase):
            out.append(phrase)
            continue
        gap = original[last.span[1] : phrase.span[0]]
        end = phrase.point or phrase.end
        # A clock time runs to a time of its own day ("2pm to 5pm on sunday" is no span).
        span_max = timedelta(days=1) if last.point is not None else _SPAN
        if _THROUGH.fullmatch(gap) and _utc(last.start) < _utc(end) <= _utc(last.start) + span_max:
            windows: tuple[Window, ...] = (Window(last.start, end),)
        elif _BOTH.fullmatch(gap):
            windows = _union((*_with_part_of(last, phrase), *phrase.windows))
        else:
            out.append(phrase)
            continue
        span = (last.span[0], phrase.span[1])
        soft = last.soft if last.soft == phrase.soft else None
        out[-1] = TimePhrase(original[span[0] : span[1]], span, last.kind, windows, None, soft)
    return out


def _with_part_of(first: TimePhrase, second: TimePhrase) -> tuple[Window, ...]:
    """Return the windows of ``first``, a whole day or days, narrowed to the hours of
    ``second`` when that is one part of a day ("friday or saturday night": both nights)."""
    whole = all(_midnight(w.start) and _midnight(w.end) for w in first.windows)
    if not whole or len(second.windows) != 1 or second.point is not None:
        return first.windows
    window = second.windows[0]
    day = window.start.replace(hour=0, minute=0, second=0, microsecond=0)
    lo, hi = window.start - day, window.end - day
    if hi - lo >= timedelta(days=1):
        return first.windows
    out = []
    for span in first.windows:
        start = span.start
        while _utc(start) < _utc(span.end):
            out.append(Window(start + lo, start + hi))
            start = (start + timedelta(days=1)).replace(tzinfo=start.tzinfo)
    return tuple(out)


def _midnight(moment: datetime) -> bool:
    return (moment.hour, moment.minute, moment.second) == (0, 0, 0)


def _overlap(a: TimePhrase, b: TimePhrase) -> bool:
    return any(
        _utc(x.start) < _utc(y.end) and _utc(y.start) < _utc(x.end)
        for x in a.windows
        for y in b.windows
    )


def _union(windows) -> tuple[Window, ...]:
    """Return ``windows`` in order, those that touch made one."""
    merged: list[Window] = []
    for window in sorted(windows, key=lambda w: _utc(w.start)):
        if merged and _utc(window.start) <= _utc(merged[-1].end):
            end = max(merged[-1].end, window.end, key=_utc)
            merged[-1] = Window(merged[-1].start, end)
        else:
            merged.append(window)
    return tuple(merged)


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC)


def _tz(now: datetime, tz) -> tzinfo:
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("now must be an aware datetime")
    if tz is None:
        return now.tzinfo
    return ZoneInfo(tz) if isinstance(tz, str) else tz


def understand(
    text,
    *,
    now: datetime,
    tz: tzinfo | str | None = None,
    direction: str = "any",
    lexicon: Lexicon | None = None,
    next_when_ending: bool = False,
) -> Understanding:
    """Return what ``text`` asks for: times, places, kinds, moods, language and the rest.

    ``now`` must be aware; ``tz`` (a tzinfo or an IANA name) defaults to ``now``'s. Never raises
    for any text; raises ValueError for a naive ``now`` or an unknown direction.
    ``next_when_ending``: a repeating day, weekend or part of the day nearly over also means its
    next occurrence (周日 at 21:00 on Sunday: a search's reading, ``rag.understand.time``).
    """
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {DIRECTIONS}")
    zone = _tz(now, tz)
    original = text if isinstance(text, str) else ("" if text is None else str(text))
    original = original[:MAX_CHARS]
    # Traditional characters read as simplified (週六沒空 as 周六没空) by the negation and soft
    # readings, as scan reads them: one for one, so spans of ``original`` are spans of it.
    folded = original.translate(TRADITIONAL)
    # The working text and, per character, its index in ``original`` (-1: a separator).
    chars = list(original)
    origin = list(range(len(original)))
    times: list[TimePhrase] = []
    places: list[Cue] = []
    ignored: list[Ignored] = []
    edge = _EDGE
    while True:
        current = "".join(chars)
        normal, back = normalise(current)
        phrases = scan(normal, now, zone)
        place_spans = scan_places(normal)
        # Time phrases and place cues may not overlap: the longer wins, a time on a tie.
        items = [(p.start, p.end, "time", p) for p in phrases]
        items += [(s, e, "place", r) for s, e, r in place_spans]
        items.sort(key=lambda i: (i[0], -(i[1] - i[0]), i[2] != "time"))
        chosen = []
        for item in items:
            if not chosen or item[0] >= chosen[-1][1]:
                chosen.append(item)
        timed = [item[3] for item in chosen if item[2] == "time"]
        resolved = {
            id(p): r
            for p, *r in resolve(timed, now, zone, direction, next_when_ending=next_when_ending)
        }
        removed: list[tuple[int, int]] = []
        ignored = []
        for start, end, what, payload in chosen:
            # Map the normalised span to ``current``, then to ``original``.
            c_start, c_end = back[start], back[end - 1] + 1
            span = _span(origin, c_start, c_end)
            words = current[c_start:c_end]
            if what == "place":
                places.append(Cue("nearby", words, span, payload))
                removed.append((c_start, c_end))
                continue
            windows, point, kind = resolved[id(payload)]
            if not isinstance(windows, str) and refused_time(folded, span):
                # 晚上没空, 早上实在起不来, "not on sunday": not this time; its windows say which
                # (a caller may leave them out).
                ignored.append(Ignored(words, span, "negated", windows))
                continue
            if isinstance(windows, str):
                ignored.append(Ignored(words, span, windows))
                continue
            soft = soft_reason(folded, span, kind)
            if any(t.span[0] <= span[0] and span[1] <= t.span[1] for t in times):
                # A soft phrase left in the text, or a named day's words kept in it (scan's
                # ``Atom.said``), found again.
                continue
            times.append(TimePhrase(words, span, kind, windows, point, soft))
            if soft is None:  # a soft phrase is part of what the request means: it stays
                removed.extend(_time_words(payload, (c_start, c_end), back))
        if not removed:
            break
        edge = _EDGE + "的"  # "周五晚上的活动" -> "活动"
        next_chars: list[str] = []
        next_origin: list[int] = []
        cursor = 0
        for start, end in removed:
            next_chars.extend(chars[cursor:start])
            next_origin.extend(origin[cursor:start])
            next_chars.append(" ")
            next_origin.append(-1)
            cursor = end
        next_chars.extend(chars[cursor:])
        next_origin.extend(origin[cursor:])
        chars, origin = next_chars, next_origin
    ordered = sorted(times, key=lambda t: t.span)
    times = _joined(ordered, original)
    # The words joining phrases read as one go with them (周一到周五 -> nothing left), and only
    # those: "今天FRI到下午" joins 今天 and FRI side by side, and its 到 stays with 下午.
    gaps = _join_gaps(ordered, times)
    rest_chars = [
        c for c, i in zip(chars, origin, strict=True) if not any(a <= i < b for a, b in gaps)
    ]
    rest = " ".join("".join(rest_chars).split()).strip(edge)
    normal_all, back_all = normalise(original)
    lexicon = lexicon or Lexicon()
    return Understanding(
        text=original,
        language=language(normal_all),
        direction=direction,
        times=tuple(times),
        ignored=tuple(ignored),
        places=tuple(sorted(places, key=lambda c: c.span)),
        kinds=tuple(match_lexicon(normal_all, back_all, original, lexicon.kinds)),
        moods=tuple(match_lexicon(normal_all, back_all, original, lexicon.moods)),
        rest=rest,
    )
