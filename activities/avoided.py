"""What a user said they cannot eat or drink, read against a listing's own words.

A user who told the agent 「不吃辣」 and then asked 「今晚吃点什么好」 was shown
「重庆火锅局｜能吃辣的来」 first, under "按你的偏好：不吃辣" (a make-run look, session 48): the
stated refusal added nothing to the order (``activities.personalize``: negative values only
stopped counting as likes). Now a listing whose title or tags name what the user refuses, other
than under the listing's own refusal (「不吃辣也能吃」, "alcohol-free": ``mentions_plainly``), is
moved down by :data:`AVOID_PENALTY` of its score; it is not hidden (a group dinner may still
suit someone who orders around the chilli), and the rest of the order is untouched.

Which stated preferences refuse something, and what (:func:`avoided_things`):

- an allergy or a dislike (category ``allergy`` or ``dislikes``): its value is the thing (花生,
  "peanuts", 香菜 from 「我讨厌香菜」);
- a value stated against eating or drinking something (「不吃辣」, 「不喝酒」, "no spicy food",
  "no alcohol", "don't eat beef");
- a food the agent stored as refused: the agent stores 「不吃牛肉」 as category ``food`` with the
  thing itself as the value (``agent.preferences_said.PREFERENCE_RULES``), so a ``food`` value
  that is one of :data:`THING_WORDS`' things bare is refused. A liked food is stored with its verb
  (「爱吃辣」, "spicy food"), never bare.
"""

from __future__ import annotations

import re

from activities.negation import mentions_plainly

# How much of its score a listing naming a refused thing loses (score x (1 - penalty)): half,
# enough to put a hotpot for chilli lovers below the other dinners of a "what to eat" list
# (their scores differ by a few hundredths to a tenth) without hiding it. A judgement of the
# product, not fitted: no labelled set holds users' refusals.
AVOID_PENALTY = 0.5

# Each thing a user may refuse, and the words that name it in a listing, in both languages
# (lower case). The keys are what the preference rules store; their other names
# (:data:`_OTHER_NAMES`: English, 喝酒) map to the same words.
THING_WORDS: dict[str, tuple[str, ...]] = {
    # Not 辣 alone (辣妈, 「阿要辣油啊」 a dialect class): the words of a spicy dish.
    "辣": (
        "麻辣",
        "香辣",
        "酸辣",
        "辣椒",
        "辣锅",
        "辣味",
        "特辣",
        "重辣",
        "中辣",
        "吃辣",
        "辣子",
        "无辣不欢",
        "spicy",
        "chilli",
        "chili",
        "hot sauce",
    ),
    # Not 酒 alone (酒店 is a hotel), nor "pub" ("public") or "sake" ("for the sake of").
    "酒": (
        "酒吧",
        "啤酒",
        "红酒",
        "白酒",
        "黄酒",
        "清酒",
        "鸡尾酒",
        "品酒",
        "喝酒",
        "精酿",
        "威士忌",
        "小酒馆",
        "葡萄酒",
        "beer",
        "wine",
        "cocktail",
        "brewery",
        "whisky",
        "whiskey",
        "gin tasting",
        "pub crawl",
    ),
    "海鲜": ("海鲜", "海蛎", "生蚝", "扇贝", "虾", "蟹", "seafood", "oyster", "prawn", "shrimp"),
    "花生": ("花生", "peanut", "satay"),
    "芒果": ("芒果", "mango"),
    "乳糖": ("乳糖", "牛奶", "奶酪", "芝士", "lactose", "dairy", "milk", "cheese"),
    "牛肉": ("牛肉", "牛排", "beef", "steak", "brisket"),
    "猪肉": ("猪肉", "腊肉", "叉烧", "pork", "bacon"),
    "羊肉": ("羊肉", "lamb", "mutton"),
    "香菜": ("香菜", "coriander", "cilantro"),
}
# A listing made for those who refuse the thing (an audit, session 48): 「无酒精鸡尾酒」,
# "mocktail", 「怕辣的有清汤锅」, 「吃不了辣也能来」, "not too spicy". Its mention of the thing is
# no offer of it.
THING_SPARED: dict[str, tuple[str, ...]] = {
    "辣": (
        "不辣",
        "微辣",
        "怕辣",
        "清汤",
        "吃不了辣",
        "不能吃辣",
        "不太能吃辣",
        "不吃辣",
        "not too spicy",
        "mild",
        "non-spicy",
    ),
    "酒": (
        "无酒精",
        "零酒精",
        "不含酒精",
        "不喝酒",
        "alcohol-free",
        "alcohol free",
        "non-alcoholic",
        "mocktail",
        "sober",
    ),
}
_OTHER_NAMES = {
    "spicy": "辣",
    "spicy food": "辣",
    "alcohol": "酒",
    "drinking": "酒",
    "喝酒": "酒",
    "seafood": "海鲜",
    "peanuts": "花生",
    "peanut": "花生",
    "mango": "芒果",
    "lactose": "乳糖",
    "dairy": "乳糖",
    "beef": "牛肉",
    "pork": "猪肉",
    "lamb": "羊肉",
    "coriander": "香菜",
    "cilantro": "香菜",
}
# The foods stored bare when refused: the agent's rule 不吃(牛肉|…) stores the food itself
# (agent.preferences_said.PREFERENCE_RULES reads this set), and a bare ``food`` value of these
# is read as refused here.
STORED_BARE = frozenset({"牛肉", "猪肉", "海鲜", "香菜", "羊肉"})
# A value that refuses eating or drinking something: 「不吃辣」 「不能吃海鲜」 「不喝酒」, "no spicy
# food", "no alcohol", "don't eat beef", "can't have dairy".
_ZH_REFUSES = re.compile(r"^(?:不|不能|不太能|不怎么|不爱|忌)(?:吃|喝|碰)(.+)$")
_EN_REFUSES = re.compile(
    r"^(?:no|non-|avoid(?:s|ing)?|(?:i )?(?:don['’]?t|do not|can['’]?t|cannot|never) "
    r"(?:eat|drink|have|do))\s*(.+?)(?:\s+food)?$",
    re.IGNORECASE,
)


