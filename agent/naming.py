"""What a message names among the user's activities, and the words that stop going.

A request to stop going or a question about one's own activity (我不想参加周六那个徒步了, "when
is my pottery class?") names its activity by some of its words: :func:`named_words` keeps them
(the not-going words, whose it is, pointers, times and question words taken out) and
:func:`named_matches` finds the activities holding every one. Used by the MANAGE planner
(agent/offline_plans.py), the references to a listing (agent/references.py) and the answers
(agent/offline.py).
"""

from __future__ import annotations

import re

from activities import named_kinds
from agent import extract
from agent.extract import CJK_RE
from rag.text import cut_as_written

# Not going any more: leave (a joined activity) or cancel (one the user organises).
CANCEL_RE = re.compile(
    r"取消|退出|退掉|退了|不去了|去不了|去不成|删除|删掉|不(?:想|打算|准备|再)?参加|"
    r"\bcancel\b|"
    + extract.CANT_MAKE
    + r"|\bno longer (?:coming|going|attending)\b|\bdrop out\b|\bleave\b",
    re.IGNORECASE,
)


# What a request to stop going (or a question about one's activity) says besides naming the
# activity: the not-going words, whose
# activity it is (我发起的, "I organised"), pointing words and particles (我不想参加周六那个徒步了
# leaves 徒步; 我去不了了 and "I can't make it on Saturday" leave nothing).
_NOT_NAMING_RE = re.compile(
    CANCEL_RE.pattern + r"|不想|不能|不了|[了吧啦呀的把掉]|发起|组织|创建|发布|报名|参加"
    r"|\b(?:i|i'?ve|my|me|the|that|this|it|one|on|please|activity|event|anymore|any more"
    r"|organi[sz]ed?|organi[sz]ing|hosting|created|joined|signed up|booked|spot|place|seat"
    r"|in|at|for|of|to|from|can|can'?t|cannot|go|going|make|won'?t|be|able|attend"
    r"|don'?t|do|not|think|want|wanna|really|sorry|afraid|after all|guess|need|have|so|but"
    r"|actually|unfortunately|well|oh|hmm|anyway|now|just|something|came|up|turns out"
    r"|today|tonight|tomorrow|weekend|(?:mon|tues|wednes|thurs|fri|satur|sun)day'?s?)\b"
    # Days and times said another way than the reader took out (我周日去不了了).
    r"|周[一二三四五六日天末]|星期[一二三四五六日天]|礼拜[一二三四五六日天]|[今明后]天|[今明]晚|[这本下]周"
    # What a question about one's own activity asks besides naming it (我的飞盘局怎么样了,
    # "when is my pottery class?"), and the words for one's activities as a whole.
    r"|怎么样|在哪(?:里|儿)?|几点|什么时候|哪天|哪些|什么|几个|还办|还有|定了|开始|结束|[吗呢么]|我报(?!名)"
    r"|活动|日程|安排|行程"
    # Why one cannot go (临时有事去不了了, 算了我去不了了): no activity is named by it.
    r"|算了|临时|突然|有(?:点|些)?事|加班|生病|病了|不舒服"
    # What a change to it says besides naming it (把羽毛球局改到晚上7点, "move my potluck to 7pm").
    r"|改到|改成|改|挪到|挪|推迟到?|提前到?|延后到?|换到|换成"
    r"|\b(?:move|change|push|switch|reschedule|shift|bring|we|us|let'?s|could|would|shall)\b"
    r"|有人|谁"
    r"|\b(?:when|where|what|how|time|is|still|any|updates?|news|happening|starts?|activities"
    r"|does|did|who|who['’]s|coming|begins?|calendar|agenda|anyone|anybody|someone|people|else"
    r"|yet|registered|many|come"
    r"|events|schedule|plans?)\b",
    re.IGNORECASE,
)


def named_words(message: str) -> list[str]:
    """Return the words a request to stop going names its activity by ("徒步", "frisbee")."""
    rest = _NOT_NAMING_RE.sub(" ", extract.read(message).rest)
    words = (w.strip() for w in cut_as_written(rest))
    return [
        w
        for w in words
        if re.search(r"\w", w)
        and not (len(w) == 1 and w.isascii())
        and w.lower() not in extract.FILLER_WORDS
        and not w.isdigit()
    ]


