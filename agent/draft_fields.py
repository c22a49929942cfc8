"""What a message sets on an event it organises: the head count, the place and the title, in
either language ("8个人", "地点改成静安寺", "for 8 people", "at the Clay Studio on Wuding Road",
"call it Clay and wine night")."""

from __future__ import annotations

import re

from agent.extract import QUESTION_RE
from rag.understand.words import CN_DIGITS, NUMERAL, cn_number

# "8个人", "六位"; a bare "个" only after 人数 ("人数改成八个"), since "一个周六" is no count.
_PEOPLE_RE = re.compile(
    r"("
    + NUMERAL
    + r")\s*(?:个人|人|位|名)|人数\s*(?:改成|改为|设为|定为|是|为|:|：)?\s*("
    + NUMERAL
    + r")"
)


# "for 8 people", "make it ten people", "max 12", "up to 10", "10 max".
_EN_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
)
_EN_COUNTS = {word: n for n, word in enumerate(_EN_WORDS.split())}
_EN_NUMERAL = r"\d{1,3}|" + "|".join(_EN_COUNTS)
# "max 2 hours", "up to 10 km": a measure, no head count.
_EN_UNIT = (
    r"(?:km|k|m|mi|miles?|hours?|hrs?|h|minutes?|mins?|yuan|quid|pounds?|dollars?|bucks|%"
    r"|percent|years?|yrs?|kg|degrees?)\b"
)
_PEOPLE_EN_RE = re.compile(
    rf"\b({_EN_NUMERAL})\s+(?:people|persons|guests|players|participants|spots|places|seats"
    rf"|of us)\b|\b(?:max(?:imum)?|up to|capacity(?: of)?|cap(?: it)? at|limit(?: it)? to)\s+"
    rf"({_EN_NUMERAL})\b(?!\s*{_EN_UNIT})|\b({_EN_NUMERAL})\s+max\b",
    re.IGNORECASE,
)


def extract_people(text: str) -> int | None:
    """Return the number of people a message names ("8个人", "六位", "for 8 people", "max 12"),
    or None."""
    english = None if _HAN_RE.search(text) else _PEOPLE_EN_RE.search(text)
    if english:
        word = next(g for g in english.groups() if g).lower()
        value = int(word) if word.isdigit() else _EN_COUNTS[word]
        return value if 1 <= value <= 500 else None
    match = _PEOPLE_RE.search(text)
    if not match:
        return None
    numeral = match.group(1) or match.group(2)
    if len(numeral) == 2 and "十" not in numeral and not numeral.isdigit():
        numeral = max(numeral, key=lambda ch: CN_DIGITS.get(ch, 0))  # 五六个人: up to six
    value = cn_number(numeral)
    return value if value and 1 <= value <= 500 else None


_PLACE_RE = re.compile(
    r"(?:地点|地方|位置)(?:改成|改到|换成|换到|定在|是|在)([^，,。！!？?\s]{2,20})"
)
_PLACE_AT_RE = re.compile(r"(?:在|去)([^，,。！!？?\s]{2,12}?)(?:办|搞|组织|举行|集合|见)")


# A clause of its own saying where: "周六下午打羽毛球，8个人，在徐汇". Not a time (在周六, 在晚上)
# nor a pointing word (在附近, 在这里).
_PLACE_CLAUSE_RE = re.compile(
    r"(?:^|[，,。；;\s])在([^，,。！!？?；;\s的]{2,12})(?=$|[，,。！!？?；;\s])"
)
_NOT_A_PLACE_RE = re.compile(
    r"[周点天月号年]|星期|礼拜|上午|下午|晚上|早上|中午|附近|这里|那里|哪|家里"
)