def _thing(name: str) -> str | None:
    """Return the key of :data:`THING_WORDS` a refused name stands for, else None."""
    name = name.strip().lower()
    if name in THING_WORDS:
        return name
    return _OTHER_NAMES.get(name)


def avoided_things(preferences) -> set[str]:
    """Return the things (keys of :data:`THING_WORDS`) the stated ``preferences`` refuse."""
    things = set()
    for pref in preferences:
        value = (pref.value or "").strip()
        category = (pref.category or "").strip().lower()
        if not value:
            continue
        if category in ("allergy", "dislikes") or (category == "food" and value in STORED_BARE):
            found = _thing(value)
        else:
            refused = _ZH_REFUSES.match(value) or _EN_REFUSES.match(value)
            found = _thing(refused.group(1)) if refused else None
        if found:
            things.add(found)
    return things


def _names(word: str, text: str) -> bool:
    """Return whether ``text`` holds ``word`` plainly: an English word whole (plural allowed:
    not "chilli" in "chilling", "wine" in "twine"), a Chinese one anywhere; not under the
    listing's own refusal (``mentions_plainly``)."""
    if word.isascii() and not re.search(rf"\b{re.escape(word)}(?:s|es)?\b", text, re.IGNORECASE):
        return False
    return mentions_plainly(word, text)


def names_avoided(activity, things: set[str]) -> bool:
    """Return whether the listing's title, type or tags name one of ``things`` plainly (not
    under the listing's own refusal, 「不吃辣也能吃」, nor in a listing made for those who refuse
    it, :data:`THING_SPARED`)."""
    if not things:
        return False
    text = " ".join([activity.title or "", activity.type or "", *(activity.tags or [])])
    lowered = text.lower()
    return any(
        not any(spared in lowered for spared in THING_SPARED.get(thing, ()))
        and any(_names(word, text) for word in THING_WORDS[thing])
        for thing in sorted(things)
    )
