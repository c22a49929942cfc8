"""Time words of the regional and colloquial varieties of Chinese (and a few of English), and the
one-to-one fold of traditional characters that time words are written in.

Tables only, from general knowledge of each variety (the dictionaries' glosses: 现代汉语词典's
〈方〉 entries, the Cantonese dictionaries' 听日 / 下昼 / 朝早, Shanghainese 今朝 / 下半日 /
夜快), not from any query set; ``rag.understand.words`` and ``rag.understand.parts`` merge them
into their tables, so every pattern reads them as it reads the standard words. Which entries were
added after reading which development queries: docs/RELEVANCE.md (issue 30, session 40).

Left out on purpose, because the word is more often something else: 明朝 (Shanghainese
"tomorrow"; the Ming dynasty), 早起 (northern "morning"; "to get up early"), 拜六 (Hokkien
"Saturday"; 拜 "to worship"), 这排 (Sichuanese "lately"; "this row"), "the day" (Scots "today";
"for the day"). Scots "the night" / "the morn" / "the morra" are read where no preposition
before them and no noun after them makes them an ordinary phrase (``SCOTS_DAY_PATTERN``,
session 50).
"""

from __future__ import annotations

import re

# --- days -----------------------------------------------------------------------------------

# Another word for a day -> days from today.
DAY_OFFSETS: dict[str, int] = {
    # Beijing and Northeastern forms (今儿, 明儿, 昨儿 are read already); 今个 before a week or
    # a month is Cantonese "this" (今个礼拜: THIS_WITH_GE), the longer phrase.
    "今儿个": 0,
    "今个儿": 0,
    "明儿个": 1,
    "明个儿": 1,
    "后儿": 2,
    "后儿个": 2,
    "大后儿": 3,
    "昨儿个": -1,
    "昨个儿": -1,
    "前儿": -2,
    "前儿个": -2,
    "今个": 0,
    "明个": 1,
    "昨个": -1,
    # Cantonese: 听日 (tomorrow), 后日, 琴日 / 寻日 / 噚日 (yesterday), 前日; 今朝 is
    # Shanghainese and literary Mandarin "today" (Cantonese "this morning", inside today too).
    "听日": 1,
    "后日": 2,
    "大后日": 3,
    "琴日": -1,
    "寻日": -1,
    "噚日": -1,
    "前日": -2,
    "今朝": 0,
}
# A day word above is no day where its first character ends another word (之后, 然后, 午后, 之前,
# 如今, 说明 ...) or its last begins one (儿子, 儿童, 日本, 日出, 日落, 个人 ...): 「吃完饭之后儿子
# 想去游泳」, 「之前日本」, 「去山顶寻日出」. Common words of general usage, read by
# ``day_word_pattern``; the standard days (明天, 今儿) are not guarded.
ENDS_A_WORD: dict[str, str] = {
    "后": "之然以最午随背落稍过往此其先事饭课今日前",
    "前": "之以从提目当眼面跟门生事饭课睡日",
    "今": "如至现当古迄",
    "明": "说聪光清表证文发鲜分透声英",
    "昨": "",
}
BEGINS_A_WORD: dict[str, str] = {
    "儿": "子童女孙媳歌科戏",
    "日": "本出落子期常记料式语系光剧元历程晒照",
    "个": "人性子体案",
}


def day_word_pattern(word: str) -> str:
    """Return the pattern of the day word ``word``, guarded as ENDS_A_WORD and BEGINS_A_WORD
    say when it is one of DAY_OFFSETS."""
    pattern = re.escape(word)
    if word not in DAY_OFFSETS:
        return pattern
    if ENDS_A_WORD.get(word[0]):
        pattern = f"(?<![{ENDS_A_WORD[word[0]]}])" + pattern
    if BEGINS_A_WORD.get(word[-1]):
        pattern += f"(?![{BEGINS_A_WORD[word[-1]]}])"
    return pattern


