"""The vibe lexicon: infer an activity's vibes (氛围) from its type and text.

Offline the vibes come from two documented tables below; with an LLM configured
(``rag.llm.get_llm().enabled``) :func:`infer_vibes` asks it first and falls back to the
lexicon on any error or an empty answer. The same tables map a user's query to the vibes it
asks for (``query_vibes``), which match reasons and preference boosts use.

- ``TYPE_VIBES``: an activity type -> the vibes it implies.
- ``KEYWORD_VIBES``: a vibe -> keywords; any keyword in the title, description or tags adds
  the vibe. Queries use the same keywords plus ``QUERY_ONLY_KEYWORDS`` (words people search
  with but listings rarely contain, such as 社恐 or 发呆).
- English listings (issue 30, session 41): ``activities.vibes_en`` gives an English type
  ("Arts & Crafts") and English words (whole words) the same labels; an English query's moods
  are read by ``activities.cues_en.english_moods``.
"""

from __future__ import annotations

import json
import logging

from activities.vibes_en import english_type_vibes, english_vibes
from rag.llm import get_llm

logger = logging.getLogger(__name__)

VIBES = ("热闹", "安静", "商务", "亲子", "运动", "玩水", "户外", "文艺", "美食", "社交", "小局")

TYPE_VIBES: dict[str, tuple[str, ...]] = {
    "水上": ("玩水", "运动"),
    "运动": ("运动",),
    "户外": ("户外", "运动"),
    "徒步": ("户外", "运动"),
    "骑行": ("户外", "运动"),
    "桌游": ("社交", "小局"),
    "派对": ("热闹", "社交"),
    "音乐": ("热闹", "文艺"),
    "演出": ("热闹", "文艺"),
    "读书": ("安静", "文艺"),
    "阅读": ("安静", "文艺"),
    "冥想": ("安静",),
    "疗愈": ("安静",),
    "艺术": ("文艺",),
    "手作": ("文艺", "安静"),
    "手工": ("文艺", "安静"),
    "志愿": ("社交",),
    "展览": ("文艺", "安静"),
    "电影": ("文艺",),
    "美食": ("美食", "社交"),
    "探店": ("美食",),
    "亲子": ("亲子",),
    "商务": ("商务", "社交"),
    "职业": ("商务",),
    "讲座": ("商务",),
    "社交": ("社交", "热闹"),
    "夜生活": ("热闹",),
    "学习": ("安静",),
}

KEYWORD_VIBES: dict[str, tuple[str, ...]] = {
    # Single characters are avoided where they hide inside unrelated words (上海, 茶水, 计划).
    "安静": (
        "安静",
        "静读",
        "静心",
        "读书",
        "阅读",
        "冥想",
        "正念",
        "发呆",
        "禅",
        "茶会",
        "颂钵",
        "放空",
        "独处",
        "自习",
        "瑜伽",
        "拼图",
        "慢生活",
    ),
    "热闹": (
        "酒吧",
        "派对",
        "livehouse",
        "夜市",
        "蹦迪",
        "演出",
        "狂欢",
        "热闹",
        "音乐节",
        "脱口秀",
        "啤酒",
        "k歌",
        "ktv",
        "夜店",
    ),
    "亲子": ("亲子", "孩子", "儿童", "小朋友", "家庭", "宝宝", "遛娃"),
    "商务": ("商务", "创业", "networking", "投资", "职场", "行业", "交流会", "路演", "求职"),
    "运动": (
        "运动",
        "跑步",
        "夜跑",
        "晨跑",
        "球",
        "攀岩",
        "健身",
        "骑行",
        "徒步",
        "游泳",
        "划船",
        "拳",
        "滑板",
        "飞盘",
        "单车",
    ),
    "玩水": (
        "玩水",
        "戏水",
        "水上",
        "冲浪",
        "游泳",
        "泳池",
        "桨板",
        "皮划艇",
        "潜水",
        "龙舟",
        "水乐园",
        "漂流",
    ),
    "户外": (
        "户外",
        "公园",
        "露营",
        "野餐",
        "徒步",
        "爬山",
        "郊野",
        "郊外",
        "江边",
        "滨江",
        "草坪",
        "看海",
        "海边",
    ),
    "文艺": (
        "展览",
        "看展",
        "美术",
        "艺术",
        "电影",
        "诗",
        "书店",
        "手作",
        "陶艺",
        "画画",
        "水彩",
        "油画",
        "摄影",
        "音乐",
        "话剧",
    ),
    "美食": (
        "美食",
        "好吃",
        "餐厅",
        "火锅",
        "咖啡",
        "甜品",
        "烘焙",
        "小吃",
        "料理",
        "吃辣",
        "探店",
    ),
    "社交": ("交友", "社交", "认识新朋友", "聚会", "破冰", "聊天", "闲聊", "小聚"),
    "小局": ("小局", "小聚", "四人", "五个人", "几个人", "小范围", "小团"),
}

