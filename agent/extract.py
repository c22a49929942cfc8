"""Rule-based extraction from chat messages: times, activity types, places, notes, requests.

Used offline (no LLM) to fill tool arguments and by the lifecycle hooks and triggers. Times,
places, kinds and vibes are read by ``rag.understand`` (the module ``/rag/search`` and memory
search use too, so a phrase means the same window everywhere; docs/QUERY_UNDERSTANDING.md lists
them), forward in time (``direction="future"``), in ``settings.TIME_ZONE``. A message naming
several times ("明天去爬山，下午三点出发") uses the narrowest, a clock time being a one-hour
window. Counts and place names are the agent's own rules below; the preferences a message
states are ``agent.preferences_said``'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from rag.text import cut_as_written
from rag.understand import Lexicon, Understanding, understand
from rag.understand.small_talk import without_greeting

# The activities search's ``timeRange`` is inclusive at both ends; a window's end is not.
_INCLUSIVE = timedelta(seconds=1)


def local_now(now: datetime | None = None) -> datetime:
    """Return ``now`` (default: the current time) in the project's time zone."""
    return timezone.localtime(now or timezone.now())


@dataclass
class TimeRange:
    """A span of local time found in a message; ``point`` is set for a clock time.

    ``end`` is the last second of the window (the activities search's ``timeRange`` includes it).
    """

    start: datetime
    end: datetime
    label: str
    point: datetime | None = None

    def as_filter(self) -> dict:
        """Return the ``timeRange`` filter of the activities search."""
        return {"start": self.start.isoformat(), "end": self.end.isoformat()}


def read(text: str, now: datetime | None = None) -> Understanding:
    """Return what ``rag.understand`` reads in a message, forward from ``now`` (default: now)."""
    now = local_now(now)
    return understand(text, now=now, tz=now.tzinfo, direction="future", lexicon=LEXICON)


def time_range_of(understood: Understanding) -> TimeRange | None:
    """Return the span of time ``rag.understand`` read (its narrowest phrase), or None."""
    found = understood.time
    if found is None:
        return None
    return TimeRange(found.start, found.end - _INCLUSIVE, found.text, point=found.point)


def time_said(understood: Understanding) -> str:
    """Return the time phrases a message says as a window (not the time of a feeling, 今天有点丧),
    as said: the words a search reads its window from."""
    return " ".join(phrase.text for phrase in understood.times if phrase.soft is None)


# Something done said beside a past time (上周末去爬山了, "I went hiking yesterday, anything
# similar?"): the time is of what was done, not the time asked (an audit, session 52).
_DONE_RE = re.compile(r"了|过(?!来|去)|\b(?:went|did|had|was at|were at|been|visited)\b", re.I)


def passed_time_said(text: str) -> str:
    """Return the time a message asks about that has already passed (这周六 on a Sunday, 昨天有
    什么活动) when it names no other time and tells of nothing done then; "" otherwise."""
    understood = read(text)
    if understood.times or _DONE_RE.search(text):
        return ""
    return next((i.text for i in understood.ignored if i.reason == "past"), "")


def start_of_today(now: datetime | None = None) -> datetime:
    """Return midnight of today (of ``now``) in the project's time zone."""
    return local_now(now).replace(hour=0, minute=0, second=0, microsecond=0)


def extract_time_range(text: str, now: datetime | None = None) -> TimeRange | None:
    """Return the span of time a message names, or None when it names none."""
    return time_range_of(read(text, now))


def time_to_set(text: str, now: datetime | None = None) -> TimeRange | None:
    """Return the span of time a message sets for an activity, or None: as
    :func:`extract_time_range`, but a repeating day nearly over names its next occurrence
    (组织一个周日的飞盘局 said at 21:00 on Sunday drafted for 22:00 that night: a make-run look,
    session 56; ``rag.understand.time.ENDING_SHARE``)."""
    now = local_now(now)
    plain = read(text, now)
    ahead = understand(
        text, now=now, tz=now.tzinfo, direction="future", lexicon=LEXICON, next_when_ending=True
    ).time
    if plain.time is None or ahead is None or len(ahead.windows) <= len(plain.time.windows):
        return time_range_of(plain)
    last = ahead.windows[-1]
    return TimeRange(last.start, last.end - _INCLUSIVE, ahead.text, point=ahead.point)


