"""The words of time: day and month names, parts of the day, and their patterns (numbers:
``rag.understand.numbers``).

Tables and compiled patterns only; ``rag.understand.scan`` reads them. The meaning of every
phrase is documented in the ``rag.understand`` docstring and docs/QUERY_UNDERSTANDING.md.
"""

from __future__ import annotations

import re
from datetime import timedelta

from rag.understand import regional
from rag.understand.parts import PART_WORDS, PART_WORDS_AFTER_DAY, PARTS_OF_DAY

# --- the lexicon of time words -----------------------------------------------------------------

# Parts of the day (their hours and other words): rag/understand/parts.py.

ZH_DAY_OFFSETS = {"今天": 0, "今日": 0, "今儿": 0, "明天": 1, "明日": 1, "明儿": 1, "后天": 2}
ZH_DAY_OFFSETS.update({"大后天": 3, "昨天": -1, "昨日": -1, "昨儿": -1, "前天": -2, "大前天": -3})
ZH_DAY_PARTS = {"今晚": (0, "晚上"), "今夜": (0, "晚上"), "明晚": (1, "晚上"), "明夜": (1, "晚上")}
ZH_DAY_PARTS.update({"昨晚": (-1, "晚上"), "昨夜": (-1, "晚上"), "今早": (0, "早上")})
ZH_DAY_PARTS.update({"明早": (1, "早上"), "昨早": (-1, "早上"), "今晨": (0, "早上")})
ZH_DAY_PARTS.update({"明晨": (1, "早上")})
# The regional and colloquial varieties' days (听日, 后儿, 今朝, 听朝 ...): regional.py.
ZH_DAY_OFFSETS.update(regional.DAY_OFFSETS)
ZH_DAY_PARTS.update(regional.DAY_PARTS)
ZH_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
ZH_WEEKDAYS.update({str(i): i - 1 for i in range(1, 8)})
# 下 / 上 / 这 prefixes -> week offset (None: no prefix, the phrase repeats every week).
ZH_WEEK_PREFIX = {"下下": 2, "下": 1, "上上": -2, "上": -1, "这": 0, "本": 0}
ZH_WEEK_PREFIX.update(dict.fromkeys(regional.THIS_WITH_GE, 0))  # 呢个礼拜, 今个月 (Cantonese)

# The next few days (这两天, 这几天: today and the two after) -> (first day, days).
NEAR_DAYS = {"今明": (0, 2), "明后": (1, 2)}
EN_DAY_OFFSETS = {"today": (0, None), "tonight": (0, "evening"), "tomorrow": (1, None)}
EN_DAY_OFFSETS.update({"yesterday": (-1, None), "last night": (-1, "evening")})
EN_DAY_OFFSETS.update({"the day after tomorrow": (2, None), "the day before yesterday": (-2, None)})
EN_DAY_OFFSETS.update({"this morning": (0, "morning"), "this afternoon": (0, "afternoon")})
EN_DAY_OFFSETS.update({"this evening": (0, "evening")})
# Informal and texting spellings of the same days (general English usage, not any query set).
EN_DAY_OFFSETS.update(dict.fromkeys(("tonite", "2nite", "2night"), (0, "evening")))
_TOMORROW = ("tmrw", "tmr", "tmrow", "tmoro", "tomoz", "2moro", "2morrow", "tomorow", "tommorow")
EN_DAY_OFFSETS.update(dict.fromkeys((*_TOMORROW, "tommorrow"), (1, None)))
EN_DAY_OFFSETS.update({"this arvo": (0, "afternoon"), "this morn": (0, "morning")})
EN_DAY_OFFSETS.update(regional.EN_DAY_OFFSETS)
EN_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# Short forms of weekdays -> index. sat, sun, mon and wed are also words ("I sat", "the sun"):
# they name a day only after on / this / next / last / coming or before a part of the day or a
# clock time ("sat nite", "sun 2pm"); the others are a day anywhere ("fri drinks").
EN_WEEKDAY_SHORT = {"tue": 1, "tues": 1, "weds": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4}
EN_WEEKDAY_AMBIGUOUS = {"mon": 0, "wed": 2, "sat": 5, "sun": 6}


