"""Rule-based extraction from Chinese chat messages: times, activity types, places, preferences.

Used offline (no LLM) to fill tool arguments and by the lifecycle hooks and triggers. Every time
is interpreted in ``settings.TIME_ZONE`` (Asia/Shanghai).

Time expressions understood (combinable, e.g. "下周五晚上七点半"):

- days: 今天/今晚/今早, 明天/明晚, 后天, 大后天, 周X/星期X/礼拜X (the next such day, today
  included), 下周X/下星期X (that day of next calendar week), 这周末/周末 (the coming Saturday
  and Sunday), 下周末, 这周/本周 (now to Sunday), 下周, X月X日/号, X号;
- parts of the day: 早上/上午/中午/下午/傍晚/晚上/夜里;
- clock times: 三点, 3点, 15:00, 三点半, 七点一刻 (下午/晚上 add 12 hours).

A day alone covers the whole day; a part of the day narrows it; a clock time is a point
(``start``) with a one-hour window.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.utils import timezone

CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6}
CN_DIGITS.update({"七": 7, "八": 8, "九": 9, "十": 10})
WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "末": 5}
WEEKDAYS.update({str(i): i - 1 for i in range(1, 8)})

# Part of the day -> (start hour, end hour); the end is exclusive (24 = midnight).
PARTS_OF_DAY = {
    "凌晨": (0, 6),
    "早上": (7, 12),
    "早晨": (7, 12),
    "清晨": (6, 9),
    "上午": (8, 12),
    "中午": (11, 14),
    "下午": (13, 18),
    "傍晚": (17, 19),
    "晚上": (18, 24),
    "夜里": (20, 24),
    "深夜": (22, 24),
}
PM_PARTS = ("下午", "傍晚", "晚上", "今晚", "明晚", "夜里", "深夜")

_NUM = r"[0-9零〇一二两三四五六七八九十]{1,3}"
_DAY_RE = re.compile(
    r"(大后天|后天|明天|明晚|明早|今天|今晚|今早|今儿|明儿)"
    r"|(下下|下个?|这个?|本)?(?:周|星期|礼拜)([一二三四五六日天末1-7])"
    r"|(这周末|下周末|周末)"
    r"|(下周|下星期|这周|本周)"
    r"|(?:(" + _NUM + r")月)?(" + _NUM + r")[日号]"
)
_CLOCK_RE = re.compile(
    r"(\d{1,2})[:：](\d{2})"
    r"|(" + _NUM + r")点(?:钟)?(半|一刻|三刻|(" + _NUM + r")分?)?"
)
_PART_RE = re.compile("|".join(sorted(PARTS_OF_DAY, key=len, reverse=True)))


def cn_number(text: str) -> int | None:
    """Return the value of a small number written in digits or Chinese (up to 99)."""
    if not text:
        return None
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (CN_DIGITS.get(tens, 1) if tens else 1) * 10 + (
            CN_DIGITS.get(ones, 0) if ones else 0
        )
    value = 0
    for char in text:
        if char not in CN_DIGITS:
            return None
        value = value * 10 + CN_DIGITS[char]
    return value


def local_now(now: datetime | None = None) -> datetime:
    """Return ``now`` (default: the current time) in the project's time zone."""
    return timezone.localtime(now or timezone.now())


@dataclass
class TimeRange:
    """A span of local time found in a message; ``point`` is set for a clock time."""

    start: datetime
    end: datetime
    label: str
    point: datetime | None = None

    def as_filter(self) -> dict:
        """Return the ``timeRange`` filter of the activities search."""
        return {"start": self.start.isoformat(), "end": self.end.isoformat()}


def _days(text: str, today: date) -> tuple[date, date, str] | None:
    """Return the first and last day the message names, with the words that named them."""
    match = _DAY_RE.search(text)
    if not match:
        return None
    word = match.group(0)
    relative, prefix, weekday, weekend, week, month, day = match.groups()
    if relative:
        offset = {"今": 0, "明": 1, "后": 2, "大": 3}[relative[0]]
        first = today + timedelta(days=offset)
        return first, first, word
    if weekday:
        target = WEEKDAYS[weekday]
        monday = today - timedelta(days=today.weekday())
        if prefix and prefix.startswith("下下"):
            first = monday + timedelta(days=14 + target)
        elif prefix and prefix.startswith("下"):
            first = monday + timedelta(days=7 + target)
        elif prefix:  # 这周五 / 本周五: this calendar week, even if already past
            first = monday + timedelta(days=target)
        else:  # 周五: the next Friday, today included
            first = today + timedelta(days=(target - today.weekday()) % 7)
        last = first + timedelta(days=1) if weekday == "末" else first
        return first, last, word
    if weekend:
        monday = today - timedelta(days=today.weekday())
        saturday = monday + timedelta(days=5 + (7 if weekend.startswith("下") else 0))
        if weekend == "周末" and today.weekday() == 6:
            saturday = today - timedelta(days=1)  # on Sunday, "周末" is this one
        return max(saturday, today), saturday + timedelta(days=1), word
    if week:
        monday = today - timedelta(days=today.weekday())
        if week.startswith("下"):
            return monday + timedelta(days=7), monday + timedelta(days=13), word
        return today, monday + timedelta(days=6), word
    day_number = cn_number(day)
    month_number = cn_number(month) if month else today.month
    if not day_number or not month_number or not 1 <= month_number <= 12:
        return None
    year = today.year
    try:
        found = date(year, month_number, day_number)
        if found < today and not month:
            # "25号" after the 25th means next month's.
            next_month = today.replace(day=1) + timedelta(days=32)
            found = date(next_month.year, next_month.month, day_number)
        elif found < today - timedelta(days=180):
            found = date(year + 1, month_number, day_number)
    except ValueError:
        return None
    return found, found, word