# Words that appear in what people ask for rather than in listings.
# Loneliness asks for company (issue 30, session 43): 孤单 and 寂寞 read 社交, the Chinese of
# "lonely" (``activities.vibes_en.EN_QUERY_ONLY_KEYWORDS``, session 41); before, 「一个人在南京
# 好孤单」 read only 安静 (from 一个人, the "solo" of the English side), so only the quiet rows
# held its cue. General Chinese, written after seeing that dev loss (docs/RELEVANCE.md, "Mood
# below the bare model"). Not 孤独: solitude too, and a title (《百年孤独》读书会).
QUERY_ONLY_KEYWORDS: dict[str, tuple[str, ...]] = {
    "安静": ("社恐", "压力", "发呆", "清净", "不想说话", "一个人", "放松", "躺平", "解压"),
    "社交": ("孤单", "寂寞"),
    # Singing one's lungs out (吼两嗓子) lets a feeling out loudly: a KTV night, a gig, a dance
    # floor (issue 30, session 45: fresh14's 「心里憋得慌 想去吼两嗓子」 had no word in any row and
    # sat under the bare gate). General Chinese idioms of loud singing.
    "热闹": (
        "嗨",
        "人多",
        "蹦",
        "喝一杯",
        "夜生活",
        "吼两嗓子",
        "吼一嗓子",
        "嚎两嗓子",
        "唱两嗓子",
    ),
    "小局": ("轻松", "小局", "人少", "社恐"),
    "玩水": ("玩水", "清凉", "消暑"),
    "亲子": ("带娃", "遛娃"),
    # Low energy asks to be woken up (issue 30, session 44): 「人就蔫巴了 想提提神」 wants
    # something lively and active, not the quiet rows its tiredness reads closest to. General
    # Chinese for listless or drowsy, written after fresh13's such query was answered empty.
    "运动": (
        "出汗",
        "锻炼",
        "燃脂",
        "提神",
        "提提神",
        "没精神",
        "打不起精神",
        "提不起精神",
        "提不起劲",
        "蔫",
        "犯困",
        "无精打采",
        "萎靡",
    ),
}


