"""Whether a named place is open: the whole query asks a place's hours and nothing else.

"is freddys open on thanksgiving", "what time does tesco close on sunday": the person asks a
fact about one place, by its name. Session 54 read such questions as errands whatever the place,
and its audit withdrew the reading: an open list of subjects took outings for shops ("good spot
open late for a drink", "what time does the waterpark open", 古镇几点关门 all went empty). This
reader says only the form, and holds it to the whole query: "is X open" or "what time does X
close" with a time, and nothing after it (a purpose, "for a drink", "with the kids", a second
clause asking anything, keeps it unread). Whether the subject is something to do is the
caller's to say (activities: a kind or a mood read, or a listing holding one of its words);
:func:`hours_asked` returns the subject's words for that, and only for a name: a subject after
an article ("the castle", "the arcade") is a kind of place, not read.

English only: the Chinese forms (几点关门, 营业到几点) are left as they were. Written from general
knowledge of how people ask a place's hours (issue 30, session 56), after fresh16's, fresh24's
and fresh26's answered questions of the form had been seen (development data). Business-agnostic.
"""

from __future__ import annotations

import re

from rag.understand.cues import form_text

# Words that stand for no one place: "anything open on thanksgiving", "is it open", "nice places
# open late" ask for something to do that is open, or point back, not at a named place.
_GENERAL = frozenset(
    [
        "somewhere",
        "anywhere",
        "something",
        "anything",
        "nothing",
        "everything",
        "everywhere",
        "place",
        "places",
        "spot",
        "spots",
        "where",
        "what",
        "whats",
        "what's",
        "who",
        "it",
        "its",
        "that",
        "this",
        "there",
        "anyone",
        "someone",
        "stuff",
        "thing",
        "things",
        "any",
        "some",
        "all",
        "most",
        "which",
        "whatever",
        "here",
        "everyone",
        "events",
        "event",
        "activities",
        "activity",
        "opening",
        "trading",
        "business",
        "store",
        "shop",
        "shops",
    ]
)
# An article or a possessive before the subject makes it a common noun, a kind of place ("the
# castle", "the arcade", "our local pharmacy"): a city whose listings hold none of it may still
# have one people go to, so its absence says little (a read of the form over the 24 English
# corpora, session 56: "is the castle open on boxing day", "is the arcade open late" read as
# places of half the cities listing none). A subject without one is a name ("freddys",
# "kmart", "servo", "lanzhou west railway station"): a business the city's listings either name
# or do not.
_ARTICLES = frozenset(["the", "a", "an", "my", "our", "your", "ur", "their", "this", "that"])
# Words before a name that name none of it ("nearest servo", "local kmart").
_DETERMINERS = frozenset(
    [
        "local",
        "nearest",
        "closest",
        "near",
        "big",
        "little",
        "new",
        "old",
        "main",
    ]
)
_DAY = (
    r"(?:mon|tues|tue|wednes|wed|thurs|thu|fri|satur|sat|sun)(?:day)?s?|weekends?|weekdays?"
    r"|christmas(?:\s+(?:eve|day))?|xmas(?:\s+(?:eve|day))?|boxing\s+day|new\s+year'?s(?:\s+(?:eve|day))?"
    r"|easter(?:\s+(?:sunday|monday))?|thanksgiving(?:\s+(?:day|eve))?|black\s+friday|public\s+holidays?"
    r"|(?:the\s+)?(?:holiday|holidays|long\s+weekend)"
)
# When it is asked open: a day, a part of it, an hour, "late", "now", "still", "yet".
_WHEN = (
    rf"(?:(?:on|this|next|over|for)\s+(?:a\s+|the\s+)?(?:{_DAY})|{_DAY}"
    r"|(?:till|until|til|past|after|before|at|by)\s+[\w:.]+(?:\s*(?:am|pm))?"
    r"|late|later|today|tonight|tomorrow|tmrw|tmr|now|right\s+now|rn|still|yet|yet\s+today"
    r"|24/7|24\s*(?:hours|hrs|h)|all\s+night|(?:this|in\s+the)\s+(?:morning|afternoon|evening)"
    r"|near\s+[\w'-]+(?:\s+[\w'-]+)?|in\s+town|downtown)"
)
_SUBJECT = r"(?P<subject>[\w'&.-]+(?:\s+[\w'&.-]+){0,3}?)"
_TAIL = rf"(?:\s*,?\s*{_WHEN})*\s*[?.!]*\s*$"
_HOURS = (
    # "is freddys open on thanksgiving", "are the markets still open"
    re.compile(rf"^(?:is|are|r|will|would)\s+{_SUBJECT}\s+(?:still\s+|even\s+|be\s+)?open{_TAIL}"),
    # Not the subject alone before "open" ("servo open late?", "arcade open late?"): typed so, a
    # common noun drops its article, and a name cannot be told from it (the same read: "arcade
    # open late?" read as a place in 20 of the 24 English corpora listing none).
    # "what time does the packie close on thanksgiving", "when does freddys open tomorrow"
    re.compile(
        rf"^(?:what\s+time|wat\s+time|when|how\s+late|till\s+when|until\s+when)\s+"
        rf"(?:does|do|will|is|are|r)\s+{_SUBJECT}\s+(?:close|closes|closing|shut|shuts|open|opens|"
        rf"opening|stay\s+open|be\s+open){_TAIL}"
    ),
    # "what are freddys hours on thanksgiving"
    re.compile(
        rf"^(?:what\s+are|what'?s|whats)\s+{_SUBJECT}(?:'s|s')?\s+(?:opening\s+|trading\s+)?"
        rf"hours{_TAIL}"
    ),
)


def hours_asked(text: str) -> tuple[str, ...]:
    """Return the words naming the place whose opening hours are the whole query ("is freddys
    open on thanksgiving" -> ("freddys",)); none when the query asks anything else, or its subject
    is a general word ("anything open on thanksgiving", "is it open late") or a common noun
    after an article ("is the castle open on boxing day")."""
    normalised = form_text(text).strip()
    for form in _HOURS:
        found = form.match(normalised)
        if found is None:
            continue
        words = found.group("subject").split()
        if words[0] in _ARTICLES or any(word in _GENERAL for word in words):
            return ()
        named = tuple(word for word in words if word not in _DETERMINERS)
        return named
    return ()
