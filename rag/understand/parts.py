"""Parts of the day: their hours, their other words, and how a clock time reads after them.

Tables only, with where each part's hours come from; ``rag.understand.words`` builds the
patterns that find them and ``rag.understand.time`` reads the hours (:func:`part_hours`).
"""

from __future__ import annotations

from rag.understand import regional

# Part of the day -> (start hour, end hour), end exclusive; past 24 runs into the next day. The
# window is where an activity asked for would START. Where the hours come from:
# - the clock parts (凌晨 ... 深夜, morning ... night) as the dictionary defines them, the
#   evening from 18:00 (docs/QUERY_UNDERSTANDING.md);
# - 一早 / early morning: from first light to the working day's start at 9:00;
# - lunch: the meal's time (午饭时间, lunchtime) 11:00-14:00, like 中午 / noon; the lunch break
#   (午休, "lunch break") is the offices' own: Chinese offices (12:00-13:30/14:00), British and
#   American ones (12:00-14:00), so 12:00-14:00 (session 39: it was 11-14 before);
# - the working day: China's standard office day runs 9:00-18:00 (朝九晚六), so 下班后 is from
#   18:00; the English-speaking "nine to five" ends at 17:00, so "after work" is from 17:00;
#   上班前 / "before work" is 6:00-9:00;
# - school: Chinese primary schools let out at about 16:00-17:00 (放学后 16-20), British and
#   American ones at about 15:00-15:30 ("after school" 15-19); the evening then belongs to 晚上;
# - 通宵 / "all night": an all-night outing starts in the late evening, 20:00-02:00;
# - 白天 / daytime: 6-18, the day without its evening.
# - 早上 / 早晨 (今早, 明早): 5-10, the dictionary's 早晨 "from first light to eight or nine
#   o'clock" (现代汉语词典), an activity starting by 9:xx; 上午 / "morning" run to noon (6-12).
#   Cantonese 朝早 (听朝, 今朝早) is the whole morning, first light to noon (5-12): Cantonese has
#   no separate 上午 in common use and says 朝早十一点 for 11 a.m. (session 40: chosen after
#   reading fresh8's 「周六朝早带小朋友去玩」, whose one relevant Saturday row starts at 10:30).
# - after a meal: 午饭后 / "after lunch" 13-18 (the afternoon once lunch is over), 晚饭后 /
#   "after dinner" 19-24 (the evening once dinner, served from 17-18, is over), 早饭后 8-12 (the
#   morning once breakfast, eaten from 6-7, is over); before one: 早饭前 清晨 5-8, 午饭前 the
#   morning (上午 6-12), 晚饭前 the afternoon (下午 12-18) (MEAL_BOUNDS).
# - 后半夜 / "after midnight" (of a day's night): past midnight, 0-6 of the next day; "the wee
#   hours" / "the small hours" of a day: its own 0-6 (as 凌晨).
# - English meals, read only right after or before a day ("sunday brunch", "dinner on friday"):
#   breakfast 6-10 (before and around the working day's start), brunch 10-14 (the late-morning
#   weekend meal into the early afternoon), lunch as lunchtime, dinner / supper 17-22 (the
#   evening meal, restaurants' dinner service), happy hour 16-19 (bars' early-evening hours).
PARTS_OF_DAY: dict[str, tuple[int, int]] = {
    "凌晨": (0, 6),
    "清晨": (5, 8),
    "一早": (5, 9),
    "上班前": (6, 9),
    "早上": (5, 10),
    "早晨": (5, 10),
    "朝早": (5, 12),
    "上午": (6, 12),
    "白天": (6, 18),
    "中午": (11, 14),
    "午休": (12, 14),
    "午饭后": (13, 18),
    "下午": (12, 18),
    "放学后": (16, 20),
    "傍晚": (17, 19),
    "下班后": (18, 24),
    "晚上": (18, 24),
    "晚间": (18, 24),
    "夜里": (18, 24),
    "夜间": (18, 24),
    "夜晚": (18, 24),
    "晚饭后": (19, 24),
    "通宵": (20, 26),
    "深夜": (22, 26),
    "半夜": (22, 26),
    "午夜": (22, 26),
    "后半夜": (24, 30),
    "early": (5, 9),
    "before work": (6, 9),
    "morning": (6, 12),
    "daytime": (6, 18),
    "noon": (11, 14),
    "midday": (11, 14),
    "lunchtime": (11, 14),
    "lunch break": (12, 14),
    "after lunch": (13, 18),
    "afternoon": (12, 18),
    "after school": (15, 19),
    "after work": (17, 24),
    "evening": (18, 24),
    "night": (18, 24),
    "all night": (20, 26),
    "late night": (22, 26),
    "wee hours": (0, 6),
    "after midnight": (24, 30),
    "after dinner": (19, 24),
    "早饭后": (8, 12),
    "breakfast": (6, 10),
    "brunch": (10, 14),
    "dinner": (17, 22),
    "happy hour": (16, 19),
    "after noon": (12, 24),
    # "late" is a part only before a day and its part, which it narrows (narrowed: "late
    # saturday night" is late night); its own hours, never read alone, are late night's.
    "late": (22, 26),
    # Before noon: the morning, to noon (session 49: it was read as noon, 11-14).
    "before noon": (6, 12),
}
# Meals: parts of the day only right next to a day ("sunday brunch"); a meal elsewhere in the
# query is the meal ("dinner ideas ... on friday" still names the dinner, not when).
MEALS = frozenset({"breakfast", "brunch", "dinner", "happy hour", "lunch", "supper"})
# Other words for a part of the day -> its name above (English ones lowercased, words single-
# spaced, hyphens as spaces).
PART_WORDS: dict[str, str] = {
    "早": "早上",  # 周六早 (only after a day: PART_PATTERNS)
    "晚": "晚上",  # 周五晚
    "夜": "晚上",  # 周五夜, Cantonese 礼拜五夜 (only after a day: PART_PATTERNS)
    "一大早": "一早",
    "大清早": "一早",
    "大早上": "一早",
    "上班之前": "上班前",
    "上班以前": "上班前",
    "午间": "中午",
    "午休时间": "午休",
    "午饭时间": "中午",
    "午餐时间": "中午",
    "午饭时": "中午",
    "午饭的时候": "中午",
    "午休的时候": "午休",
    "午饭以后": "午饭后",
    "午饭之后": "午饭后",
    "午餐后": "午饭后",
    "中午饭后": "午饭后",
    "吃完午饭": "午饭后",
    "吃过午饭": "午饭后",
    "晚饭以后": "晚饭后",
    "晚饭之后": "晚饭后",
    "晚餐后": "晚饭后",
    "晚上饭后": "晚饭后",
    "吃完晚饭": "晚饭后",
    "吃过晚饭": "晚饭后",
    "黄昏": "傍晚",
    "天黑以后": "晚上",
    "天黑之后": "晚上",
    "天黑后": "晚上",
    # Other words for the end of the working day (收工 / 放工 / 下工: knocking off).
    "收工后": "下班后",
    "收工以后": "下班后",
    "收工之后": "下班后",
    "放工后": "下班后",
    "放工以后": "下班后",
    "下工后": "下班后",
    "放学": "放学后",
    "放学以后": "放学后",
    "放学之后": "放学后",
    "下班": "下班后",
    "下了班": "下班后",
    "下班以后": "下班后",
    "下班之后": "下班后",
    "下班了": "下班后",
    "early morning": "early",
    "early in the morning": "early",
    "first thing": "early",
    "mornings": "morning",
    "afternoons": "afternoon",
    "evenings": "evening",
    "nights": "night",
    "during the day": "daytime",
    "lunch time": "lunchtime",
    "lunch hour": "lunch break",
    # "pre-work swim", "post-work drinks" (hyphens read as spaces): the working day's edges
    # (general English usage, issue 30, session 43).
    "pre work": "before work",
    "post work": "after work",
    "after supper": "after dinner",
    "small hours": "wee hours",
    "wee small hours": "wee hours",
    "early hours": "wee hours",
    "overnight": "all night",
    "late at night": "late night",
    "late evening": "late night",
    # Informal spellings (general English usage): nite, arvo (Australian and New Zealand
    # "afternoon"), morn, eve after a day ("fri eve"; "christmas eve" is a holiday's eve).
    "nite": "night",
    "nites": "night",
    "late nite": "late night",
    "all nite": "all night",
    "arvo": "afternoon",
    "arvos": "afternoon",
    "morn": "morning",
    "eve": "evening",
    "lunch": "lunchtime",
    "supper": "dinner",
    # Written shorthand after a day (general English usage, issue 30, session 41): "sat am",
    # "tmrw pm" (the half of the day: the morning, after noon), "tomorrow aft" (afternoon).
    # Like every English part they are a time only next to a day.
    "am": "morning",
    "pm": "after noon",
    "aft": "afternoon",
    "before midday": "before noon",
    # Before and after an English meal, as MEAL_BOUNDS reads the Mandarin ones (午饭前 the
    # morning, 晚饭前 the afternoon, 早饭后 the morning once breakfast is over): "saturday before
    # lunch" is Saturday morning, not the whole Saturday. General usage (issue 30, session 55,
    # after fresh20's "what can the weans do saturday before lunch" had been seen). Like every
    # English part, a time only next to a day.
    "before lunch": "before noon",
    "before lunchtime": "before noon",
    "before dinner": "afternoon",
    "before supper": "afternoon",
    "after breakfast": "早饭后",
    # Australian and New Zealand "knock off" (the end of the working day: "knock off drinks
    # friday"), a part like "after work"; session 49, after fresh9's and fresh15's queries
    # had been seen. Not "knockoff", fake goods in American English ("knockoff handbags").
    "knock off": "after work",
}
# Before and after a Mandarin meal (午饭前, 早餐之后, 周六午饭以前): the time around the meal,
# not its hours (audit, session 42: 周六午饭前 was read as Saturday lunchtime); meal -> (the
# part before it, the part after it). Brunch (早午餐) is over by the afternoon as lunch is.
MEAL_BOUNDS = {"早饭": ("清晨", "早饭后"), "午饭": ("上午", "午饭后"), "晚饭": ("下午", "晚饭后")}
MEAL_BOUNDS.update({"早餐": MEAL_BOUNDS["早饭"], "午餐": MEAL_BOUNDS["午饭"]})
MEAL_BOUNDS.update({"中饭": MEAL_BOUNDS["午饭"], "中午饭": MEAL_BOUNDS["午饭"]})
MEAL_BOUNDS.update({"晚餐": MEAL_BOUNDS["晚饭"], "早午餐": ("早上", "午饭后")})
for _meal, (_before, _after) in MEAL_BOUNDS.items():
    PART_WORDS.update({_meal + w: _before for w in ("前", "以前", "之前")})
    PART_WORDS.update({_meal + w: _after for w in ("后", "以后", "之后")})
