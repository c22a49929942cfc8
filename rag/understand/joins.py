"""Time phrases read together across the words between them (rag.understand.scan): a weekday
beside a week ("friday next week"), English parts of the day standing apart from the query's one
day ("lunch break thing ... on wednesday"), and an outing named by a part of the day ("date
night") that stays in the text the model reads."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rag.understand.numbered import in_week
from rag.understand.parts import MEALS, narrowed, overlaps
from rag.understand.words import EN_ANY_WEEKDAY, EN_DAY_JOINER, THIS_WEEKDAY

if TYPE_CHECKING:
    from rag.understand.scan import Atom, Phrase

WEEKDAY_KINDS = frozenset({"zh_weekday", "en_weekday"})

# Words before an English part of the day that say when, not what ("on the evening", "this
# night", "every night", "by night").
_WHEN_WORDS = frozenset({"on", "at", "in", "the", "this", "that", "next", "last", "every", "by"})
_WORD_BEFORE = re.compile(r"\b([a-z]+)\s+$")


def names_outing(atom: Atom, text: str, atoms: list[Atom]) -> bool:
    """Return whether an English part of the day is the last word of an outing's name ("date
    night", "quiz night", "game night"): a word that is no time word stands right before it.
    Its hours still apply; the name stays in the text the model reads, as a meal's does."""
    if atom.kind != "en_part" or text[atom.start : atom.end].split()[0] not in ("night", "nite"):
        return False
    before = _WORD_BEFORE.search(text, 0, atom.start)
    if before is None or before.group(1) in _WHEN_WORDS:
        return False
    return not any(a.start <= before.start(1) < a.end for a in atoms)


_WEEK_KINDS = frozenset({"en_week", "zh_week"})
_WEEK_GAP = re.compile(r"[\s,，的]*(?:(?:of|on|in)\s+(?:the\s+)?)?")


def join_week(phrases: list[Phrase], text: str) -> None:
    """Read a weekday beside a week on that week's day ("friday next week", "next week on
    friday", "tuesday of this week"; session 49: the two were read apart, Friday to the end
    of next week). Only a weekday that names no week of its own."""
    i = 0
    while i + 1 < len(phrases):
        first, second = phrases[i], phrases[i + 1]
        pair = (first, second) if first.get("day") is not None else (second, first)
        day_phrase, week = pair
        day = day_phrase.get("day")
        if (
            day is not None
            and day.kind in WEEKDAY_KINDS
            and day.data[0] in ("week", THIS_WEEKDAY)
            and len(week.atoms) == 1
            and week.atoms[0].kind in _WEEK_KINDS
            and _WEEK_GAP.fullmatch(text, first.end, second.start)
        ):
            monday = week.atoms[0].data[1](0)[0]
            day.data = in_week(day.data, monday)
            day_phrase.start, day_phrase.end = first.start, second.end
            phrases.remove(week)
        i += 1


def join_apart(phrases: list[Phrase], text: str) -> None:
    """Read an English part of the day standing apart from the query's one day on that day
    ("lunch break thing near the office on wednesday": Wednesday 11-14), as 下午 after 明天 is
    read on it. Only one part and one day with no part or clock of its own; a meal apart from
    the day is the meal ("dinner ideas for friday"), and "eve" apart is "the eve of".
    """
    apart = [
        p
        for p in phrases
        if len(p.atoms) == 1
        and p.atoms[0].kind == "en_part"
        and not text[p.start : p.end].endswith((*MEALS, "eve", "am", "pm"))
    ]
    days = [p for p in phrases if p.get("day") is not None]
    if not apart or len(days) != 1 or days[0].get("clock") is not None:
        return
    # Several parts apart that overlap are one part, their overlap ("3rd of dec, evening, date
    # night": the evening; session 49); parts that do not overlap say no one part.
    wanted = apart[0].atoms[0].data
    for other in apart[1:]:
        if not overlaps(wanted, other.atoms[0].data):
            return
        wanted = narrowed(wanted, other.atoms[0].data)
    day = days[0].get("day")
    cycle, rule, implied = day.data
    own = days[0].get("part")
    if own is None and len(days[0].atoms) == 1 and implied is None:
        day.data = (cycle, rule, wanted)
        return
    # A part apart from a day that has one narrows it where the two overlap, as side by side
    # ("tmrw morning workout before work": before work, 6-9, as "tomorrow morning before
    # work" is; issue 30, session 43, after fresh12's query had been seen). Parts that do not
    # overlap ("tomorrow morning ... after work") leave the day's own part as it was.
    if own is not None and overlaps(own.data, wanted):
        own.data = narrowed(own.data, wanted)
    elif own is None and implied is not None and overlaps(implied, wanted):
        day.data = (cycle, rule, narrowed(implied, wanted))


# An ambiguous short weekday read after a joiner ("fri or sat", "sat/sun": the pattern in
# rag.understand.words) is a day only where a day stands before the joiner.
_PAIRED_DAY_BEFORE = re.compile(
    r"\b(?:" + EN_ANY_WEEKDAY + r")\b\.?\s*" + EN_DAY_JOINER + r"\s*(?:on\s+)?$"
)


def paired_weekday(match: re.Match) -> bool:
    """Return whether an ambiguous short weekday read after a joiner has a day before it ("sat
    or sun"), rather than being the word ("fun in the sun", "she sat")."""
    if match.groupdict().get("paired") is None:
        return True
    return bool(_PAIRED_DAY_BEFORE.search(match.string[: match.start()]))