# --- Language of the answer ---------------------------------------------------------------

CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")


def is_english(message: str) -> bool:
    """Return whether to answer in English (latin letters and no Chinese character)."""
    return not CJK_RE.search(message or "") and bool(re.search(r"[A-Za-z]", message or ""))


# --- Activity types, vibes, places ------------------------------------------------------

# Words in a message -> the activity type of the activities app (its demo types). English words
# are whole words that no other word holds ("run" is in "brunch", "art" in "party": left out),
# as the lexicon matches anywhere in the message.
TYPE_WORDS: dict[str, tuple[str, ...]] = {
    "美食": ("美食", "吃饭", "探店", "火锅", "烧烤", "聚餐", "餐厅", "咖啡", "下午茶", "好吃")
    + ("dinner", "brunch", "hotpot", "bbq", "restaurant", "foodie", "food"),
    "户外": ("户外", "爬山", "徒步", "露营", "野餐", "骑行", "郊游")
    + ("hiking", "hike", "camping", "picnic", "cycling", "outdoors", "walking"),
    "运动": ("运动", "跑步", "羽毛球", "篮球", "足球", "网球", "健身", "瑜伽", "攀岩", "飞盘")
    + ("badminton", "basketball", "football", "soccer", "tennis", "yoga", "climbing", "frisbee")
    + ("bouldering", "running", "run club", "gym", "volleyball", "pickleball", "table tennis"),
    "水上": ("游泳", "冲浪", "划船", "皮划艇", "潜水", "玩水", "桨板")
    + ("swimming", "surfing", "kayak", "paddleboard", "diving", "rowing"),
    "音乐": ("音乐", "live", "演出", "乐队", "唱歌", "K歌", "音乐会", "爵士")
    + ("concert", "karaoke", "jazz", "gig"),
    "桌游": ("桌游", "剧本杀", "狼人杀", "密室", "board game", "escape room", "werewolf"),
    "读书": ("读书", "书店", "阅读", "读书会", "book club", "reading"),
    "冥想": ("冥想", "静心", "疗愈", "正念", "meditation", "mindfulness"),
    "手工": ("手工", "手作", "陶艺", "编织", "木工", "pottery", "knitting", "woodwork"),
    "艺术": ("艺术", "画画", "展览", "看展", "美术", "摄影")
    + ("painting", "exhibition", "gallery", "photography"),
    "亲子": ("亲子", "小朋友", "孩子", "遛娃", "儿童"),
    "学习": ("学习", "课程", "讲座", "外语", "编程", "英语", "lecture", "coding"),
    "商务": ("商务", "创业", "行业", "职场", "startup", "networking"),
    "志愿": ("志愿", "公益", "义工", "volunteer"),
    "社交": ("社交", "交友", "派对", "聚会", "认识新朋友", "party", "make friends"),
}
VIBE_WORDS = ("热闹", "安静", "轻松", "放松", "文艺", "小众", "刺激", "浪漫", "解压", "新手友好")
LEXICON = Lexicon(kinds=TYPE_WORDS, moods={word: (word,) for word in VIBE_WORDS})
DEFAULT_RADIUS_KM = 5.0


def kinds_in(text: str, understood: Understanding | None = None) -> list:
    """Return the kind cues a message names, in order; an English word inside another is none
    ("rowing" in "throwing", "reading" in "spreading": the lexicon matches anywhere)."""
    understood = understood if understood is not None else read(text)
    return [cue for cue in understood.kinds if _stands_alone(text, *cue.span)]


def _stands_alone(text: str, start: int, end: int) -> bool:
    if not text[start:end].isascii():
        return True
    # A plural stands alone too ("board games"); "lives" is a verb, not live music.
    if text[end : end + 1].lower() == "s" and text[start:end].lower() not in _NOT_PLURAL:
        end += 1
    return not _LATIN_RE.match(text[start - 1 : start] or " ") and not _LATIN_RE.match(
        text[end : end + 1] or " "
    )


_LATIN_RE = re.compile(r"[A-Za-z0-9]")
_NOT_PLURAL = frozenset({"live"})


def extract_activity_type(text: str) -> str | None:
    """Return the activity type a message mentions (the one named first)."""
    kinds = kinds_in(text)
    return kinds[0].label if kinds else None