# A day with its part of the day -> (days from today, part): Cantonese 听朝 (tomorrow morning),
# 听晚 (tomorrow night), 今朝早 (this morning), 琴晚 (last night); 今晚黑 (tonight: Cantonese,
# Sichuanese); 今晚上 / 明晚上 / 昨晚上 (northern: the same as 今晚).
DAY_PARTS: dict[str, tuple[int, str]] = {
    "今朝早": (0, "朝早"),
    "听朝": (1, "朝早"),
    "听朝早": (1, "朝早"),
    "听晚": (1, "晚上"),
    "听晚黑": (1, "晚上"),
    "今晚黑": (0, "晚上"),
    "琴晚": (-1, "晚上"),
    "寻晚": (-1, "晚上"),
    "噚晚": (-1, "晚上"),
    "琴朝": (-1, "朝早"),
    "寻朝": (-1, "朝早"),
    "今晚上": (0, "晚上"),
    "明晚上": (1, "晚上"),
    "昨晚上": (-1, "晚上"),
    "今早上": (0, "早上"),
    "明早上": (1, "早上"),
}
# Words for "this" before 个 and a week or a month: Cantonese 呢个礼拜 / 今个礼拜 / 今个月
# (as 这个礼拜 / 这个月). Only with 个 (今 alone is no prefix).
THIS_WITH_GE = ("呢", "今")

# --- parts of the day (names of rag.understand.parts.PARTS_OF_DAY) ----------------------------

