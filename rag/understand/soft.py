"""A time phrase that says when the person feels something, or what kind of outing they want,
rather than when to search: read by the grammar around it.

「今天有点丧，想吃点甜的」: 今天 is the time of the feeling (有点丧), the request (想吃点甜的)
names no time. 「最近压力好大，晚上老睡不着」: 最近 is "lately", 晚上老睡不着 a habit (every
night). 「想疯一把 通宵那种」: 通宵那种 is a kind of night out ("the all-night kind").
「适合上班族午休去的」: something suitable for a lunch break, any day. "feeling creative
today", "need a laugh after this week" (the week behind the person).

Such a phrase keeps its window but is *soft* (``TimePhrase.soft`` says why): a search ranks by
closeness to it instead of narrowing to it (activities: ``rag.understand.apply.decide_time``),
so rows in the window come first among rows of similar meaning and a row outside it says so.
The words are general usage (degree adverbs, the subjects of a state, habitual adverbs, the
words of a kind, of suitability), not any query set's wording; docs/RELEVANCE.md (issue 30,
session 40) says which development queries were read before they were written.
"""

from __future__ import annotations

import re

# --- Chinese: read in the clause of the phrase ---------------------------------------------------

# What ends a clause. A space does too in Chinese ("想疯一把 通宵那种").
_ZH_BREAK = frozenset("，。,.!！?？;；、~～…")
# The person as a subject between the time and its predicate (今天我有点累, 今天整个人好丧).
_ZH_SUBJECT = r"(?:我们|我|人|整个人|自己)?"
# A state right after the time: a degree adverb (有点, 好, 很, 太, 超, 特别 ...; not 好玩 / 好多 /
# 很多, which say what or how many, nor 很想 / 好想 / 特别想去, a wish that says when: 今晚很想去
# 看电影), the subject of a state (心情, 压力, 状态 ...), a verb of
# feeling (感觉, 觉得), a desire made the whole of the day (就想, 只想), or a common word of feeling
# standing alone (失眠, 焦虑, emo, 累 ...).
_ZH_STATE = re.compile(
    _ZH_SUBJECT
    + r"(?:有点儿?|有些|好(?![玩看吃听去耍多几像处地些的点想要])|很(?![多想要])|太(?![多想要])"
    r"|超(?!级?[市想要])级?|(?:特别|非常|挺|蛮|巨|贼)(?![想要])"
    r"|真的?(?=[很太]?[有是]|[好很太](?![想要]))"
    r"|心情|情绪|状态|压力|精神|心里|脑子|身体|感觉|觉得"
    r"|就想|只想|就是想|失眠|焦虑|郁闷|无聊|烦|累|丧|emo|难过|低落|崩溃|孤单|寂寞)",
    re.I,
)
# A habit: 老是 / 总是 / 经常 ... after the time (晚上老睡不着, 周末总是宅在家): every such time;
# 老 / 总 alone only before a verb (老孙家, 老地方 are names).
_ZH_HABIT = re.compile(
    _ZH_SUBJECT + r"(?:老是|总是|经常|常常|一直|每次|每回|(?:老|总)(?=[不没睡失想觉要会爱在]))"
)
# A kind: the time then 那种 / 这种 / 那类 ... (通宵那种: "the all-night kind").
_ZH_KIND = re.compile(r"的?(?:那种|这种|那类|这类|之类|类型|风格)")
# Suitability, for a part of the day without a day: 适合 / 适宜 / 合适 before it, or can-go
# (可以去的, 能去嘅) after it: something that suits that part of any day.
_ZH_SUITS_BEFORE = re.compile(r"适合|适宜|合适")
_ZH_SUITS_AFTER = re.compile(r"(?:可以|能|方便)去?[的嘅]")
# A length: a part of the day without a day, counted as one whole (玩一下午, 嗨一晚上, 一整晚,
# 整个下午): how long the outing lasts, a kind of outing like 通宵那种, not which day's part.
# General grammar of Chinese measure phrases (issue 30, session 41, written after fresh9's
# 「想嗨一晚上 不回屋的」 had been seen: development data).
# 一 is the count only where it ends no other word: 周一 / 星期一 / 礼拜一 (a weekday), 初一 / 十一
# / 第一 (a date, an order), 统一 / 唯一 / 同一 / 万一 / 之一 (words) name which day's part or
# none, so 每周一晚上的课, 统一下午出发, 初一晚上 stay filters (audit, session 41).
_ZH_LENGTH = re.compile(r"(?:一整个?|整整一个?|(?<![周期拜初第十廿统唯同万之单专逐合])一|整个?)$")
# A length said to be free (整个下午都行, 一下午都有空: any time in it suits) says when, as a
# day does: the clause's 都 + can-do after it (audit, session 41).
_ZH_AVAILABLE = re.compile(r"都(?:行|可以|有空|有时间|方便|ok|OK|能去|没问题)")