# Words of asking, not of what is asked for. Removed as whole jieba words (precise mode), never
# as substrings: "想找个玩水的地方" is cut 想/找个/玩水/的/地方, so removing 想, 找个 and 地方
# leaves 玩水, where a substring pattern matching 想找 first left "个玩水". Written from the
# former filler pattern and the phrasings of the journeys issue; checked on the cases of
# tests/agent/test_extract_router.py. No labelled set (and no test split) was used to tune it.
_FILLER_TEXT = """
    我 我们 我要 你 想 想要 要 想去 想找 我想 帮 帮我 给 给我 麻烦 请 推荐 推荐一下 介绍
    一下 一些 几个
    一个 一场 一次 个 点 找 找个 找点 找些 找一下 找找 搜 搜搜 看 看看 瞧瞧 有 有没有 没有 有什么
    有啥 什么 啥 哪里 哪儿 哪 去哪 去哪儿 去处 地方 地儿 活动 能 能不能 可以 可以去 去 好玩 好玩儿
    适合 吗 呢 吧 呀 啊 嘛 哦 么 呗 报名 参加 加入 那个 这个 那场 这场
"""
FILLER_WORDS = frozenset(_FILLER_TEXT.split())
# Asking phrases in English (whole words); what remains is what the person wants to do.
_EN_FILLER_RE = re.compile(
    r"\b(?:i'?m\s+|we'?re\s+)?(?:looking\s+for|searching\s+for)\b|"
    r"\b(?:i|we)\s+(?:would\s+like|'d\s+like|want|wanna|need)(?:\s+to)?\b|"
    r"\b(?:can|could)\s+you\b|\b(?:is|are)\s+there\b|\bwhere\s+can\s+(?:i|we)\b|"
    # "find something we could do when she's here" searched "find we could do" (session 53).
    r"\b(?:i|we)\s+(?:could|can|should|might)\s+(?:do|go\s+to|try)\b|\bfind\b|"
    r"\bwhat'?s\s+(?:good|fun|there)\s+to\s+do\b|\bwhat'?s(?:\s+on|\s+happening)?\b|"
    r"\bwhat\s+is\b|\b(?:find|show|give)\s+me\b|"
    r"\b(?:sign\s+me\s+up|book\s+me)(?:\s+(?:for|on|in))?\b|\bjoin\b|"
    r"\b(?:recommend|suggest|please|anything|something|somewhere|some\s+place|a\s+place|"
    r"places?|any|things?\s+to\s+do|to\s+do|go|some|me)\b",
    re.IGNORECASE,
)
_EN_EDGE_RE = re.compile(r"^(?:to|a|an|the|for|of)\b\s*|\s*\b(?:to|for|of|a|an|the)$", re.I)
_PUNCT_RE = re.compile(r"[？?！!，,。.、~～：:；;]")


def _strip_edges(phrase: str) -> str:
    """Return a phrase without 的 and English particles left at either end."""
    previous = None
    while phrase != previous:
        previous = phrase
        phrase = _EN_EDGE_RE.sub("", phrase.strip("的 ")).strip()
    return phrase


def semantic_query(text: str, now: datetime | None = None) -> str:
    """Return the part of a message worth embedding: without time, place and asking words.

    The rest of the message (``rag.understand`` took out time and place) is cut into words by
    jieba; asking words (:data:`FILLER_WORDS`) are dropped, each remaining run of words is kept
    as written, and 的 left dangling at a run's ends goes ("玩水的地方" -> "玩水").
    """
    rest = _PUNCT_RE.sub(" ", _EN_FILLER_RE.sub(" ", read(without_greeting(text), now).rest))
    runs: list[str] = []
    current = ""
    for word in cut_as_written(rest):
        if word.strip() and word.strip().lower() not in FILLER_WORDS:
            current += word
            continue
        if word.strip() and current:  # a filler word ends the run; a space only separates
            runs.append(current)
            current = ""
        elif current:
            current += word
    runs.append(current)
    phrases = [p for p in (_strip_edges(run) for run in runs) if p]
    return " ".join(" ".join(phrases).split())


# --- A place in a list --------------------------------------------------------------------