# The words of KEYWORD_VIBES and QUERY_ONLY_KEYWORDS that name one activity, place, show or
# dish rather than a mood or a broad field. A query naming one still reads the mood (it names
# something the listings of that vibe hold: the cut's evidence, the hybrid's order, the
# reasons), but the mood does not vouch for a row past the precision gate
# (``activities.understanding.vouching_moods``): 「攀岩抱石」 asks for climbing, not for every
# sporty row, 「找个地方喝一杯」 for a drink, not for a Sichuan-opera night. The rule of
# ``activities.cues_en.EN_ACTIVITY_NOUNS`` (issue 30, session 41), for the Chinese words
# (session 43, docs/RELEVANCE.md "Chinese precision"): sorted from the lexicon by what each word
# names, from general knowledge, not from the development queries; the words naming a mood or
# a broad field (安静, 热闹, 派对, 运动, 健身, 户外, 艺术, 音乐, 美食, 亲子, 社交 ...) still vouch.
ZH_ACTIVITY_NAMES = frozenset(
    {
        # 安静: reading, meditation and other single practices
        "静读", "读书", "阅读", "冥想", "正念", "茶会", "颂钵", "自习", "瑜伽", "拼图",
        # 热闹: places and shows
        "酒吧", "livehouse", "夜市", "蹦迪", "演出", "音乐节", "脱口秀", "啤酒", "k歌", "ktv",
        "夜店", "喝一杯",
        # 商务: one kind of event
        "路演",
        # 运动: one sport
        "跑步", "夜跑", "晨跑", "球", "攀岩", "骑行", "徒步", "游泳", "划船", "拳", "滑板",
        "飞盘", "单车",
        # 玩水: one water sport or place
        "冲浪", "泳池", "桨板", "皮划艇", "潜水", "龙舟", "水乐园", "漂流",
        # 户外: one place or outing
        "公园", "露营", "野餐", "爬山", "江边", "滨江", "草坪", "看海", "海边",
        # 文艺: one art, show or place
        "展览", "看展", "电影", "诗", "书店", "陶艺", "画画", "水彩", "油画", "摄影", "话剧",
        # 美食: one dish, drink or place
        "餐厅", "火锅", "咖啡", "甜品", "烘焙", "小吃", "料理", "吃辣", "探店",
    }
)  # fmt: skip


def lexicon_vibes(*, type: str, title: str = "", description: str = "", tags=()) -> list[str]:
    """Return the vibes the lexicon infers, type vibes first, at most 4."""
    found = list(dict.fromkeys(TYPE_VIBES.get(type) or english_type_vibes(type)))
    text = " ".join([title, description, " ".join(tags or ())])
    lowered = text.lower()
    english = set(english_vibes(text))
    for vibe, words in KEYWORD_VIBES.items():
        if vibe not in found and (vibe in english or any(w in lowered for w in words)):
            found.append(vibe)
    return found[:4]


def activity_vibes(activity) -> list[str]:
    """Return the lexicon's vibes of an activity, from its type, title, description and tags."""
    return lexicon_vibes(
        type=activity.type,
        title=activity.title,
        description=activity.description,
        tags=activity.tags,
    )


def query_vibes(query: str) -> list[str]:
    """Return the vibes a search query asks for."""
    lowered = (query or "").lower()
    found = []
    for vibe in VIBES:
        words = KEYWORD_VIBES.get(vibe, ()) + QUERY_ONLY_KEYWORDS.get(vibe, ())
        if any(w in lowered for w in words):
            found.append(vibe)
    return found


def llm_vibes(*, type: str, title: str, description: str, tags=()) -> list[str]:
    """Ask the configured LLM for the vibes; raise on any failure or unusable answer."""
    llm = get_llm()
    if not llm.enabled:
        raise RuntimeError("no LLM configured")
    prompt = (
        '从这个列表中为活动选出 1 到 3 个氛围，只输出 JSON 数组，例如 ["安静", "文艺"]。\n'
        f"可选氛围: {', '.join(VIBES)}\n"
        f"标题: {title}\n类型: {type}\n标签: {', '.join(tags or ())}\n描述: {description[:800]}"
    )
    answer = llm.complete(prompt, max_tokens=60)
    start, end = answer.find("["), answer.rfind("]")
    values = json.loads(answer[start : end + 1]) if start >= 0 and end > start else []
    vibes = [v for v in values if isinstance(v, str) and v in VIBES]
    if not vibes:
        raise ValueError(f"no known vibe in the LLM answer {answer[:100]!r}")
    return vibes[:3]


def infer_vibes(*, type: str, title: str = "", description: str = "", tags=(), use_llm=True):
    """Return the vibes of an activity: the LLM's when enabled, else (or on error) the lexicon."""
    if use_llm:
        try:
            if get_llm().enabled:
                return llm_vibes(type=type, title=title, description=description, tags=tags)
        except Exception as exc:  # noqa: BLE001 - any LLM failure falls back to the lexicon
            logger.warning("LLM vibe inference failed, using the lexicon: %s", exc)
    return lexicon_vibes(type=type, title=title, description=description, tags=tags)