PART_WORDS: dict[str, str] = {
    # Cantonese: 朝早 / 朝头早 (morning: the whole of it, 朝早十一点 being 11 a.m.; see
    # parts.PARTS_OF_DAY), 上昼 (morning), 下昼 / 晏昼 (afternoon: the Cantonese dictionaries gloss
    # 晏昼 "afternoon, early afternoon"), 挨晚 (dusk), 晚黑 / 夜晚黑 (night), 返工前 (before
    # work), 收工 / 放工 (after work: 下班).
    "朝头早": "朝早",
    "上昼": "上午",
    "下昼": "下午",
    "晏昼": "下午",
    "挨晚": "傍晚",
    "晚黑": "晚上",
    "夜晚黑": "晚上",
    "返工前": "上班前",
    "返工之前": "上班前",
    "收工": "下班后",
    "放工": "下班后",
    "食晏时间": "中午",
    # Shanghainese and other Wu: 早浪(向) / 早上头 (morning), 上半日 (morning), 中浪(向) / 中午头
    # (noon), 下半日 (afternoon), 夜快(头) (dusk), 夜头 / 夜里向 (night).
    "早浪": "早上",
    "早浪向": "早上",
    "早上头": "早上",
    "上半日": "上午",
    "中浪": "中午",
    "中浪向": "中午",
    "中午头": "中午",
    "下半日": "下午",
    "夜快": "傍晚",
    "夜快头": "傍晚",
    "夜头": "晚上",
    "夜里向": "晚上",
    # Northern and Southwestern (现代汉语词典 〈方〉): 头午 / 头晌 / 前晌 / 上半晌 / 上半天 /
    # 前半天 (morning), 晌午 (noon), 后晌 / 下半晌 / 下半天 / 后半天 (afternoon), 傍黑 / 擦黑 /
    # 挨黑 (dusk), 黑间 (night; 黑下: PART_WORDS_AFTER_DAY), 清早 / 一清早 (early morning),
    # 晚边 (dusk).
    "头午": "上午",
    "头晌": "上午",
    "前晌": "上午",
    "上半晌": "上午",
    "上半天": "上午",
    "前半天": "上午",
    "晌午": "中午",
    "晌午头": "中午",
    "正晌午": "中午",
    "后晌": "下午",
    "下半晌": "下午",
    "下半天": "下午",
    "后半天": "下午",
    "傍黑": "傍晚",
    "傍黑儿": "傍晚",
    "擦黑": "傍晚",
    "擦黑儿": "傍晚",
    "天擦黑": "傍晚",
    "挨黑": "傍晚",
    "晚边": "傍晚",
    "黑间": "晚上",
    "清早": "一早",
    "一清早": "一早",
}
# Parts that are also other words (日头 "the sun", 日里 in 节日里, 黑下 in 天黑下山): a part of
# the day only right after a day (下礼拜六日头, Cantonese "next Saturday, in the daytime";
# 明朝日里, Shanghainese; 明儿黑下, northern "tomorrow night"). 早早 ("early", an adverb) is no
# part of the day.
PART_WORDS_AFTER_DAY: dict[str, str] = {
    "日头": "白天",
    "日里": "白天",
    "日里向": "白天",
    "黑下": "晚上",
    # Wuhan and southwestern 黑了 ("once it is dark": the evening) after a day (今天黑了, 明天黑了);
    # alone it is "it got dark". Session 49, after fresh9's 「今天黑了有么斯好玩的」 had been seen.
    "黑了": "晚上",
    # Northern 黑夜 ("night": 今儿黑夜, 明儿黑夜, Shanxi, Hebei, Shaanxi; 现代汉语词典 has it as
    # 黑夜 "night") after a day; alone it is the dark night of a song or a poem. Session 55, after
    # fresh25's 「今儿黑夜想动一动 出出汗」 (read as all of today) had been seen.
    "黑夜": "晚上",
    # 午后 ("after noon": the afternoon; 现代汉语词典), and northern 晌午后: after a day only, as
    # alone 午后 is as often the mood of a thing (午后阳光, 午后茶会). General knowledge (issue
    # 30, session 41).
    "午后": "下午",
    "晌午后": "下午",
    # Wuhan 过早 ("to have breakfast", the city's word for its morning meal out; elsewhere "too
    # early"): breakfast after a day (礼拜六过早), only where it cannot be "too early"
    # (rag.understand.words: not 今天过早了吧). General knowledge of the variety, written after
    # fresh9's 「礼拜六过早去哪里」 had been seen (development data).
    "过早": "breakfast",
    # 早茶 (Guangdong, Yangzhou: morning tea, dim sum in the morning) is a morning outing by
    # name (周日早茶).
    "早茶": "breakfast",
}
# The Mandarin meals right after a day are its mealtime, as "sunday brunch" and "tuesday lunch"
# are (周二午饭约一个: Tuesday 11-14), and stay in the text the model reads (rag.understand.scan
# meals): 周日晚饭吃什么 keeps 晚饭吃什么 for its meaning and reads when the dinner is. Not 早点
# (also "a bit early": 周六早点出发) nor 夜宵 (a kind of outing, read soft). Session 41 left
# them out while a meal after a day still left the text; issue 30, session 42, after fresh11's
# 「周二午饭约一个」 (labelled 11-14) had been seen. Hours: rag.understand.parts (lunch as
# lunchtime, dinner 17-22, breakfast 6-10).
ZH_MEALS_AFTER_DAY: dict[str, str] = {
    "午饭": "lunchtime",
    "午餐": "lunchtime",
    "中饭": "lunchtime",
    "中午饭": "lunchtime",
    "晚饭": "dinner",
    "晚餐": "dinner",
    "早饭": "breakfast",
    "早餐": "breakfast",
    "早午餐": "brunch",
}
PART_WORDS_AFTER_DAY.update(ZH_MEALS_AFTER_DAY)