# What may follow a place that names a listed activity: the end, a pause or particle, or what is
# asked or done about it (第二个几点开始, 第一个具体在哪里, 报名第一个, 第一个吧); not 第二个周末,
# 第二场读书会, 第一场雪, 第一次 (the first time), 第二天 (the next day).
_ZH_AFTER = (
    r"(?=$|[\s，,。？?！!~～吧呗呢啊吗呀]|几点|几号|在|什么时候|哪天|怎么样|是|的(?:时间|地点)"
    r"|具体|地址|收费|费用|门票"
    # 第一个适合几岁的孩子 searched again (a make-run look, session 52).
    r"|适合|适不适合|好不好|难不难|远不远|贵不贵|累不累|难吗|远吗|贵吗"
    r"|还有|多少|详细|介绍|报名|参加|取消|退|不|去不了|太|算了|没|也|我|帮|人|要|可以|能|需要"
    # 第一个加到我的日程里: joining it (a make-run look, session 51).
    r"|(?:加|放)(?:到|进))"
)
ZH_PLACE_RE = re.compile(
    r"第\s*([一二两三四五六七八九十]|[1-9])\s*(?:个|条|项|家)?"
    + _ZH_AFTER
    + r"|(最后)(?:一|那|这)?(?:个|条|项)"
    + _ZH_AFTER
)
# "the second one", "the 2nd", "number 2", "option 3", "#1"; not "the first time", "last week",
# "the second half of the month".
EN_PLACE_RE = re.compile(
    r"\b(first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)\s+(?:one|option)\b"
    r"|\bthe\s+(first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)\b(?=\s*(?:[?.!,]|$|please))"
    r"|(?:\b(?:number|no\.?|option)\s*|#)([1-9])\b",
    re.IGNORECASE,
)


# --- Notes for a shared context ------------------------------------------------------------

# Asking to write something into the shared context (its notes): the cue, then the note after
# a colon or a comma ("帮我在共享笔记里记一下：周六带伞", "add to our notes: bring umbrellas"),
# or the note between 把 and the cue ("把周六带伞记到上下文里"). Written from the journeys
# issue's phrasings; no labelled set was used.
_NOTEBOOK = r"(?:共享)?(?:上下文|笔记|备忘录?|记事本)"
_NOTEBOOK_EN = r"(?:the\s+|our\s+|my\s+|this\s+)?(?:shared\s+)?(?:context|notes?|notebook)"
NOTE_CUE_RE = re.compile(
    rf"(?:在|往|给)(?:这个|我们的?|共享的?)?{_NOTEBOOK}(?:里|中|上)?"
    rf"(?:记|写|加|添|存|补)(?:一下|一笔|一条|上|下|进去)?|"
    rf"(?:记|写|加|添|存|补)(?:到|在|进)(?:这个|我们的?|共享的?)?{_NOTEBOOK}(?:里|中|上)?|"
    rf"\b(?:add|note|write|put|save|jot)(?:\s+(?:this|that|it|down))?\s+(?:to|in|into|on)\s+"
    rf"{_NOTEBOOK_EN}\b|\badd\s+a\s+note(?:\s+(?:to|in)\s+{_NOTEBOOK_EN})?",
    re.IGNORECASE,
)
_NOTE_BEFORE_RE = re.compile(r"把(.+?)$")


def context_note(text: str) -> str | None:
    """Return the note a message asks to add to the shared context, or None if it asks none."""
    match = NOTE_CUE_RE.search(text or "")
    if match is None:
        return None
    after = re.sub(r"^[\s：:，,\-—]*(?:that\s+)?", "", text[match.end() :], flags=re.I).strip()
    if after:
        return after
    before = _NOTE_BEFORE_RE.search(text[: match.start()])
    note = (before.group(1) if before else text[: match.start()]).strip(" ，,：:")
    return note or None


# Asking to be remembered: 帮我记一下, 记住, 别忘了我..., "remember that I ...". A statement for
# memory (router CHAT), answered by saying back what was kept (offline_recall.compose_chat).
REMEMBER_RE = re.compile(
    r"(?:帮我|请|你要|给我)?记住(?!了)|(?:帮我)?记一下|记下(?:来|我)(?!了)|别忘了我"
    r"|(?<!n't )(?<!not )(?<!cannot )(?<!i )\bremember (?:that )?(?:i|my)\b",
    re.IGNORECASE,
)