def weekday_index(word: str) -> int:
    """Return the weekday (Monday 0) an English day name or short form names."""
    word = word.rstrip(".")
    if word in EN_WEEKDAYS:
        return EN_WEEKDAYS.index(word)
    return EN_WEEKDAY_SHORT.get(word, EN_WEEKDAY_AMBIGUOUS.get(word, 0))


EN_MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
# Month names that are also common words: read only with a cue ("in May", "last March").
EN_AMBIGUOUS_MONTHS = frozenset({"may", "march"})
# Short month names, read only beside a day of the month ("dec 5", "5 Sept", "Nov. 30th"),
# where they cannot be other words.
EN_MONTH_SHORT = {name[:3]: i + 1 for i, name in enumerate(EN_MONTHS) if len(name) > 3}
EN_MONTH_SHORT["sept"] = 9


def month_number(name: str) -> int:
    """Return the month (1-12) an English month name or short name names."""
    return EN_MONTHS.index(name) + 1 if name in EN_MONTHS else EN_MONTH_SHORT[name]


# Parts of a month -> (first day, last day); negative counts from the month's end.
MONTH_PARTS = {"初": (1, 10), "上旬": (1, 10), "中": (11, 20), "中旬": (11, 20)}
MONTH_PARTS.update({"下旬": (21, -1), "底": (-7, -1), "末": (-7, -1)})
MONTH_PARTS.update({"early": (1, 10), "beginning": (1, 10), "start": (1, 10), "mid": (11, 20)})
MONTH_PARTS.update({"late": (21, -1), "end": (-7, -1)})

RECENT_PAST = timedelta(days=30)
RECENT_FUTURE = timedelta(days=14)
MAX_ROLLING_DAYS = 366
MAX_DISTANCE = timedelta(days=366 * 10 + 3)  # windows further from now are not understood
CLOCK_WINDOW = timedelta(hours=1)

# --- patterns ----------------------------------------------------------------------------------

# A small number in digits or in Chinese numerals (read by ``numbers.cn_number``), never the
# two mixed, and never the end of a longer number of its own script: a Chinese numeral before
# digits is another word's (周六8点 is Saturday at 8, 周六12月5日 Saturday 5 December).
_CN_NUMERALS = "零〇一二两三四五六七八九十"
# Digits after a Chinese numeral are no number of their own either (十1点, 三十1号, 第二12号),
# but for the numeral of a weekday (周六8点, 星期六12点, 礼拜一3点): audit, session 42.
NUMERAL = (
    rf"(?:(?<![0-9])(?:(?<![{_CN_NUMERALS}])|(?<=[周期拜][{_CN_NUMERALS}]))[0-9]{{1,3}}"
    rf"|(?<![{_CN_NUMERALS}])[{_CN_NUMERALS}]{{1,3}})"
)
# A year written in digits, not the end of a longer number.
_ZH_YEARS = r"去年|今年|明年|前年|(?<![0-9])(?:19|20)\d\d年"
# 呢 / 今 ("this" in Cantonese) only with 个: 呢个礼拜, 今个月. 下 after 一 is 一下 ("briefly":
# 订一下周六 is this Saturday).
_ZH_PREFIX = (
    r"((?<!一)下下|上上|(?<!一)下|上|这|本|"
    + "|".join(f"{w}(?=个)" for w in regional.THIS_WITH_GE)
    + r")个?"
)
_EN_WEEKDAY = "|".join(EN_WEEKDAYS)
# Full names and the short forms that are no other word ("fri", "thurs").
_EN_WEEKDAY_OR_SHORT = "|".join([*EN_WEEKDAYS, *sorted(EN_WEEKDAY_SHORT, key=len, reverse=True)])
_EN_MONTH = "|".join(EN_MONTHS)
# A month beside a day of the month: the whole name or its short form, whose dot is read as part
# of the gap before the day ("Dec. 5").
_EN_MONTH_OF_DAY = "|".join((*EN_MONTHS, *sorted(EN_MONTH_SHORT, key=len, reverse=True)))
_EN_ON = r"(?:(?:on|for|by|until|till)\s+)?"