def _clock(text: str) -> tuple[int, int, str] | None:
    """Return (hour, minute, words) of the first clock time, before any AM/PM correction."""
    match = _CLOCK_RE.search(text)
    if not match:
        return None
    if match.group(1):
        hour, minute = int(match.group(1)), int(match.group(2))
    else:
        hour = cn_number(match.group(3))
        extra = match.group(4) or ""
        minute = {"半": 30, "一刻": 15, "三刻": 45}.get(extra)
        if minute is None:
            minute = cn_number(match.group(5)) if match.group(5) else 0
    if hour is None or minute is None or hour > 24 or minute > 59:
        return None
    return hour, minute, match.group(0)


def extract_time_range(text: str, now: datetime | None = None) -> TimeRange | None:
    """Return the span of time a message names, or None when it names none."""
    now = local_now(now)
    tz = now.tzinfo
    days = _days(text, now.date())
    part_match = _PART_RE.search(text)
    part = part_match.group(0) if part_match else None
    implied = part is None and bool(re.search("今晚|明晚|今早|明早", text))
    if implied:
        part = "晚上" if re.search("今晚|明晚", text) else "早上"
    clock = _clock(text)
    if days is None and part is None and clock is None:
        return None
    first, last, day_words = days or (now.date(), now.date(), "")
    if clock:
        hour, minute, clock_words = clock
        if hour < 12 and (part in PM_PARTS or any(p in text for p in PM_PARTS)):
            hour += 12
        hour %= 24
        point = datetime.combine(first, time(hour, minute), tz)
        if days is None and point < now:
            point += timedelta(days=1)  # "三点开会" said at five means tomorrow's
        label = f"{day_words}{'' if implied else part or ''}{clock_words}"
        return TimeRange(point, point + timedelta(hours=1), label, point=point)
    if part:
        start_hour, end_hour = PARTS_OF_DAY[part]
        start = datetime.combine(first, time(start_hour), tz)
        end = datetime.combine(last, time(0), tz) + timedelta(hours=end_hour) - timedelta(seconds=1)
        if days is None and end < now:
            start, end = start + timedelta(days=1), end + timedelta(days=1)
        return TimeRange(max(start, now), end, day_words if implied else f"{day_words}{part}")
    start = datetime.combine(first, time(0), tz)
    end = datetime.combine(last, time(23, 59, 59), tz)
    return TimeRange(max(start, now), end, day_words)


# --- Activity types, vibes, places ------------------------------------------------------

# Words in a message -> the activity type of the activities app (its demo types).
TYPE_WORDS: dict[str, tuple[str, ...]] = {
    "美食": ("美食", "吃饭", "探店", "火锅", "烧烤", "聚餐", "餐厅", "咖啡", "下午茶", "好吃"),
    "户外": ("户外", "爬山", "徒步", "露营", "野餐", "骑行", "郊游"),
    "运动": ("运动", "跑步", "羽毛球", "篮球", "足球", "网球", "健身", "瑜伽", "攀岩", "飞盘"),
    "水上": ("游泳", "冲浪", "划船", "皮划艇", "潜水", "玩水", "桨板"),
    "音乐": ("音乐", "live", "演出", "乐队", "唱歌", "K歌", "音乐会", "爵士"),
    "桌游": ("桌游", "剧本杀", "狼人杀", "密室"),
    "读书": ("读书", "书店", "阅读", "读书会"),
    "冥想": ("冥想", "静心", "疗愈", "正念"),
    "手工": ("手工", "手作", "陶艺", "编织", "木工"),
    "艺术": ("艺术", "画画", "展览", "看展", "美术", "摄影"),
    "亲子": ("亲子", "小朋友", "孩子", "遛娃", "儿童"),
    "学习": ("学习", "课程", "讲座", "外语", "编程", "英语"),
    "商务": ("商务", "创业", "行业", "职场"),
    "志愿": ("志愿", "公益", "义工"),
    "社交": ("社交", "交友", "派对", "聚会", "认识新朋友"),
}
VIBE_WORDS = ("热闹", "安静", "轻松", "放松", "文艺", "小众", "刺激", "浪漫", "解压", "新手友好")
NEARBY_WORDS = ("附近", "周边", "周围", "离我近", "近一点", "家门口", "不远")
DEFAULT_RADIUS_KM = 5.0