# Words that name what kind of thing an activity is, not which one ("the pottery class"): they
# never tell two activities apart, so only the other words must match.
_KIND_NOUN_TEXT = (
    "class classes game games session lesson lessons meetup group club tour workshop thing"
)
_KIND_NOUNS = frozenset(_KIND_NOUN_TEXT.split())


def _telling(words: list[str]) -> list[str]:
    """Return the words that can tell activities apart: no kind noun, no single Chinese
    character (局, 会: in half the titles)."""
    return [
        w
        for w in (w.lower() for w in words)
        if w not in _KIND_NOUNS and not (len(w) == 1 and CJK_RE.match(w))
    ]


def _holds(word: str, activity: dict) -> bool:
    """Return whether the activity's title or type holds ``word``: an English word as a whole
    word ("run" is not in "Brunch"), a Chinese one whole or by its first two characters (读书会
    names 周日读书分享)."""
    text = f"{activity['title']} {activity['type']}".lower()
    if not CJK_RE.search(word):
        return re.search(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])", text) is not None
    # A longer Chinese word needs its head (篮球赛 is not 足球赛, 羽毛球 not 毛球).
    return word in text or (len(word) > 2 and word[:2] in text)


def named_matches(message: str, activities: list[dict]) -> tuple[list[str], list[dict]]:
    """Return the words a request to stop going names its activity by, and the activities
    holding every one of them (all of ``activities`` when it names nothing).

    Words in one language cannot be in titles in the other ("the board games night" and
    卡坦岛策略桌游): when no activity holds them, the activities of the kinds they name (桌游)
    match instead, only when every one of them is titled in the other language (one titled in
    the message's language that does not hold its words is not what it names: ask).
    """
    said = named_words(message)
    words = _telling(said)
    matching = [a for a in activities if all(_holds(w, a) for w in words)]
    # Several hold the telling words: the one whose title holds the words as said, a single
    # character with them, tells them apart (夜徒步 of two hikes: 夜 alone tells nothing, beside
    # 徒步 it names the night one; an audit, session 56).
    whole = "".join(said)
    if len(matching) > 1 and CJK_RE.search(whole):
        exact = [a for a in matching if whole in a["title"]]
        if exact:
            matching = exact
    if words and not matching:
        # An activity named in the other language ("the frisbee one" and 飞盘局): the titles
        # naming it by any of its kind's names, asked or held (activities.named_kinds knows both
        # languages; "climbing" names 攀岩 only as a held word), before the broader type (运动
        # matched the climbing one too: a make-run look, session 52).
        english = all(w.isascii() for w in words)
        said = message.lower()
        named = [k for k in named_kinds.NAMED_KINDS if named_kinds.names(said, k, also_held=True)]
        naming = [
            a
            for a in activities
            if any(named_kinds.names(a["title"].lower(), k, also_held=True) for k in named)
        ]
        # Only titles in the other language: one in the message's own language naming the kind
        # is as likely what it means, and it does not hold the words (ask; an audit, session 52).
        if naming and all(english == bool(CJK_RE.search(a["title"])) for a in naming):
            return words, naming
        kinds = {cue.label for cue in extract.kinds_in(message)}
        of_kind = [a for a in activities if a["type"] in kinds]
        if all(english == bool(CJK_RE.search(a["title"])) for a in of_kind):
            matching = of_kind
    return words, matching


def singular(word: str) -> str:
    """Return an English word without a plural "s" ("pills" -> "pill"); others as they are."""
    return word[:-1] if word.isascii() and len(word) > 3 and word.endswith("s") else word


def said_in(word: str, text: str) -> bool:
    """Return whether ``text`` holds ``word``: an English one at a word's start, singular or
    plural ("pill" in "pills", "peanuts" in "my peanut allergy"), a Chinese one anywhere."""
    if not word.isascii():
        return word in text
    return re.search(rf"(?<![a-z0-9]){re.escape(singular(word).lower())}", text.lower()) is not None