# A word boundary between ASCII letters or digits and anything else (so "今天near me" has one,
# which ``\b`` would not see, Han characters being word characters too).
ASCII_BOUNDARY = r"(?:(?<![a-z0-9])(?=[a-z0-9])|(?<=[a-z0-9])(?![a-z0-9]))"


def rx(pattern: str) -> re.Pattern:
    """Compile ``pattern`` with ``\\b`` read as :data:`ASCII_BOUNDARY`."""
    return re.compile(pattern.replace(r"\b", ASCII_BOUNDARY))


def alternation(words) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


# Atoms of kind "day" (with a date rule), "part" and "clock" combine; the others stand alone.
DAY_PATTERNS = [
    # The regional days only where they are no part of another word (之后儿子, 午后日落).
    (
        "zh_day",
        rx(
            "|".join(
                regional.day_word_pattern(w) for w in sorted(ZH_DAY_OFFSETS, key=len, reverse=True)
            )
        ),
    ),
    # 明早上 / 今晚上 but not before 班: 明早上班之前 is 明早 and 上班之前 (before work), 今晚上班
    # is 今晚 and work (issue 30, session 43).
    ("zh_day_part", rx("(?:" + alternation(ZH_DAY_PARTS) + ")(?<!上(?=班))")),
    # The weekend, also as its two days (周六日), the days off (双休日, 休息日, 节假日: the
    # coming weekend; a public holiday has its own name) and 周末两天.
    (
        "zh_weekend",
        rx(
            r"(?<!每)(?<!每个)(?:" + _ZH_PREFIX + r")?"
            r"(?:周末|(?:周|星期|礼拜)六[日天](?![头里间黑亮])|双休日?|休息日|节假日)(?:两天)?"
        ),
    ),
    # The next few days (这两天, 这几天: today and the two after), 今明两天, 明后两天.
    ("zh_near_days", rx(r"这两天|这几天|这些天|近两天|近几天|今明两?天|明后两?天")),
    # Later today (晚点, 待会儿: before a verb; 航班晚点 is a delay).
    (
        "zh_later",
        rx(
            r"(?:晚点|晚一点|晚些(?:时候)?|待会儿?|等会儿?|等一会儿?|过一会儿?|"
            + alternation(regional.LATER_WORDS)
            + r")(?=(?:再|就|一起|我们|咱们|咱)?(?:去|出去|出门|过去|见|约|来|走|吃|喝|玩|看|聊|逛|"
            + "|".join(("打", "跑", "唱", *regional.LATER_VERBS))
            + r"))"
        ),
    ),
    # Working days (工作日, 平日; weekdays, midweek: Tuesday to Thursday; weeknights: their
    # evenings), this week's while one is left, else next week's.
    ("zh_weekdays", rx(r"(?<!每)(?<!每个)(?:工作日|平日|周中)")),
    (
        "en_weekdays",
        rx(
            r"\b(?:(?:on|during|over)\s+)?(?:(?:the|this)\s+)?"
            r"(weekdays?|week\s*nights?|weeknights?|midweek|mid-week|during\s+the\s+week)\b"
        ),
    ),
    (
        "zh_weekday",
        rx(r"(?<!每)(?<!每个)(?:" + _ZH_PREFIX + r")?(?:周|星期|礼拜)([一二三四五六日天1-7])"),
    ),
    (
        "zh_date",
        rx(
            r"(?:(" + _ZH_YEARS + r"))?(?:(" + NUMERAL + r")月份?)?"
            r"(" + NUMERAL + r")(?:日|号)(?!线|楼|门|馆|厅|房|位|桌|口|机|游|元|件|店|床|车|院|坑)"
        ),
    ),
    (
        "en_day",
        rx(
            r"\b"
            + _EN_ON
            + r"(?:later\s+(?:on\s+)?)?("
            + alternation(EN_DAY_OFFSETS).replace(r"\ ", r"\s+")
            + r")\b"
        ),
    ),
    (
        "en_weekday",
        rx(
            r"\b"
            + _EN_ON
            + r"(?:(this\s+coming|this|coming|next|last)\s+)?("
            + _EN_WEEKDAY_OR_SHORT
            + r")\b\.?"
        ),
    ),
    (
        "en_weekend",
        rx(
            r"\b(?:(?:on|over|for|during|at|by)\s+)?(?:(this\s+coming|this|coming|next|last|the)\s+)?"
            r"(?:weekend|wknd|wkend)\b(?:\s+after\s+next\b)?"
        ),
    ),
    (
        "en_date",
        rx(
            r"\b"
            + _EN_ON
            + r"(?:the\s+)?(?:("
            + _EN_MONTH_OF_DAY
            + r")\.?\s+(\d{1,2})(?:st|nd|rd|th)?"
            r"|(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(" + _EN_MONTH_OF_DAY + r"))"
            # A year after either form ("May 8, 2023", "8 May 2023") is that day, not a yearly one.
            r"(?:,?\s+((?:19|20)\d\d))?\b"
        ),
    ),
]
_PART_NAMES = {*PARTS_OF_DAY, *PART_WORDS}
_ZH_PART_WORDS = {
    w for w in _PART_NAMES if not w.isascii() and len(w) > 1 and "下班" not in w and "下了" not in w
}
# The end of a span is no time to start at: 玩到半夜 ("play till midnight"), 营业至深夜; but
# 等到下班 ("once work is over") is, and so is the time a thing is moved to: 改到晚上7点,
# 挪到, 推迟到, 提前到 (改到晚上7点 read 7点 alone, 07:00; a make-run look, session 50).
_NOT_AN_END = r"(?<!至)(?<!(?<![等改挪推换定调延移迟前])到)"
# "early" alone is a time only right before a day ("early Saturday", "early tomorrow", and the
# day's every spelling: "early tmrw", "early sat", "early this wknd"); elsewhere it says how
# early, not when ("leave early", "I woke up early"). The days' spellings are the lexicon's own
# (EN_DAY_OFFSETS, the weekdays and their short forms), so a spelling added there is read here
# too (issue 30, session 41: "early tmrw morning" was read as the whole morning).
_EARLY_DAYS = "|".join(
    (
        alternation(w for w, (offset, _part) in EN_DAY_OFFSETS.items() if offset >= 0).replace(
            r"\ ", r"\s+"
        ),
        _EN_WEEKDAY,
        alternation({*EN_WEEKDAY_SHORT, *EN_WEEKDAY_AMBIGUOUS}),
        r"(?:this\s+|next\s+|the\s+)?(?:weekend|wknd|wkend)",
    )
)
_NOT_ARRIVING_LATE = "".join(
    f"(?<!{word} )"
    for word in ("running", "run", "be", "been", "being", "am", "'m", "is", "'s", "are", "'re")
    + ("was", "were", "too", "so", "very")
)
# "am" is the morning only where no pronoun follows it: "sat am", "tmrw am pottery", but "on
# friday am i too late", "tomorrow am i able to" are the verb (audit, session 41).
# Nor where what the verb says of its left-out "I" follows ("xmas am so bored", "thanksgiving am
# bored af", "sat am free"): an adjective, a participle, an adverb or "not" (the round's audit,
# session 56). English grammar, not a list of queries.
PRONOUN_AFTER_AM = (
    r"(?:i|you|u|we|he|she|it|they|there|im|i'm|not|so+|too|very|really|just|still|kinda|"
    r"pretty|super|totally|bored|tired|lonely|busy|sick|stuck|alone|broke|hungry|sad|excited|"
    r"keen|going|gonna|looking|feeling|thinking|trying|"
    r"wondering|working|getting|having|staying|hoping)"
)
# Right after a day's name or short form, with a space or a comma between (fixed-width
# lookbehinds, one per word and gap: every weekday's name ends in "day").
_RIGHT_AFTER_A_DAY = (
    "(?:"
    + "|".join(
        rf"(?<={day}{gap})"
        for day in ("day", r"\btomorrow", r"\btmrw", r"\btmr", r"\bsat", r"\bsun", r"\bfri")
        for gap in (" ", ", ", ",")
    )
    + ")"
)
_EN_PART = (
    alternation(w for w in _PART_NAMES if w.isascii() and w not in ("early", "late", "am")).replace(
        r"\ ", r"[\s-]+"
    )
    + r"|am(?!\s+"
    + PRONOUN_AFTER_AM
    + r"\b)|early(?=\s+(?:on\s+)?(?:this\s+|next\s+|coming\s+)?(?:"
    + _EARLY_DAYS
    + r")\b)"
    # Right after a day, "early" closing the clause is that day's early morning ("tomorrow
    # early", "saturday early, anything on?"), as "early tomorrow" is; before a word it says how
    # early ("tomorrow early start", "sat early bird tickets"), and after anything else it is
    # how ("friday drinks but i have to leave early": session 55's audit). Issue 30, session
    # 55, after fresh21's "tomorrow early, something to get me moving" had been seen.
    + r"|"
    + _RIGHT_AFTER_A_DAY
    + r"early(?=\s*(?:$|[,.;:!?]))"
    # "late" before a day and its part is that part's late end ("late on saturday night", "late
    # friday afternoon"), as "early" is its early end; not after a verb of being or of running
    # late ("i'm running late on saturday night", "we'll be late friday night": arriving late).
    # Issue 30, session 55, after fresh7's "late on saturday night, out dancing" had been seen.
    + "|"
    + _NOT_ARRIVING_LATE
    + r"late(?=\s+(?:on\s+)?(?:this\s+|next\s+|coming\s+)?(?:"
    + _EARLY_DAYS
    + r")\s+(?:night|nite|evening|eve|afternoon|arvo|morning)\b)"
)
# Wuhan 过早 (breakfast; rag.understand.regional) is elsewhere "too early": it is breakfast only
# where it cannot be that, not after a word of degree (太, 有点, 有些, 稍, 略: 今天有点过早) and not
# before a sentence-final particle (了, 啦, 吧, 咯: 今天过早了吧 "too early today, isn't it"), 点 /
# 些 ("a bit too early") or 地 (过早地 "prematurely"). General grammar of the word (audit,
# session 41).
_BREAKFAST_NOT_TOO_EARLY = r"(?<![太点些稍略])过早(?![了啦吧咯喽点些地])"
PART_PATTERNS = [
    ("zh_part", rx(_NOT_AN_END + "(?:" + alternation(_ZH_PART_WORDS) + ")")),
    # 下班 but not 上下班 ("commuting"); 晚上下班后 is.
    ("zh_part", rx(_NOT_AN_END + r"(?:(?<!上)|(?<=[晚早]上))(?:下了班|下班(?:以后|之后|后|了)?)")),
    # 早 and 晚 only join a day (周六早, 周五晚八点; PART_JOINED), not in 晚饭 / 晚会 / 晚点 ...;
    # 早 only before a clock time or a pause: after a day it mostly means "early, already"
    # (昨天早跟你说了, 周五早到了).
    (
        "zh_part_short",
        rx(
            _NOT_AN_END + r"(?:早(?=[0-9零〇一二两三四五六七八九十\s,，.。!！?？、;；:：~～]|$)"
            r"|晚(?![上间饭安点些会宴霞年期辈睡了到归熟婚]|餐(?!厅))"
            # 夜 after a day is its night (Cantonese 礼拜五夜 / 听日夜, written Mandarin 周六夜;
            # the Cantonese dictionaries' 夜 "evening"), not where it begins a word (夜市, 夜宵,
            # 夜跑, 夜景, 夜店, 夜场, 夜班, 夜猫子 ...; 夜里 / 夜晚 / 夜间 are parts of their own).
            # Issue 30, session 55, after fresh24's 「礼拜五夜 想饮两杯」 had been seen.
            r"|夜(?![市宵跑景店场游猫班校车戏生光空色话读钓爬骑宴曲里晚间深半以之未归不了泳排啤])"
            r")"
        ),
    ),
    # Parts that are also other words (日头 "the sun", 日里 in 节日里) only join a day.
    (
        "zh_part_after_day",
        rx(
            _NOT_AN_END
            + "(?:"
            + alternation(w for w in PART_WORDS_AFTER_DAY if w != "过早")
            + "|"
            + _BREAKFAST_NOT_TOO_EARLY
            # 餐厅 is a restaurant: 周六晚餐厅 is Saturday evening (晚) and a restaurant.
            + ")(?!厅)"
        ),
    ),
    # English parts only join a day ("Friday night"); alone they stay text ("evening jazz").
    # "lunch" alone is the meal ("what we had for lunch yesterday"), lunchtime the time.
    (
        "en_part",
        rx(r"\b(?:in\s+the\s+|at\s+|during\s+(?:the\s+)?|over\s+)?(" + _EN_PART + r")\b"),
    ),
]
# The short weekday forms that are also words, with what makes them a day: a cue before ("on
# sat", "this sun") or a part of the day or a clock time after ("sat nite", "sun 2pm").
_EN_AMBIGUOUS_DAY = r"(" + alternation(EN_WEEKDAY_AMBIGUOUS) + r")\b\.?"
_EN_WEEKDAY_CUE = r"(?:(this\s+coming|this|coming|next|last)\s+)?"
_EN_CLOCK_AHEAD = r"\d{1,2}(?::\d\d)?\s*[ap]\.?m\b|\d{1,2}:\d\d|at\s+\d{1,2}\b"
# Any weekday's name or short form, and what joins two days into a choice or a run ("sat or
# sun", "sat/sun", "sat & sun", "fri-sun", "sat to mon"). An ambiguous short form is a day beside
# another day so joined: before it (below) or after it (rag.understand.joins.paired_weekday).
EN_ANY_WEEKDAY = _EN_WEEKDAY_OR_SHORT + "|" + alternation(EN_WEEKDAY_AMBIGUOUS)
EN_DAY_JOINER = r"(?:or|and|n|&|/|-|to|thru|through|till|until|,)"
DAY_PATTERNS += [
    # Scots "the night" (tonight), "the morn" / "the morra" (tomorrow): regional.SCOTS_DAYS.
    ("en_scots_day", rx(regional.SCOTS_DAY_PATTERN)),
    (
        "en_weekday",
        rx(r"\b(?=(?:on|this|coming|next|last)\s)" + _EN_ON + _EN_WEEKDAY_CUE + _EN_AMBIGUOUS_DAY),
    ),
    (
        "en_weekday",
        rx(
            # Not "the sun" ("sit in the sun at 4": session 55's audit).
            r"\b(?<!\bthe\s)"
            + _EN_ON
            + _EN_WEEKDAY_CUE
            + _EN_AMBIGUOUS_DAY
            + r"(?=\s*(?:(?:"
            + _EN_PART
            + r")\b|"
            + _EN_CLOCK_AHEAD
            # or a date it labels ("sat dec 5", "sat 5 dec": rag.understand.scan).
            + r"|,?\s*(?:"
            + _EN_MONTH_OF_DAY
            + r")\.?\s+\d|,?\s*\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:"
            + _EN_MONTH_OF_DAY
            + r")\b"
            # or a day of the month or a slash date it labels ("sat the 5th", "sat 12/5").
            + r"|,?\s*(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\b|,?\s*\d{1,2}/\d{1,2}\b"
            # or another day joined to it ("sat or sun", "sat/sun", "sat-mon").
            + r"|\s*"
            + EN_DAY_JOINER
            + r"\s*(?:on\s+)?(?:"
            + EN_ANY_WEEKDAY
            + r")\b))"
        ),
    ),
    # After a joiner ("fri or sat", "sat or sun", "thu/sun"); kept only where a day stands
    # before the joiner (paired_weekday). The empty group stands for the cue of the others.
    (
        "en_weekday",
        rx(
            r"(?:(?<=\bor\s)|(?<=\band\s)|(?<=\bn\s)|(?<=&\s)|(?<=&)|(?<=/)|(?<=/\s)|(?<=-)"
            r"|(?<=-\s)|(?<=,)|(?<=,\s)|(?<=\bto\s)|(?<=\bthru\s)|(?<=\bthrough\s)"
            r"|(?<=\btill\s)|(?<=\buntil\s)|(?<=\bon\s))(?P<paired>)\b" + _EN_AMBIGUOUS_DAY
        ),
    ),
]