# English: the narrower parts of a part of the day (general usage), and informal spellings
# (Australian s'arvo "this afternoon"; texting 2day, tmw).
EN_PARTS_OF_DAY: dict[str, tuple[int, int]] = {
    "mid morning": (9, 12),
    "late morning": (10, 12),
    "early afternoon": (12, 15),
    "mid afternoon": (14, 17),
    "late afternoon": (15, 18),
    "early evening": (17, 20),
}
EN_DAY_OFFSETS: dict[str, tuple[int, str | None]] = {
    "sarvo": (0, "afternoon"),
    "s'arvo": (0, "afternoon"),
    "2day": (0, None),
    "tmw": (1, None),
    "tmrrw": (1, None),
    "2mrw": (1, None),
    # More texting spellings of tomorrow (British tomoz / 2moz, dropped or doubled letters) and
    # this evening / afternoon shortened (general usage, issue 30, session 41).
    "tmoz": (1, None),
    "2moz": (1, None),
    "tomorro": (1, None),
    "tmorrow": (1, None),
    "tomorrw": (1, None),
    "tomoro": (1, None),
    "this eve": (0, "evening"),
    "this aft": (0, "afternoon"),
}

# Scots (and Northern English) days: "the night" is tonight, "the morn" / "the morra" tomorrow
# (the Scots dictionaries' entries). "the night" and "the morn" are also ordinary English ("all
# the night", "in the morn", "the night market", "the night before christmas"): a day only when
# no preposition or verb of duration stands before them and, for "the night", the clause ends
# or a joining word follows. General usage, not fitted on any query set.
SCOTS_DAYS: dict[str, tuple[int, str | None]] = {
    "the night": (0, "evening"),
    "the nicht": (0, "evening"),
    "the morn": (1, None),
    "the morra": (1, None),
    "the morrow": (1, None),
}
_SCOTS_NOT_AFTER = ("all", "through", "thru", "during", "in", "into", "for", "of", "at", "from")
_SCOTS_NOT_AFTER += ("by", "spend", "spent", "enjoy", "til", "till", "until", "whole")
_SCOTS_NIGHT_END = r"(?=\s*(?:$|[,.;:!?)]|(?:and|or|if|wi|with|then|pls|please|eh|aye|at)\b))"
SCOTS_DAY_PATTERN = (
    "".join(rf"(?<!\b{word} )" for word in _SCOTS_NOT_AFTER)
    + r"\b(the\s+(?:(?:night|nicht)"
    + _SCOTS_NIGHT_END
    + r"|morn(?!\s+of\b)(?!ing)|morra|morrow))\b"
)

# --- other words -----------------------------------------------------------------------------

# "Lately, these days": Cantonese 呢排 / 近排, 近来, 这些日子.
RECENT_WORDS = ("呢排", "近排", "近来", "这些日子", "这段日子", "这阵儿", "这一阵子")
# "In a while" before a verb (as 待会儿): Cantonese 阵间 / 一阵间 / 晏啲; Taiwanese 等一下.
LATER_WORDS = ("一阵间", "阵间", "晏啲", "等一下")
# Verbs after "in a while" in Cantonese (食 eat, 饮 drink, 睇 watch, 行 walk, 倾 chat).
LATER_VERBS = ("食", "饮", "睇", "行", "倾")

# Traditional characters of time words and of small talk -> simplified, one character for one, so
# a span read on the folded text is the span of the original (Taiwan, Hong Kong: 週六, 禮拜天,
# 這週末, 下週, 晚上八點, 聽日, 下晝, 聖誕節; 你是誰, 謝謝, 你好嗎). The one table of
# rag.understand: scan, the negation and soft readings (understand) and small_talk read it.
_TRADITIONAL = (
    "週禮這後點鐘號個兩晝聽間節聖誕來幾過陣頭飯學黃時裡裏"
    "淩國慶勞動沒別還與邊尋兒會們見約線樓門館廳車機遊"
    "誰謝麼嗎話說講係樣無囉喲嘍歲"
)
_SIMPLIFIED = (
    "周礼这后点钟号个两昼听间节圣诞来几过阵头饭学黄时里里"
    "凌国庆劳动没别还与边寻儿会们见约线楼门馆厅车机游"
    "谁谢么吗话说讲系样无啰哟喽岁"
)
TRADITIONAL = str.maketrans(_TRADITIONAL, _SIMPLIFIED)