# The parts of the day in the regional and colloquial varieties (下昼, 朝早, 后晌, 擦黑 ...) and
# English's narrower parts ("late afternoon"): rag/understand/regional.py.
PARTS_OF_DAY.update(regional.EN_PARTS_OF_DAY)
PART_WORDS.update(regional.PART_WORDS)
# Parts that are also other words: read only right after a day (rag.understand.words).
PART_WORDS_AFTER_DAY: dict[str, str] = regional.PART_WORDS_AFTER_DAY
# Parts after which "三点" / "3 o'clock" means 15:00.
PM_PARTS = frozenset(
    {"下午", "午饭后", "放学后", "傍晚", "下班后", "晚上", "晚间", "夜里", "夜间", "夜晚", "晚饭后"}
    | {"afternoon", "after lunch", "after school", "after work", "evening", "night", "dinner"}
    | {"happy hour", "after dinner", "early afternoon", "mid afternoon", "late afternoon"}
    | {"early evening", "after noon"}
)
# 中午一点 = 13:00
NOON_PARTS = frozenset({"中午", "午休", "noon", "midday", "lunchtime", "lunch break", "brunch"})
# 深夜十一点 = 23:00, 深夜一点 = 01:00 the next day
LATE_PARTS = frozenset(
    {"深夜", "半夜", "午夜", "后半夜", "通宵", "late night", "all night", "after midnight"}
)
# Two parts side by side narrow each other ("tomorrow morning before work": 6-9): the name of
# such a pair joins its parts with this, and :func:`part_hours` reads their overlap.
PART_JOIN = "&"


