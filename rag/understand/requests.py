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
from collections.abc import Callable

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
#
# Most of these forms say only that someone is wanted, not what for: 约个 books a dentist as
# readily as a lunch (约个牙医, 约个保洁阿姨), 有人一起 shares a taxi or a flat (有没有人一起拼车,
# 有人一起合租吗), "anyone up for" a carpool, a loan or a survey, "looking for someone to" clean
# a house (session 42 audit). Such a form asks for company only with what the company is for
# (:data:`_ZH_PURPOSE`, :data:`_EN_PURPOSE`, or a thing the surface offers) before or after it.
# The forms naming it themselves (约饭, 约球, 约会, 饭搭子, "meet up for", "grab lunch with",
# "who wants to join") need nothing more.
_ZH_COMPANY_FOR = re.compile(
    r"(?<![预大节合签契条公制简隐婉相爽失赴践邀誓违解])约(?:饭|个饭|顿饭|球|局|会)|饭搭子"
)
_ZH_COMPANY = re.compile(
    r"(?<![预大节合签契条公制简隐婉相爽失赴践邀誓违解])约(?:个|一个|一波|一下|起|起来|人|朋友|搭子|吗|"
    r"不|伐|么|呀|啊|一起)"
    r"|搭子|(?:有人|有没有人|谁|找人|求人?|想找个?人)(?:一起|陪|约|组队|结伴)|结伴|组队"
)
_EN_COMPANY_FOR = re.compile(
    r"\bwho\s+wants\s+to\s+(?:join|come|go|hang|meet)\b"
    r"|\bmeet\s+up\s+(?:for|over)\b|\bcatch\s+up\s+over\b"
    r"|\bgrab\s+(?:a\s+)?(?:lunch|dinner|brunch|breakfast|bite|coffee|drinks?|beers?)\s+with\b"
    r"|\b(?:lunch|dinner|brunch|coffee)\s+(?:date|buddy|buddies|meetup|meet-up)\b"
)
_EN_COMPANY = re.compile(
    r"\b(?:any(?:one|body)|who(?:'?s|\s+is)?|people)\s+(?:up|keen|down|free|around)\s+for\b"
    r"|\blooking\s+for\s+(?:someone|somebody|people|a\s+(?:buddy|partner|mate|group|crew)|company)"
    r"\s+to\b"
)
# What people meet up for, in general words: a meal or a drink, meeting and going out, a game,
# a sport or an outing said by its verb. General knowledge (issue 30, session 42 audit); a
# specific kind (羽毛球, "badminton") is the surface's to name (``names_activity``). Not 酒店
# (a hotel), 邮局 / 警局 (offices), 牌子 (a brand), bare 看 (看病, 看房) or "ride" (to the airport).
_ZH_PURPOSE = re.compile(
    r"饭|餐|吃|喝|酒(?!店)|茶|咖啡|火锅|烧烤|撸串|宵夜|夜宵|聚|(?<![邮警药当])局|玩|耍|嗨|逛|约会|见面|"
    r"散步|遛弯|压马路|球|打牌|扑克|下棋|棋牌|麻将|游戏|桌游|剧本杀|密室|唱|k歌|ktv|跳舞|蹦迪|健身|运动|"
    r"锻炼|跑步|夜跑|晨跑|骑行|骑车|爬(?!虫)|徒步|登山|露营|钓鱼|游泳|滑雪|滑冰|电影|演出|演唱会|音乐节|"
    r"看展|展览|旅行|旅游|出游|自驾|郊游|拍照|摄影|活动"
)
_EN_PURPOSE = re.compile(
    r"\b(?:lunch|dinner|brunch|breakfast|supper|coffee|tea|drinks?|drinking|beers?|pints?|wine|"
    r"food|bite|meals?|eat|eating|games?|play|playing|match|sports?|hike|hiking|walk|walking|"
    r"running|bike\s+ride|cycling|swim|swimming|dance|dancing|party|gigs?|shows?|concerts?|"
    r"movies?|films?|cinema|museums?|exhibitions?|day\s+trip|road\s+trip|day\s+out|night\s+out|"
    r"adventures?|hang(?:ing)?\s*out|meet\s*up|catch\s+up|karaoke|quiz|trivia|picnic|"
    r"explor(?:e|ing)|fun|activit(?:y|ies)|events?)\b"
)


def company_request(text: str, *, names_activity: Callable[[str], object] | None = None) -> bool:
    """Return whether the query asks for company or to meet up for something (「周末约个饭」,
    「找个羽毛球搭子」, "anyone up for a hike", "looking for someone to play tennis with"), not
    for a service or a share (「约个牙医」, "anyone up for carpooling").

    ``names_activity``: the surface's own reading of whether the (normalised) text names a
    thing it offers ("badminton"), counted as what the company is for beside the general
    words of meals, meeting and going out.
    """
    normalised = form_text(text)
    if not normalised:
        return False
    if _EN_COMPANY_FOR.search(normalised) or _ZH_COMPANY_FOR.search(normalised):
        return True
    if not (_EN_COMPANY.search(normalised) or _ZH_COMPANY.search(normalised)):
        return False
    return bool(
        _ZH_PURPOSE.search(normalised)
        or _EN_PURPOSE.search(normalised)
        or (names_activity is not None and names_activity(normalised))
    )