# Coming to see the user ("who is coming to visit?"): news the user told, not a sign-up.
VISITING = r"(?:to visit|over|to stay|to town)"
# A question, which sets nothing and keeps nothing (有8个人吗？, 这个地方在哪里, 是不是很远, 记住了
# 吗？): draft_fields.sets_draft_field, offline_recall.compose_chat.
QUESTION_RE = re.compile(r"[?？]\s*$|[吗呢]\W*$|哪|什么|是不是")
# Asking what one told the assistant (answered from memory, offline_recall.is_recall; the
# router's CHAT): "what did I tell you about…", "what's my name?", "… again?".
RECALL_EN_RE = re.compile(
    r"\bwhat (?:did|have) i (?:tell|told|say|said|mention)|\bdid i (?:tell|say|mention)"
    r"|\b(?:do you )?remember what i\b|\bdo you remember\b|\bwhat do you remember about"
    r"|\bwhat(?:['’]?s| is) my name\s*\??\s*$|\bdo you know my name\b|\bwho am i\s*\??\s*$"
    # "again" asks to be reminded of a fact ("what am I allergic to again?"), not when or where
    # one's activity is ("when is my frisbee game again?": the activity list answers that).
    r"|\b(?:what(?:['’]?s)?(?!\s+time)|who)\b[^.!?]{0,40}\b(?:i|my|me)\b[^.!?]{0,40}\bagain\s*\??\s*$"
    # ... and about someone or something else, not when one's activity starts ("when is Mia
    # coming again?"; not "when does the hike start again?"); a visitor ("who is coming to
    # visit?") is news the user told, not a sign-up (a make-run look, session 46).
    r"|\b(?:when|where|who)\b(?![^.!?]*\b(?:my|start|starts|begin|begins|open|opens|close"
    r"|closes|meet|meeting|it|that|this|the|we|our|deadline)\b)[^.!?]{0,40}\bagain\s*\??\s*$"
    rf"|\bwho(?:['’]?s| is) (?:coming|visiting) {VISITING}\b"
    r"|\bwho(?:['’]?s| is) visiting(?: me| us)?\s*\??\s*$"
    r"|谁[^，,。？?]{0,6}来看我(?!的)"
    # What was said earlier in the chat ("remind me, what's the name of the park we talked
    # about?" drafted an activity: an audit, session 51).
    # Only asked ("what's the park we talked about?"), not told before a request ("I talked about
    # hiking with my friend, any hikes?") nor "remind me what time it starts" (an audit, 52).
    r"|\b(?:what|which|who|where)\b[^.!?]{0,60}\b(?:we|i|you)(?: (?:have|had))? "
    r"(?:talked|spoke|chatted|were talking) about\b"
    r"|\b(?:did|do) (?:we|i) (?:talk|speak|chat) about\b",
    re.I,
)
# Someone close, named by how they are related ("my daughter", 我女儿).
CLOSE_PERSON_EN = (
    r"(?:my|our) (?:little |big |older |younger )?(?P<relation_en>sister|brother|mum|mom|mother"
    r"|dad|father|wife|husband|partner|son|daughter|friend|boyfriend|girlfriend|kids?|nan|nana"
    r"|grandma|grandpa|aunt|uncle|cousin|flatmate|roommate|colleague|boss)\b"
)
CLOSE_PERSON_ZH = (
    r"我(?:的)?(?P<relation_zh>妈妈?|爸爸?|老婆|老公|妹妹?|姐姐?|哥哥?|弟弟?|儿子|女儿|孩子|闺女|朋友"
    r"|男朋友|女朋友|奶奶|爷爷|姥姥|姥爷|外婆|外公|室友|同事|老板)"
)
# News about someone close, told ("my sister Mia is visiting next weekend, she loves climbing",
# 我妹妹下周来玩，她喜欢攀岩): something to remember, not a request to find company or to
# manage anything (a make-run look, session 47: both went by the examples alone).
TOLD_ABOUT_SOMEONE_RE = re.compile(
    r"^\s*" + CLOSE_PERSON_EN + r"(?:\s+[A-Z]\w+)?"
    r"\s+(?:is|are|was|has|loves|likes|hates|just|got|can't|cannot)\b"
    r"(?![^?]*(?:\?|\b(?:any|anything|something|find|looking for|recommend|suggest|what can"
    r"|where|ideas?|help me)\b))"
    r"|^\s*" + CLOSE_PERSON_ZH + r"(?!的活动)"
    r"(?![^？?]*(?:有什么|有没有|有啥|帮我|推荐|找个|找点|哪里|哪儿|去哪|适合))"
    # Their diet too (我老婆吃素 recorded a search for company: an audit, session 55).
    r"[^？?吗呢]*(?:喜欢|爱|讨厌|不吃|过敏|要来|来玩|来看我|下周来|生日|吃素|吃斋|素食|忌口|不能吃)"
    r"[^？?吗呢]*$",
    re.I,
)