def extract_activity_type(text: str) -> str | None:
    """Return the activity type a message mentions (the first listed that matches)."""
    lowered = text.lower()
    best: tuple[int, str] | None = None
    for activity_type, words in TYPE_WORDS.items():
        for word in words:
            index = lowered.find(word.lower())
            if index >= 0 and (best is None or index < best[0]):
                best = (index, activity_type)
    return best[1] if best else None


def extract_vibes(text: str) -> list[str]:
    """Return the vibe words a message uses, in their order."""
    return [word for word in VIBE_WORDS if word in text]


def mentions_nearby(text: str) -> bool:
    """Return whether the message asks for something near the user."""
    return any(word in text for word in NEARBY_WORDS)


_FILLER_RE = re.compile(
    r"帮我|给我|麻烦|请|推荐|一下|一些|几个|一个|一场|一次|有没有|有什么|有啥|什么|哪里|哪儿|去哪|可以去的?|"
    r"我想|想要|想去|想找|找个|找点|找一?下|看看|能不能|可以|活动|的地方|地方|好玩的|吗|呢|吧|呀|啊|"
    r"[？?！!，,。.、~～\s]"
)


def semantic_query(text: str, time_range: TimeRange | None = None) -> str:
    """Return the part of a message worth embedding: without time, place and filler words."""
    stripped = text
    for pattern in (_DAY_RE, _CLOCK_RE, _PART_RE):
        stripped = pattern.sub(" ", stripped)
    for word in NEARBY_WORDS:
        stripped = stripped.replace(word, " ")
    stripped = _FILLER_RE.sub(" ", stripped)
    stripped = re.sub(r"^的|的$", "", " ".join(stripped.split()).strip()).strip()
    return stripped


# --- Counts and titles --------------------------------------------------------------------

# "8个人", "六位"; a bare "个" only after 人数 ("人数改成八个"), since "一个周六" is no count.
_PEOPLE_RE = re.compile(
    r"("
    + _NUM
    + r")\s*(?:个人|人|位|名)|人数\s*(?:改成|改为|设为|定为|是|为|:|：)?\s*("
    + _NUM
    + r")"
)


def extract_people(text: str) -> int | None:
    """Return the number of people a message names ("8个人", "六位"), or None."""
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


def extract_place(text: str) -> str | None:
    """Return a place name the message sets ("地点改成静安寺", "在静安寺办")."""
    for pattern in (_PLACE_RE, _PLACE_AT_RE):
        match = pattern.search(text)
        if match:
            return match.group(1)
    return None


# --- Preferences -------------------------------------------------------------------------

# (pattern, category, value): value None takes the pattern's first group.
PREFERENCE_RULES: list[tuple[re.Pattern, str, str | None]] = [
    (re.compile(r"不(?:能|太能|怎么|爱)?吃辣"), "food", "不吃辣"),
    (re.compile(r"(?:爱|喜欢|能)吃辣|无辣不欢"), "food", "爱吃辣"),
    (re.compile(r"素食|吃素|素食主义"), "food", "素食"),
    (re.compile(r"不吃(牛肉|猪肉|海鲜|香菜|羊肉)"), "food", None),
    (re.compile(r"(?:对)?(海鲜|花生|芒果|乳糖)过敏"), "allergy", None),
    (re.compile(r"不(?:喝|能喝)酒"), "drink", "不喝酒"),
    (re.compile(r"(?<!不)喜欢(?:热闹|人多)|爱热闹"), "vibe", "热闹"),
    (re.compile(r"喜欢安静|不喜欢(?:太)?(?:吵|热闹|人多)|怕吵|社恐"), "vibe", "安静"),
    (re.compile(r"(?<!不)喜欢(?:户外|大自然|爬山)"), "vibe", "户外"),
    (re.compile(r"(?:周末|工作日)?(?:只有|只能)(周末|晚上|工作日晚上)有空"), "time", None),
]
_LIKE_RE = re.compile(r"我(?:很|最|比较|特别|超)?喜欢([^，,。！!？?\s了的]{2,8})")
_DISLIKE_RE = re.compile(r"我(?:很|最|比较|特别)?(?:不喜欢|讨厌|受不了)([^，,。！!？?\s了的]{2,8})")


def extract_preferences(text: str) -> list[tuple[str, str]]:
    """Return the ``(category, value)`` preferences a user states in a message."""
    found: list[tuple[str, str]] = []
    for pattern, category, value in PREFERENCE_RULES:
        match = pattern.search(text)
        if match:
            found.append((category, value or match.group(1)))
    covered = {value for _, value in found}
    for pattern, category in ((_LIKE_RE, "likes"), (_DISLIKE_RE, "dislikes")):
        for match in pattern.finditer(text):
            value = match.group(1)
            if category == "likes" and text[max(0, match.start() - 1) : match.start()] == "不":
                continue
            if not any(value in c or c in value for c in covered):
                found.append((category, value))
    unique: list[tuple[str, str]] = []
    for item in found:
        if item not in unique:
            unique.append(item)
    return unique