# Atoms of a part of the day that are no time alone.
PART_JOINED = frozenset({"en_part", "zh_part_short", "zh_part_after_day"})
STANDALONE_PATTERNS = [
    ("zh_week", rx(_ZH_PREFIX + r"(?:周|星期|礼拜)(?![一二三四五六日天1-7末围边年岁])")),
    ("zh_rel_month", rx(_ZH_PREFIX + r"月(初|中旬|中|底|末|上旬|下旬)?")),
    (
        "zh_month_part",
        rx(r"(?<![0-9零〇一二两三四五六七八九十个本这上下年])月(初|中旬|底|末|上旬|下旬)"),
    ),
    (
        "zh_month",
        rx(
            r"(" + _ZH_YEARS + r")?(" + NUMERAL + r")月份?"
            r"(初|中旬|中|底|末|上旬|下旬)?(?![0-9零〇一二两三四五六七八九十])"
        ),
    ),
    ("zh_year", rx(r"去年|今年|明年|前年|(?<!\d)(?:19|20)\d\d年")),
    ("zh_recent", rx(r"最近|近期|这段时间|这阵子|" + alternation(regional.RECENT_WORDS))),
    (
        "zh_rolling",
        rx(r"(最近|过去|近|未来|接下来)的?(" + NUMERAL + r"|几)个?(天|日|周|星期|礼拜|月)"),
    ),
    # "wk", "wks": the written abbreviation of "week" (the dictionaries' "wk."; Merriam-Webster,
    # Collins), a week only after this/next/last or a count ("next wk", "next 2 wks"), never
    # alone ("wk 3 of training"). Issue 30, session 56, after fresh26's "any gigs next wk".
    (
        "en_week",
        # Not "next wk end" / "wk-end": the weekend written apart (the round's audit).
        rx(
            r"\b(?:(?:for|during|in)\s+)?(?:later\s+)?(this|next|last)\s+"
            r"(?:week|wk(?![\s-]*end\b))\b"
        ),
    ),
    ("en_month", rx(r"\b(?:(?:for|during|in)\s+)?(this|next|last)\s+month\b")),
    ("en_year", rx(r"\b(?:(?:for|during|in)\s+)?(this|next|last)\s+year\b")),
    (
        "en_month_part",
        rx(
            r"\b(?:(?:at|by|towards?|before|in)\s+)?(?:the\s+)?(beginning|start|end)\s+of\s+"
            r"(?:(the|this|next|last)\s+)?month\b"
        ),
    ),
    (
        "en_month_name",
        rx(
            r"\b(?:(in|during|for|of|this|next|last)\s+)?(?:(early|mid|late)[\s-]+)?"
            r"(" + _EN_MONTH + r")(?:\s+((?:19|20)\d\d))?\b"
        ),
    ),
    ("en_recent", rx(r"\b(?:recently|lately|in\s+recent\s+(?:days|weeks))\b")),
    (
        "en_rolling",
        rx(
            r"\b(?:(?:in|over|during|for)\s+)?(?:the\s+)?(past|last|next|coming)\s+"
            r"(\d{1,3}|a\s+few|few|a\s+couple\s+of|couple\s+of|two|three|four|five|six|seven)\s+"
            r"(days?|weeks?|wks?|months?|fortnights?)\b"
        ),
    ),
    ("en_past_unit", rx(r"\b(?:(?:in|over|during)\s+)?the\s+(past)\s+(week|wk|month)\b")),
    # A fortnight: fourteen days from now ("the next fortnight", "this fortnight").
    (
        "en_fortnight",
        rx(r"\b(?:(?:in|over|during|for|within)\s+)?(?:the\s+)?(next|coming|this)\s+fortnight\b"),
    ),
]
GAP_RE = re.compile(r"[\s的]*")

# The cycle of "this Friday": weekly like "Friday", but never read with the next one too
# (rag.understand.time.ENDING_SHARE).
THIS_WEEKDAY = "week:this"