# Not able to make it, however the apostrophe is typed (’ on phones) or left out: "I can't
# make the board games night", "cant make it", "won't be able to make the hike". Backing out
# (router MANAGE, the cancel planners), never a request to make (organise) one.
CANT_MAKE = (
    r"\b(?:can['’]?t|cannot|can not|couldn['’]?t|won['’]?t be able to) make "
    r"(?:it|the|that|this|my)\b"
)


# Asking how one's search for company goes (有人匹配上了吗, 找到搭子了吗, "any matches yet?"):
# the open searches are read, not one more recorded (a make-run look, session 47).
PARTNER_STATUS_RE = re.compile(
    r"(?:有人|搭子)(?:跟我)?匹配(?:上|到)?了?(?:吗|没|么)|匹配(?:上|到)(?:人|搭子)了?(?:吗|没|么)"
    r"|(?:找|约)到(?:搭子|人|伙伴)了?(?:吗|没)|有搭子了?(?:吗|没)|搭子(?:的)?(?:进展|怎么样了)"
    # With what is asked of it between (我的搭子请求怎么样了, 搭子找得咋样了) it recorded another
    # search (a make-run look, session 55).
    r"|搭子(?:的)?(?:请求|需求|搜索)(?:的)?(?:进展|怎么样|咋样|如何)|搭子找得(?:怎么样|咋样|如何)"
    r"|\bhow(?:'s| is| are) my (?:partner|buddy) (?:search|searches|request|requests)\b"
    # News of a search asked in other words (帮我找的球友有消息了吗, 搭子有着落了吗,
    # 找搭子的事怎么样了, "any luck finding me a tennis buddy?", "did anyone reply to my partner
    # request?"):
    # each recorded another search (session 55's audit).
    r"|(?:搭子|球友|伙伴|队友|饭友|驴友)[^，,。；;]{0,8}?(?:有|的)?(?:消息|着落|进展|回应|回复|回音|结果)"
    r"(?:了)?(?:吗|没|么|没有)"
    r"|找(?:搭子|球友|伙伴|队友)的事[^，,。]{0,4}(?:怎么样|咋样|如何)"
    r"|\bany (?:luck|update|news)\b[^.?!]{0,30}\b(?:partner|buddy|search|request)"
    r"|\b(?:did|has) (?:anyone|anybody|someone) (?:reply|replied|respond|responded|answer|answered)"
    r"\b[^.?!]{0,30}\b(?:partner|buddy|request|search)"
    r"|\bhow(?:'s| is) my search for\b"
    r"|^\W*any matches(?: yet| for me)?\W*$|\bany (?:matches|luck) (?:yet|for me)\b"
    # "any luck?" alone: the one search the assistant runs for the user in the background (it
    # searched activities for "luck": a make-run look, session 52).
    r"|^\W*(?:so\W+|and\W+)?any luck\W*$"
    # 有人了吗 alone, the same question in Chinese (it recorded a search for "一起活动的搭子": a
    # make-run look, session 53).
    r"|^\W*(?:那|现在|所以)?(?:有人了|有消息了|有结果了|有回音了|找着了)(?:吗|没|么|没有)\W*$"
    r"|\b(?:found|find) (?:me )?(?:anyone|anybody|someone) yet\b"
    r"|\bmatched (?:me )?(?:with )?(?:anyone|anybody|someone)\b"
    # Asking which searches are open (我都找了哪些搭子 recorded another search: a make-run look,
    # session 51).
    r"|(?:我|我都|我现在)(?:在)?找了?(?:哪些|几个|什么)(?:搭子|伙伴|队友)|我的搭子(?:请求|需求)?(?:有哪些|呢)"
    r"|\b(?:what|which) (?:partner|buddy) (?:searches|requests)\b"
    # "how are my searches for company going?" recorded another (an audit, session 54).
    r"|\bmy (?:searches|search|requests?) for (?:company|a partner|partners|a buddy)\b"
    # Only asked about: "my buddy requests were annoying, find me a quiet cafe event" is a
    # search (an audit, session 51).
    r"|\b(?:show|list|see|check|what are|how are) (?:me )?my (?:partner|buddy) "
    r"(?:searches|requests)\b"
    r"|^\W*(?:and |so )?my (?:partner|buddy) (?:searches|requests)\W*$"
    r"|\bwho am i (?:looking for|searching for)\b",
    re.IGNORECASE,
)
# Asking to stop a search for company (不用再帮我找搭子了, 羽毛球搭子不找了, "stop looking for a
# tennis partner", "cancel my badminton search"): the open one is closed, not one more recorded
# nor an activity cancelled (a make-run look, session 49: it listed activities to cancel).
PARTNER_STOP_RE = re.compile(
    r"不(?:用|要|想|必)再?(?:帮我)?找[^，,。？?]{0,6}?(?:搭子|人|伙伴|队友|球友)了?"
    r"|(?:搭子|伙伴|队友|球友)(?:先)?不(?:用)?找了|不找(?:搭子|人|伙伴)了"
    r"|(?:取消|停止|停掉|别再?)(?:帮我)?找[^，,。？?]{0,6}?(?:搭子|人|伙伴|队友|球友)"
    r"|(?:取消|关掉|关闭|停掉)[^，,。？?]{0,8}搭子"
    r"|\bstop (?:looking|searching) for (?:a |an |my |some )?(?:\w+ ){0,2}"
    r"(?:partners?|buddy|buddies|company|someone|somebody|people|mates?)\b"
    r"|\bno longer (?:need|looking for|want) (?:a |any )?"
    r"(?:company|partner|buddy|\w+ (?:partner|buddy))"
    r"|\bcancel (?:my )?(?:\w+ )?(?:search|partner search|buddy search|partner request)\b",
    re.IGNORECASE,
)
# A bare stop that names nothing (不找了，帮我停掉, 算了停掉吧, "ok stop looking", "never mind,
# cancel it"): said in a chat whose last turn was about the search for company, it stops that
# search (a make-run look, session 50: it listed the user's activities to cancel).
_BARE_STOP_VERB_RE = re.compile(
    r"不找|别找|不用找|不用再找|停|取消|关掉|关闭|不要了|\b(?:stop|cancel|forget)\b", re.I
)
_BARE_STOP_FILLER_RE = re.compile(
    r"算了|好吧|好的|那|嗯|就|帮我|给我|吧|了|不找|别找|不用|再|找|不要|停掉|停止|停|取消|关掉|关闭|掉"
    r"|它|先|呗|啊|呀"
    r"|\b(?:ok|okay|never|mind|stop|cancel|forget|it|that|this|please|looking|searching|no"
    r"|thanks|actually|just|about|then)\b|[\W_]",
    re.I,
)


# Saying not to stop, or asking whether to (不要停, 不用停, 不要关掉, "stop?"): no stop (an audit,
# session 50: each closed the search for company).
_NOT_STOPPING_RE = re.compile(r"(?:不要|不用|别|没)(?:帮我)?(?:停|取消|关)|[?？]")


def stops_bare(text: str) -> bool:
    """Return whether the message only says to stop (不找了，帮我停掉, "never mind, stop it"),
    naming nothing to stop."""
    text = text or ""
    if _NOT_STOPPING_RE.search(text):
        return False
    return bool(_BARE_STOP_VERB_RE.search(text)) and not _BARE_STOP_FILLER_RE.sub("", text)


def stops_partner_search(text: str, *, after_partner: bool) -> bool:
    """Return whether the message stops a search for company: one it names, or a bare stop
    right after a turn about the search (``after_partner``)."""
    return bool(PARTNER_STOP_RE.search(text or "")) or (after_partner and stops_bare(text))
