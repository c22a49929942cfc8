"""What a message sets on an event it organises: the head count, the place and the title, in
either language ("8个人", "地点改成静安寺", "for 8 people", "at the Clay Studio on Wuding Road",
"call it Clay and wine night"), a new draft's fields and title, and its start (the usual hour
of a part of the day, a day named alone keeping the draft's hour)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.utils import timezone

from agent import extract
from agent.extract import QUESTION_RE, is_english
from rag.understand.numbers import CN_DIGITS, cn_number
from rag.understand.words import NUMERAL

if TYPE_CHECKING:  # agent.context imports the router, which imports this module
    from agent.context import RuntimeContext

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
# 在徐汇滨江组个飞盘局 drafted with no place (组 was not among the verbs: a make-run look,
# session 54).
_PLACE_AT_RE = re.compile(r"(?:在|去)([^，,。！!？?\s]{2,12}?)(?:办|搞|组织|举行|集合|见)")
# The verbs of getting together only after 在: 去吃火锅再约个桌游 is no place (an audit, 54).
_PLACE_IN_RE = re.compile(r"在([^，,。！!？?\s]{2,12}?)(?:组|约|聚|弄|攒)")


# A clause of its own saying where: "周六下午打羽毛球，8个人，在徐汇". Not a time (在周六, 在晚上)
# nor a pointing word (在附近, 在这里).
_PLACE_CLAUSE_RE = re.compile(
    r"(?:^|[，,。；;\s])在([^，,。！!？?；;\s的]{2,12})(?=$|[，,。！!？?；;\s])"
)
_NOT_A_PLACE_RE = re.compile(
    r"[周点天月号年]|星期|礼拜|上午|下午|晚上|早上|中午|附近|这里|那里|哪|家里"
    # Not a place to meet: online, a chat group, this side (在群里组个局: an audit, 54).
    r"|这边|那边|群里|线上|网上|微信|朋友圈|[吃喝玩看]|再|然后"
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
    for pattern in (_PLACE_RE, _PLACE_AT_RE, _PLACE_IN_RE, _PLACE_CLAUSE_RE):
        match = pattern.search(text)
        # Not a time or a pointing word (在周末组个局, 在附近约): only what a clause or a verb
        # leaves after 在 is tested; 地点改成… is a place as said.
        if match and not (pattern is not _PLACE_RE and _NOT_A_PLACE_RE.search(match.group(1))):
            return match.group(1)
    return None


# --- A new draft ----------------------------------------------------------------------

# A draft named only by a part of the day starts at this hour (the part's window is wider:
# 下午 is 12-18 when searching, but 下午的桌游局 is drafted at 13:00).
# The same hour in both languages for the same part (下午 was 13:00 and "afternoon" 14:00: a
# make-run look, session 52).
DRAFT_HOURS = {"凌晨": 0, "清晨": 6, "早上": 7, "早晨": 7, "上午": 9, "中午": 12, "下午": 14}
DRAFT_HOURS.update({"傍晚": 17, "晚上": 19, "晚间": 19, "夜里": 20, "夜间": 20, "深夜": 22})
# The parts of the day whose window opens before anyone would start (一早 at 5:00, 白天 at 6:00).
DRAFT_HOURS.update({"一早": 7, "一大早": 7, "大清早": 7, "上班前": 7, "白天": 9, "午休": 12})
# English parts ("next Saturday afternoon" was drafted at 12:00, the window's opening: a make-run
# look, session 51); "tonight" before "night".
DRAFT_HOURS.update({"morning": 9, "lunchtime": 12, "afternoon": 14, "evening": 19})
DRAFT_HOURS.update({"tonight": 19, "night": 20})


def part_of(time_range: extract.TimeRange) -> str | None:
    """Return the part of the day a time phrase ends with (下午, 上班前), if any."""
    label = time_range.label.lower()
    return next((p for p in DRAFT_HOURS if label.endswith(p)), None)


def start_at(time_range: extract.TimeRange | None, *, now: datetime | None = None) -> str | None:
    """Return the draft's start: a clock time, else 19:00 on the day (or the part's start).

    A window that opens now (这周末 asked on Saturday night: it runs from now to Sunday's end)
    starts at the next evening inside it, else the next full hour: the instant of asking, to
    the second, is no time anyone sets (a make-run look, session 49: "11月28日 22:24").
    """
    if time_range is None:
        return None
    if time_range.point is not None:
        return time_range.point.isoformat()
    start = time_range.start
    part = part_of(time_range)
    if abs((start - (now or timezone.now())).total_seconds()) < 60:
        start = _first_slot(start, time_range.end)
    elif part is not None and start.hour <= DRAFT_HOURS[part]:
        start = start.replace(hour=DRAFT_HOURS[part], minute=0, second=0, microsecond=0)
    elif start.hour < 9 and time_range.end.hour >= 23:  # a whole day: evening by default
        start = start.replace(hour=19, minute=0, second=0, microsecond=0)
    return start.isoformat()


def _first_slot(opens: datetime, ends: datetime) -> datetime:
    """Return the first 19:00 at least an hour after ``opens`` before ``ends``, else the next
    full hour, else the next quarter hour."""
    evening = opens.replace(hour=19, minute=0, second=0, microsecond=0)
    if evening < opens + timedelta(hours=1):
        evening += timedelta(days=1)
    if evening <= ends:
        return evening
    hour = (opens + timedelta(hours=1)).replace(minute=0, second=0, microsecond=0)
    if hour <= ends:
        return hour
    # Too late for a full hour (今晚 at 23:30): the next quarter hour, not the second asked.
    quarter = opens.replace(second=0, microsecond=0) + timedelta(minutes=15 - opens.minute % 15)
    return quarter


# A bare hour of 7-11 said for an activity on a day ("host a wine tasting friday at 8"): the time
# reading leaves it, being either half of the day for a search; an activity set up with no part
# of the day said is the evening's (a draft's default is 19:00 already).
_BARE_EVENING_HOUR_RE = re.compile(
    r"\bat\s+(?P<hour>[7-9]|1[01])(?::(?P<minute>[0-5]\d))?(?:\s*o'?clock)?\b(?!\s*[ap]\.?m\b)",
    re.IGNORECASE,
)


def fields_of(message: str) -> dict:
    time_range = extract.time_to_set(message)
    fields: dict = {}
    if time_range:
        fields["startAt"] = start_at(time_range)
        bare = _BARE_EVENING_HOUR_RE.search(message)
        if bare and time_range.point is None and part_of(time_range) is None:
            day = datetime.fromisoformat(fields["startAt"])
            hour, minute = int(bare.group("hour")) + 12, int(bare.group("minute") or 0)
            fields["startAt"] = day.replace(hour=hour, minute=minute).isoformat()
    place = extract_place(message)
    if place:
        fields["locationName"] = place
    people = extract_people(message)
    if people:
        fields["maxParticipants"] = people
    title = extract_title(message)
    if title:
        fields["title"] = title
    return fields


# Creating words leading an English request and its head count, left out of the draft's title
# ("set up a frisbee game for 6 people" -> "Frisbee game"; "start a run club" -> "Run club").
_EN_CREATING_RE = re.compile(
    r"^(?:(?:i'?d (?:like|love) to|i (?:want|would like|plan) to|i wanna|i'?m (?:going to|gonna)"
    r"|let'?s|can you|could you|please|help(?: me)?)\s+)*"
    r"(?:(?:organi[sz]e|set up|host|start|create|make|plan|put on|run)\s+)?(?:(?:an?|the|some)\s+)?"
    r"|\s+for \d+(?: people| of us)?\b"
    # The head count said as a limit ("max 8 people", "up to 8", ", 8 people max"): "host a
    # pottery evening next thursday at 7, max 8 people" was titled "Pottery max 8 people" (a
    # make-run look, session 55).
    r"|[,\s]+(?:for\s+)?(?:max(?:imum)?|up to|at most|no more than|limit(?:ed to)?|cap(?:ped at)?)"
    r"\s+\d+(?:\s+(?:people|persons|guests))?\b"
    # An hour the time reading leaves (a bare 7-11 is either half: "friday at 8").
    r"|\s+at\s+\d{1,2}(?::\d{2})?(?:\s*o'?clock)?\b"
    r"|[,\s]+\d+\s+(?:people|persons|guests)(?:\s+max(?:imum)?)?\b",
    re.IGNORECASE,
)


_EN_AT_HOME_RE = re.compile(
    # "at my friend's place" too (an audit, session 54).
    r"\s+(?:at|in)\s+(?:my|our|a)\s+(?:\w+['’]s\s+)?(?:place|house|flat|home|apartment)\b"
    r"|\s+(?:at|in)\s+(?:my|our)\s*$|\s+at home\b",
    re.IGNORECASE,
)
# Words after a kind that name the gathering, which a time phrase may have taken ("quiz night").
_EN_EVENT_WORDS = "night|evening|morning|afternoon|party"


def draft_title(message: str, understood, activity_type: str) -> str:
    """Return a new draft's title: what it is, never when (the time is shown beside it, and a
    day in the title would go stale when the draft moves: "改成周日吧")."""
    if is_english(message):
        # The place and one's own home leave the message before its topic is read: read first,
        # "at my place in Jing'an" left "Board games night at my in Jing'" (a make-run look,
        # session 54; "… at my place" once left "Board game at my").
        place = extract_place(message)
        if place:  # shown beside it, and it moves: "Picnic", not "Picnic at Zilker Park"
            message = re.sub(rf"\s+(?:at|in)\s+{re.escape(place)}(?!\w)", " ", message, flags=re.I)
        said = _EN_AT_HOME_RE.sub(" ", message)
        topic = _EN_CREATING_RE.sub("", extract.semantic_query(said))
        topic = _EN_AT_HOME_RE.sub("", " ".join(topic.split()))
        last = topic.split()[-1] if topic else ""
        # "a board game night this friday": the time reading took "night" with the day.
        named = re.search(rf"\b{re.escape(last)}\s+({_EN_EVENT_WORDS})\b", message, re.I)
        if last and named:
            topic += " " + named.group(1).lower()
        return topic[:1].upper() + topic[1:] if topic else "Meetup"
    vibes = [cue.label for cue in understood.moods]
    kinds = extract.kinds_in(message, understood)
    kind = kinds[0].text if kinds else activity_type
    # A kind that already names a gathering (读书会, 篮球赛, 瑜伽课) takes no 局.
    gathering = "" if kind.endswith(("会", "局", "赛", "课", "营", "团", "展", "派对")) else "局"
    return f"{vibes[0] if vibes else ''}{kind}{gathering}"


# A part of the day said with an hour (晚上7点, "7am"): the hour is as said.
_PART_SAID_RE = re.compile(
    r"上午|早上|早晨|清晨|凌晨|中午|下午|傍晚|晚上|夜里|半夜|今晚|明晚|\b(?:am|a\.m\.|pm|p\.m\.)|[ap]m\b"
    r"|\b(?:morning|afternoon|evening|night|noon|midnight)\b",
    re.IGNORECASE,
)


def keep_time_of_day(ctx: RuntimeContext, fields: dict, current: datetime | None = None) -> dict:
    """Return the changes to an activity (the chat's draft, or ``current``: the start of the one
    changed) with a new day named alone ("改成周日吧") at its hour, not at the evening hour a new
    draft on a whole day gets, and a new hour named alone (改到晚上7点, "move it to 7pm") on its
    day, not today's (a make-run look, session 50)."""
    time_range = extract.time_to_set(ctx.message)
    if current is None and ctx.draft is not None:
        current = ctx.draft.start_at
    times = extract.read(ctx.message).times
    if current is not None and times and all(t.kind == "clock" and t.point for t in times):
        # The hour moved to is the last one said (从下午3点改到5点: 5点); an hour said without a
        # part of the day (改到7点半) is the afternoon's or evening's for an activity then.
        point = times[-1].point
        local = timezone.localtime(current, point.tzinfo)
        hour = point.hour
        if hour < 12 <= local.hour and not _PART_SAID_RE.search(times[-1].text):
            hour += 12
        moved = local.replace(hour=hour, minute=point.minute)
        return {**fields, "startAt": moved.isoformat()} if moved > timezone.now() else fields
    if time_range is None or time_range.point is not None or part_of(time_range):
        return fields
    # One day, named alone: its window opens at midnight (today's opens now) and ends at night;
    # "sunday evening" opens at 17:00 and moves the draft to the evening instead.
    opens = time_range.start
    from_now = abs((opens - timezone.now()).total_seconds()) < 60
    if (opens.hour, opens.minute) != (0, 0) and not from_now:
        return fields
    if opens.date() != time_range.end.date() or time_range.end.hour < 23:
        return fields
    if current is None:
        return fields
    local = timezone.localtime(current, time_range.start.tzinfo)
    moved = time_range.start.replace(hour=local.hour, minute=local.minute)
    if bare_weekday(ctx.message):
        # "move it to saturday" for a draft next Friday: that weekday nearest the draft (the
        # day after it), not the coming one; a day already past moves on a week at a time.
        moved = local + timedelta(days=(moved.weekday() - local.weekday() + 3) % 7 - 3)
        while moved <= timezone.now():
            moved += timedelta(days=7)
    if moved <= timezone.now():
        # Today named after the draft's hour has passed (改成周日吧 on a Sunday evening): the
        # same day next week, never a start in the past.
        moved += timedelta(days=7)
    return {**fields, "startAt": moved.isoformat()}


_WEEK_NAMED_RE = re.compile(r"[下这本上]|\b(?:next|this|coming|last)\b", re.IGNORECASE)


def bare_weekday(message: str) -> bool:
    """Return whether the message names one weekday and no week (改到周六, "move it to
    saturday"; not 下周六, "next saturday")."""
    times = extract.read(message).times
    return (
        len(times) == 1 and times[0].kind == "weekday" and not _WEEK_NAMED_RE.search(times[0].text)
    )