# English: "change the place to The Board Room cafe", "venue is Zilker Park", "at Zilker Park"
# (a capitalised name, not a day or a month: "at Friday" is a time).
_PLACE_EN_RE = re.compile(
    r"\b(?:place|venue|location|spot)\s+(?:to|is|will be|at|:)\s*"
    r"(?!(?:fine|ok|okay|good|great|perfect|tbd|to be decided|be decided)\b)"
    r"([^,.!?;\s][^,.!?;]{1,39}?)\s*(?:\b(?:please|thanks|thank you|now)\b)?\s*(?:[,.!?;]|$)",
    re.I,
)
# A capitalised name that is not a day, a month or a word like "My" ("at Friday" is a time).
_EN_NAME = (
    r"(?!(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\b"
    r"|(?:My|Noon|Midnight|English|Chinese|Christmas|I)\b)[A-Z][\w'’&-]*(?:\s+[A-Z][\w'’&-]*)*"
)
# "at Zilker Park", and where it is: "at the Clay Studio on Wuding Road", "at Joe's in Jing'an".
_PLACE_EN_AT_RE = re.compile(
    rf"\b(?:at|in)\s+((?:[Tt]he\s+)?{_EN_NAME}(?:\s+(?:on|in|near|by|off)\s+{_EN_NAME})?)"
)
_SAID_AT_RE = re.compile(r"\s*(?:(?:it'?s|it is|let'?s do it|make it|move it)\s+)?(?:at|in)\b")
_HAN_RE = re.compile(r"[\u3400-\u9fff]")


# A title given to an event: 标题改成…, 就叫「…」, "call it Clay and wine night", "rename it to …".
_TITLE_RE = re.compile(
    r"(?:(?:标题|活动名)(?:改成|改为|换成|叫|就叫)|名字(?:改成|改为|换成|就叫)"
    r"|(?:^|[，,。\s那它这个])就叫(?![我他她你们上外车人])|起名叫?)[「“\"]?"
    r"([^」”\"，,。！!？?]{2,40})"
    r"|\b(?:call it(?!\s+(?:off|a day|a night|quits|even|a bargain)\b)|name it"
    r"|rename it(?: to)?|retitle it(?: to)?|(?:change|set) the (?:title|name)"
    r" to|title it)\s+[\"“‘']?([^\"”’,.!?]{2,60}?)[\"”’]?\s*(?:please)?\s*(?:[,.!?]|$)",
    re.IGNORECASE,
)


def extract_title(text: str) -> str | None:
    """Return the title a message gives an event (标题改成周末桌游夜, "call it Clay and wine
    night"), or None."""
    match = _TITLE_RE.search(text)
    if not match:
        return None
    title = (match.group(1) or match.group(2)).strip().rstrip("吧呗啊")
    return None if not title or re.search(r"什么|啥", title) else title


def sets_draft_field(text: str) -> bool:
    """Return whether a statement names a place, a head count or a title for an event ("地点在
    武定路的陶艺工作室", "at the Clay Studio", "make it 10 people", "call it …"): while a draft
    is edited, a change to it, however much it reads like a search. A question sets nothing."""
    if QUESTION_RE.search(text):
        return False
    # An English "at …" place counts only said as the change itself ("at the Clay Studio"), not
    # inside another statement ("I live in London").
    placed = bool(_HAN_RE.search(text) or _PLACE_EN_RE.search(text) or _SAID_AT_RE.match(text))
    return any(
        read(text) is not None
        for read in ((extract_place,) if placed else ()) + (extract_people, extract_title)
    )


def extract_place(text: str) -> str | None:
    """Return a place name the message sets ("地点改成静安寺", "在静安寺办", "…，在徐汇",
    "change the place to The Board Room cafe")."""
    if not _HAN_RE.search(text):
        english = _PLACE_EN_RE.search(text) or _PLACE_EN_AT_RE.search(text)
        return english.group(1) if english else None
    for pattern in (_PLACE_RE, _PLACE_AT_RE, _PLACE_CLAUSE_RE):
        match = pattern.search(text)
        if match and not (pattern is _PLACE_CLAUSE_RE and _NOT_A_PLACE_RE.search(match.group(1))):
            return match.group(1)
    return None