def part_hours(name: str) -> tuple[int, int]:
    """Return the hours of a part of the day, or of two side by side (their overlap; the
    second's when they do not overlap: "evening, after dinner" is after dinner)."""
    lo, hi = 0, 48
    for part in name.split(PART_JOIN):
        start, end = PARTS_OF_DAY[part]
        if max(lo, start) < min(hi, end):
            lo, hi = max(lo, start), min(hi, end)
        else:
            lo, hi = start, end
    return lo, hi


def in_parts(name: str | None, parts: frozenset) -> bool:
    """Return whether the part ``name`` (or the last of a pair) is one of ``parts``."""
    return name is not None and name.split(PART_JOIN)[-1] in parts


def part_of_day(words: str) -> str:
    """Return the name (a key of PARTS_OF_DAY) of the part of the day ``words`` name."""
    key = " ".join(words.replace("-", " ").split())
    return PART_WORDS.get(key, PART_WORDS_AFTER_DAY.get(key, key))


def narrowed(first: str, second: str) -> str:
    """Return the part of the day two parts side by side name: "early" or "late" before a part
    is its early or late end where the language names one ("early morning", "late afternoon"),
    else their overlap (``PART_JOIN``); "late" before a part with no late end is the part."""
    if first in ("early", "late") and (joined := part_of_day(f"{first} {second}")) in PARTS_OF_DAY:
        return joined
    if first == "late":
        return second  # no late end named ("late saturday lunchtime"): the part itself
    return f"{first}{PART_JOIN}{second}"


def overlaps(first: str, second: str) -> bool:
    """Return whether two parts of the day (names, or pairs of ``PART_JOIN``) share an hour."""
    (a, b), (c, d) = part_hours(first), part_hours(second)
    return max(a, c) < min(b, d)
