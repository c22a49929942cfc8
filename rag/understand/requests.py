"""Asking to learn or practise something, or for company: a request for something to do,
whatever it names.

"want to brush up on my cupla focal", 「想练练口语」: the form says the person wants to learn,
practise or take up a thing, which is what classes, clubs and meet-ups are for. A word the model
does not know (an Irish phrase, a misspelling) moves such a query's meaning towards the example
requests for something else (rag.intent), and the intent gate emptied it; the form is read
here instead, so the intent gate leaves it to the margin gates. A request for information
("how do I learn to drive faster for my test", 「怎么学会报税」) is not such a request:
``rag.understand.information_request`` reads it first.

Written from general knowledge of how people say they want to learn or practise, in Chinese
and English (issue 30, session 39), after the fresh7 query above (development data) was seen;
no word of it but "brush up" is in the grammar. Business-agnostic.
"""

from __future__ import annotations

import re

from rag.understand.cues import form_text

_EN_LEARN = re.compile(
    r"\b(?:want|wanna|would\s+like|'d\s+like|like|looking|hoping|keen|trying|eager|plan(?:ning)?)"
    r"\s+(?:to\s+)?(?:learn|brush\s+up|practi[cs]e|improve|pick\s+up|take\s+up|get\s+into|"
    r"get\s+back\s+into|get\s+better\s+at|start|try\s+out|have\s+a\s+go\s+at)\b"
    r"|^\s*(?:learn(?:ing)?|brush(?:ing)?\s+up\s+on|practi[cs](?:e|ing)|take\s+up|get\s+into)\b"
)
_ZH_LEARN = re.compile(r"想(?:要)?(?:学|练|提高|提升|入门|试试|尝试|体验|重拾|捡起)|^(?:学|练)")


def learning_request(text: str) -> bool:
    """Return whether the query says the person wants to learn, practise or take up something
    ("want to brush up on my Spanish", 「想学吉他」)."""
    normalised = form_text(text)
    if not normalised:
        return False
    return bool(_EN_LEARN.search(normalised) or _ZH_LEARN.search(normalised))


# Asking for company or to meet up (issue 30, session 42): 约 as "arrange to meet" (约个饭, 约一个,
# 约起, 约球, 有人约吗; not 预约 an appointment, 大约, 节约, 合约, 签约, 约定, 约束), an activity
# partner (饭搭子, 找搭子), someone to go with (有人一起, 找人陪, 结伴), and in English "anyone up
# for", "who wants to join", "looking for someone to", "meet up for", "grab lunch with". What
# a meet-up is for (a meal, a game) is what the listings offer, while a request to a business
# (a booking, an appointment) is read by its own form first (rag.understand.bookings).
# General knowledge of how people ask to meet up; written after fresh11's 「周二午饭约一个」 had
# been seen (development data): of its words only 约一个 is here.
_ZH_COMPANY = re.compile(
    r"(?<![预大节合签契条公制简隐婉相爽失赴践邀誓违解])约(?:个|一个|一波|一下|起|起来|饭|个饭|顿饭|"
    r"球|局|人|朋友|搭子|吗|不|伐|么|呀|啊|会|一起)"
    r"|搭子|(?:有人|有没有人|谁|找人|求人?|想找个?人)(?:一起|陪|约|组队|结伴)|结伴|组队(?:去|玩|打|爬|跑|逛)"
)
_EN_COMPANY = re.compile(
    r"\b(?:any(?:one|body)|who(?:'?s|\s+is)?|people)\s+(?:up|keen|down|free|around)\s+for\b"
    r"|\bwho\s+wants\s+to\s+(?:join|come|go|hang|meet)\b"
    r"|\blooking\s+for\s+(?:someone|somebody|people|a\s+(?:buddy|partner|mate|group|crew)|company)"
    r"\s+to\b|\bmeet\s+up\s+(?:for|over)\b|\bcatch\s+up\s+over\b"
    r"|\bgrab\s+(?:a\s+)?(?:lunch|dinner|brunch|breakfast|bite|coffee|drinks?|beers?)\s+with\b"
    r"|\b(?:lunch|dinner|brunch|coffee)\s+(?:date|buddy|buddies|meetup|meet-up)\b"
)


def company_request(text: str) -> bool:
    """Return whether the query asks for company or to meet up (「周末约个饭」, 「找个羽毛球搭子」,
    "anyone up for a hike", "looking for someone to play tennis with")."""
    normalised = form_text(text)
    if not normalised:
        return False
    return bool(_EN_COMPANY.search(normalised) or _ZH_COMPANY.search(normalised))