# The end of the working day with no day said (下班有啥, 在光谷上班 下班后有么活动, 放工有咩):
# the person's working days, a habit, not this evening; as the English "after work" said alone
# is read as no time at all. Every development query with such a bare 下班 (fresh5, fresh9,
# fresh19, fresh23) is labelled without a window, and filtering to this evening answered
# fresh23's 「在数博大道上班的程序员 下班有啥」 with none of its rows (session 53).
# This one occasion, not the habit: waited for or near (等到下班后再去, 等我下班, 刚下班, 快下班了,
# 待会下班), done (下班了), or with a day said elsewhere in the query (这周五，下班后去哪; 今天
# 加班，下班后有什么): an audit, session 53.
_ZH_AFTER_WORK = re.compile(r"^(?:下班|下了班|收工|放工|下工)")
_ZH_OCCASION_BEFORE = re.compile(
    r"(?:等(?:到|着|我|会儿?|下)?|刚|刚刚|快|快要|马上|就要|待会儿?|一会儿?|回头)$"
)
_ZH_DAY_SAID = re.compile(
    r"[今明昨]|后天|周[一二三四五六日天末]|星期|礼拜|[0-9一二三四五六七八九十]+[号日]|\d+月|这周|下周"
)

# --- English ------------------------------------------------------------------------------------

_EN_BREAK = re.compile(r"[,.;!?\n]")
# A feeling in the clause before the time ("feeling creative today", "i feel flat tonight",
# "in a silly mood today"); not a wish ("i feel like dancing tonight", "in the mood for a walk
# tonight", "fancy a drink tonight"), which says when.
_EN_STATE = re.compile(r"\b(?:(?:feel|feeling|feels|felt)(?!\s+like\b)|mood(?!\s+for\b)|moody)\b")
# "after" a period the person is in: the week, the day behind them ("need a laugh after this
# week", "a drink after today").
_EN_AFTER = re.compile(r"\bafter\s+$")
_EN_CURRENT = re.compile(r"^(?:this\s+week|today|the\s+week|this\s+month)$")


def soft_reason(text: str, span: tuple[int, int], kind: str) -> str | None:
    """Return why the time phrase at ``span`` of ``text`` is soft ("state", "habit", "kind",
    "suits"), or None when it says when to search."""
    words = text[span[0] : span[1]].lower()
    if words.isascii():
        return _english(text.lower(), span, words)
    start = span[0]
    while start > 0 and not _breaks(text[start - 1]):
        start -= 1
    end = span[1]
    while end < len(text) and not _breaks(text[end]):
        end += 1
    before, after = text[start : span[0]], text[span[1] : end]
    if (
        kind == "part"
        and _ZH_AFTER_WORK.match(words)
        and not _ZH_OCCASION_BEFORE.search(before)
        and not after.startswith("了")
        and not words.endswith("了")
        and not _ZH_DAY_SAID.search(text)
    ):
        return "habit"
    if _ZH_STATE.match(after):
        return "state"
    if _ZH_HABIT.match(after):
        return "habit"
    if _ZH_KIND.match(after):
        return "kind"
    if kind == "part" and (_ZH_SUITS_BEFORE.search(before) or _ZH_SUITS_AFTER.search(after)):
        return "suits"
    if kind == "part" and _ZH_LENGTH.search(before) and not _ZH_AVAILABLE.match(after):
        return "kind"
    return None


def _breaks(char: str) -> bool:
    return char in _ZH_BREAK or char.isspace()


def _english(text: str, span: tuple[int, int], words: str) -> str | None:
    clause_start = max((m.end() for m in _EN_BREAK.finditer(text, 0, span[0])), default=0)
    before = text[clause_start : span[0]]
    if _EN_AFTER.search(before) and _EN_CURRENT.match(" ".join(words.split())):
        return "state"
    if _EN_STATE.search(before):
        return "state"
    return None
