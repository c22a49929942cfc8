"""What a user says of their tastes: the preferences a message states, and how a reply names them.

Rule-based, in Chinese and in English (no LLM): foods refused or liked, allergies, drink, the
vibe (lively or quiet), the outdoors, free times, and likings and dislikes named in the user's
own words ("我喜欢桌游", "I love board games"). Stored by the chat turn in the language they were
stated in; a reply names a stored value in the reply's language (:func:`value_in`,
:func:`stated_in`). Split from ``agent.extract`` (session 49).
"""

from __future__ import annotations

import re

from activities import named_kinds
from activities.avoided import STORED_BARE
from agent.extract import CJK_RE, is_english

# English negation before a verb ("I don't eat", "I can't"), and its absence.
_NOT = r"\b(?:don['’]?t|do not|can['’]?t|cannot|never)"
_YES = r"(?<!n't )(?<!n’t )(?<!not )(?<!never )\b"
# (pattern, category, value): value None takes the pattern's first group.
PREFERENCE_RULES: list[tuple[re.Pattern, str, str | None]] = [
    (re.compile(r"不(?:能|太能|怎么|爱)?吃辣"), "food", "不吃辣"),
    (re.compile(r"(?:爱|喜欢|能)吃辣|无辣不欢"), "food", "爱吃辣"),
    (re.compile(r"素食|吃素|素食主义"), "food", "素食"),
    # The refused food itself is the value (activities.avoided reads such a value as refused).
    (re.compile(rf"不吃({'|'.join(sorted(STORED_BARE))})"), "food", None),
    (re.compile(r"(?:对)?(海鲜|花生|芒果|乳糖)过敏"), "allergy", None),
    (re.compile(r"\ballergic to (seafood|peanuts|mango|lactose)", re.I), "allergy", None),
    (re.compile(r"不(?:喝|能喝)酒"), "drink", "不喝酒"),
    (re.compile(r"(?<!不)喜欢(?:热闹|人多)|爱热闹"), "vibe", "热闹"),
    (re.compile(r"喜欢安静|不喜欢(?:太)?(?:吵|热闹|人多)|怕吵|社恐"), "vibe", "安静"),
    (re.compile(r"(?<!不)喜欢(?:户外|大自然|爬山)"), "vibe", "户外"),
    (re.compile(r"(?:周末|工作日)?(?:只有|只能)(周末|晚上|工作日晚上)有空"), "time", None),
    # English: stored in English, the language the user stated it in (a later 爱吃辣 still
    # replaces "no spicy food": memory.stance reads both languages in one vocabulary).
    (
        re.compile(rf"{_NOT}\s+(?:eat|like|do|handle)\s+spicy|\bno spicy", re.I),
        "food",
        "no spicy food",
    ),
    (re.compile(rf"{_YES}(?:love|like|enjoy|eat)\s+spicy", re.I), "food", "spicy food"),
    (
        re.compile(r"\bi['’]?m (?:a )?vegetarian|\bi (?:only )?eat vegetarian", re.I),
        "food",
        "vegetarian",
    ),
    (re.compile(rf"{_NOT}\s+drink\b|\bno alcohol", re.I), "drink", "no alcohol"),
    (
        re.compile(
            rf"{_YES}(?:like|love|enjoy|prefer)\s+(?:quiet|calm|peaceful)"
            rf"|{_NOT}\s+like\s+(?:crowds|noise|noisy|loud)|\bhate\s+(?:crowds|noise)",
            re.I,
        ),
        "vibe",
        "quiet activities",
    ),
    (
        re.compile(rf"{_YES}(?:like|love|enjoy|prefer)\s+(?:lively|busy|crowded)", re.I),
        "vibe",
        "lively activities",
    ),
    (
        re.compile(rf"{_YES}(?:like|love|enjoy)\s+(?:the\s+)?(?:outdoors?|hiking|nature)", re.I),
        "vibe",
        "the outdoors",
    ),
]
# The values the rules above store, in Chinese and in English: a reply names a stored value in
# the reply's language (value_in), whichever language the user stated it in.
VALUES_ZH_EN = {
    "不吃辣": "no spicy food",
    "爱吃辣": "spicy food",
    "素食": "vegetarian",
    "不喝酒": "no alcohol",
    "安静": "quiet activities",
    "热闹": "lively activities",
    "户外": "the outdoors",
}
_VALUES_EN_ZH = {en: zh for zh, en in VALUES_ZH_EN.items()}
# The things an allergy or a refused food names (the rules above), in both languages.
THINGS_ZH_EN = {
    "海鲜": "seafood",
    "花生": "peanuts",
    "芒果": "mango",
    "乳糖": "lactose",
    "牛肉": "beef",
    "猪肉": "pork",
    "香菜": "coriander",
    "羊肉": "lamb",
}
_THINGS_EN_ZH = {en: zh for zh, en in THINGS_ZH_EN.items()}


def value_in(value: str, *, english: bool) -> str:
    """Return a stated preference's value in English or Chinese (unknown values as they are)."""
    table = VALUES_ZH_EN if english else _VALUES_EN_ZH
    return table.get(value, value)


def liking_kind(value: str) -> named_kinds.NamedKind | None:
    """Return the activity a liking's value is exactly a name of (摄影, 拍照, "photography"), in
    either language, else None (a Chinese word the kind holds counts; an English one may mean
    something else: "pool")."""
    word = (value or "").strip().lower()
    for kind in named_kinds.NAMED_KINDS:
        if word in kind.words or (CJK_RE.search(word) and word in kind.held):
            return kind
    return None


def _kind_name(value: str, *, english: bool) -> str | None:
    """Return the name of the activity a liking names in English or Chinese, when it was said in
    the other language (said in this one, the user's own words stay), else None."""
    kind = liking_kind(value)
    if kind is None or english != bool(CJK_RE.search(value)):
        return None
    if english:
        return kind.label
    return next((w for w in kind.words if CJK_RE.search(w)), None)


def stated_in(category: str, value: str, *, english: bool) -> str:
    """Return a stated preference as a phrase in English or Chinese.

    An allergy, a dislike or a refused food stores the thing itself (花生, 爬山, 牛肉): shown bare
    it would read as something the user wants, so it is named as avoided. A liking or a dislike
    of an activity is named in the phrase's language (拍照 in English is "photography": a
    make-run look, session 55, found 拍照 in an English answer).
    """
    thing = (THINGS_ZH_EN if english else _THINGS_EN_ZH).get(value, value)
    if category in ("likes", "dislikes"):
        thing = _kind_name(value, english=english) or thing
    if category == "allergy":
        return f"allergic to {thing}" if english else f"{thing}过敏"
    if category == "dislikes":
        return f"not into {thing}" if english else f"不喜欢{thing}"
    if category == "food" and (value in THINGS_ZH_EN or value in _THINGS_EN_ZH):
        return f"no {thing}" if english else f"不吃{thing}"
    if category == "likes":
        return thing if thing != value else value_in(value, english=english)
    return value_in(value, english=english)


def persona_stated(chunks) -> list[tuple[str, str]]:
    """Return the ``(category, value)`` of the stated preferences among persona chunks."""
    return [(c.meta.get("category", ""), c.meta["value"]) for c in chunks if c.meta.get("value")]


def stated_all(preferences, *, english: bool) -> list[str]:
    """Return the phrases of ``(category, value)`` preferences, each once (photography and 拍照
    are one liking in either language)."""
    return list(dict.fromkeys(stated_in(c, v, english=english) for c, v in preferences))


def told_already(preference: tuple[str, str], told) -> bool:
    """Return whether a liking or dislike names the activity one of ``told`` (``(category,
    value)`` pairs) names in the other language: 拍照 after "photography" is no new taste."""
    category, value = preference
    kind = liking_kind(value) if category in ("likes", "dislikes") else None
    return kind is not None and any(c == category and liking_kind(v) == kind for c, v in told)


# A liking stated: 我喜欢桌游, 我平时爱爬山 (爱 not of a person or a hobby: 我爱人 is one's spouse,
# 我爱你, 我爱好摄影). The subject may be left out at a clause's start when a habit word says it
# is one's own (你好，我是小周，刚搬来，平时爱打羽毛球), unless an earlier clause is about someone
# else (我儿子今年八岁，平时爱踢球: ``OTHER_PERSON_RE``).
_LIKE_RE = re.compile(
    r"(?:我(?:平时|一直|从小)?|(?:^|(?<=[，,。！!\s]))(?:平时|一直|从小))"
    r"(?:很|最|比较|特别|超|也|挺)?(?:喜欢|爱(?![人你他她死好我着]))([^，,。！!？?\s了的]{2,8})"
)
OTHER_PERSON_RE = re.compile(
    r"儿子|女儿|孩子|娃|宝宝|老公|老婆|爱人|对象|女朋友|男朋友|室友|朋友|同事|同学|爸|妈|爷|奶|"
    r"姐|哥|弟|妹|他|她"
)
# A liking's value that is a question or a person, not a thing liked (我爱干嘛来着, 我爱妈妈).
_NOT_A_LIKING_ZH = re.compile(r"什么|啥|干嘛|来着|吗|妈妈|爸爸|老婆|老公")
# "I love board games", "I'm really into photography": the thing liked, up to a clause's end or a
# word that starts another part ("I like hiking on weekends" keeps "hiking"). Not "I like it",
# "I'd like to", "I like to …" (a wish), a pick from a list ("I like the first one", "both"),
# a question ("would I like jazz?") nor a person (a make-run look, session 49: stated likings in
# English were stored nowhere; its audit).
_LIKE_EN_RE = re.compile(
    r"\bi (?:really |also |just |absolutely |totally |much |generally )?"
    r"(?:love|like|enjoy|adore|prefer)\s+"
    r"|\bi['’]?m (?:really |totally |also |big )?(?:into|a (?:big )?fan of)\s+",
    re.I,
)
NOT_A_THING_LIKED = (
    r"(?!(?:it|that|this|these|those|you|your|them|him|her|his|my|our|their|to|the idea|when|how"
    r"|what|either|neither|none|the (?:first|second|third|last|other|\w+ one|\w+ option)"
    r"|(?:a|an|the) (?:option|choice)"
    # "both", "all of them", "anything", "the first one" alone: a pick, not a thing liked
    # ("I love both hiking and jazz", "any kind of music", "one-day trips" are things).
    r"|(?:both|all|any|anything|everything|one)(?:\s+of\s+(?:them|these|those)|\s*(?:[,.!?]|$)))\b)"
)
_LIKE_EN_THING_RE = re.compile(
    NOT_A_THING_LIKED + r"(?:(?:a|an|the|some)\s+)?"
    r"([a-z][a-z' -]{2,30}?)(?=\s*(?:[,.!?;]|$|\b(?:and|but|on|at|in|with|so|because|too|over"
    r"|than)\b))",
    re.I,
)
# What joins one more thing to a list of likings, not a clause of its own ("and I also ...").
_AND_NEXT_RE = re.compile(
    r"\s*(?:,\s*(?:and\s+)?|\s+and\s+)(?!(?:i|we|you|he|she|they|it|my|so|then|also|any|anything"
    r"|anyone|what|where|how|who|when|is|are|do|does|can|could|would|should|please|let|but)\b)",
    re.I,
)
_NOT_A_LISTED_THING = re.compile(
    r"\b(?:not|no|never|hate|hates|dislike|want|wants|wanna|need|needs|am|is|are|was|were|be|to"
    r"|ok|okay|thanks|thank|especially|also|too|very|really|would|will|can|could|should|like|love"
    r"|enjoy|prefer)\b",
    re.I,
)
_EN_NOT_STATED = re.compile(
    r"(?:\bnot sure|\bwonder(?:ing)? if|\bwould|\bdo|\bdoes|\bif|\bwhether)\s+$", re.I
)
_DISLIKE_RE = re.compile(r"我(?:很|最|比较|特别)?(?:不喜欢|讨厌|受不了)([^，,。！!？?\s了的]{2,8})")


# A short answer to "do you prefer lively or quiet get-togethers?" (安静的吧, 热闹点的, "quiet
# please"): the vibe it names, read only right after the partner search asked it.
_ANSWER_END_ZH = r"(?:一点|一些|点|些)?的?(?:局|吧|的吧|就行|就好|呗)?[。！!~～\s]*$"
_ANSWER_END_EN = r"(?:\s+(?:ones?|stuff|please|for me|is better|is good))*[.!\s]*$"
_QUIET_ANSWER_RE = re.compile(
    rf"^\W*(?:我)?(?:更|比较|还是)?(?:喜欢|偏向|要)?(?:安静|清净|人少|安安静静){_ANSWER_END_ZH}"
    rf"|^\W*(?:i'?d )?(?:prefer |like )?(?:quiet|calm|low[- ]key){_ANSWER_END_EN}",
    re.IGNORECASE,
)
_LIVELY_ANSWER_RE = re.compile(
    rf"^\W*(?:我)?(?:更|比较|还是)?(?:喜欢|偏向|要)?(?:热闹|人多){_ANSWER_END_ZH}"
    rf"|^\W*(?:i'?d )?(?:prefer |like )?(?:lively|busy|loud){_ANSWER_END_EN}",
    re.IGNORECASE,
)


def answered_vibe(text: str) -> tuple[str, str] | None:
    """Return the ``("vibe", value)`` preference a short answer to the lively-or-quiet question
    names, in the language of the answer; None when it is no such answer."""
    english = is_english(text)
    for pattern, value in ((_QUIET_ANSWER_RE, "安静"), (_LIVELY_ANSWER_RE, "热闹")):
        if pattern.search(text or ""):
            return ("vibe", VALUES_ZH_EN[value] if english else value)
    return None


_PLACEHOLDER_WORDS = frozenset({"things", "stuff", "ones", "activities", "events", "places"})


def _covered(value: str, covered: set[str]) -> bool:
    """Return whether a liking says no more than a preference already read: it holds one or is
    held in one, or its words besides "things" / "activities" are among theirs ("I prefer quiet
    things" is the quiet vibe, not a liking of "quiet things" too)."""
    if any(value in c or c in value for c in covered):
        return True
    words = set(value.split()) - _PLACEHOLDER_WORDS
    said = {w for c in covered for w in c.split()}
    return bool(words) and words <= said


def _listed_after(text: str, thing: re.Match | None) -> list[str]:
    """Return the things listed after the first one a liking names ("I love climbing and live
    music", "jazz, hiking and board games": only the first was kept, a make-run look, session
    52), up to a question or a clause ("and hate crowds", "not rock", "dogs are ok")."""
    values = []
    while thing and (joined := _AND_NEXT_RE.match(text, thing.end())):
        thing = _LIKE_EN_THING_RE.match(text, joined.end())
        value = thing.group(1).strip().lower() if thing else ""
        if thing and text[thing.end() :].lstrip().startswith("?"):
            break  # "..., cheap ones?" asks
        if value and _NOT_A_LISTED_THING.search(value):
            break  # a clause, not a thing
        values.append(value)
    return values


# Someone else named before a diet or an allergy in its clause (我老婆吃素, "my son is allergic to
# peanuts"): theirs, not the user's (an audit, session 55, found them stored as the user's own).
_SOMEONE_ELSE_EN_RE = re.compile(
    r"\b(?:my|our|his|her|their)\s+(?:\w+\s+)?(?:son|daughter|kids?|children|wife|husband|"
    r"partner|boyfriend|girlfriend|mum|mom|mother|dad|father|sister|brother|friend|flatmate|"
    r"roommate|colleague|nan|grandma|grandpa)\b|\b(?:he|she|they)\b",
    re.IGNORECASE,
)


def _of_someone_else(text: str, start: int) -> bool:
    """Return whether the clause before ``start`` names someone else, the one the preference
    at ``start`` is said of ("my wife and I", 我和老婆都 include the user)."""
    clause = re.split(r"[,，。;；.!！?？]|\band\b(?! i\b)|\bbut\b", text[:start])[-1]
    if _WITH_ME_RE.search(clause):
        return False
    return bool(OTHER_PERSON_RE.search(clause) or _SOMEONE_ELSE_EN_RE.search(clause))


# The user in the clause: "I'm allergic…", "my wife and I", 我和老婆, 我们 (the possessive 我 of
# 我老婆 is not).
_WITH_ME_RE = re.compile(
    r"^\W*(?:i|i'm|im|i am)\b|\band i\b|我(?:和|跟|与)|我们|咱们|咱俩|我俩", re.IGNORECASE
)


# What joins likings listed in Chinese (我喜欢拍照和桌游: one liking "拍照和桌游" was stored, an
# audit, session 56).
_AND_ZH_RE = re.compile(r"和|、|跟|还有|以及|与")


def _listed_zh(value: str) -> list[str]:
    """Return the things a Chinese liking lists (拍照和桌游 -> 拍照, 桌游), or the value whole
    when a part would be a single character (和平 is no list)."""
    parts = _AND_ZH_RE.split(value)
    if len(parts) > 1 and all(len(p) >= 2 for p in parts):
        return parts
    return [value]


def extract_preferences(text: str) -> list[tuple[str, str]]:
    """Return the ``(category, value)`` preferences a user states in a message."""
    found: list[tuple[str, str]] = []
    for pattern, category, value in PREFERENCE_RULES:
        match = pattern.search(text)
        if match and not _of_someone_else(text, match.start()):
            found.append((category, value or match.group(1)))
    covered = {value for _, value in found}
    for match in _LIKE_EN_RE.finditer(text):
        thing = _LIKE_EN_THING_RE.match(text, match.end())
        value = thing.group(1).strip().lower() if thing else ""
        clause = re.split(r"[,.!?;]", text[match.start() :], maxsplit=1)
        asked = len(clause) > 1 and text[match.start() + len(clause[0])] == "?"
        if asked or _EN_NOT_STATED.search(text[: match.start()]):
            continue
        for liked in [value, *_listed_after(text, thing)]:
            if liked and not _covered(liked, covered):
                found.append(("likes", liked))
    for pattern, category in ((_LIKE_RE, "likes"), (_DISLIKE_RE, "dislikes")):
        for match in pattern.finditer(text):
            value = match.group(1)
            if category == "likes" and (
                text[max(0, match.start() - 1) : match.start()] == "不"
                or _NOT_A_LIKING_ZH.search(value)
                or (
                    not match.group(0).startswith("我")
                    and OTHER_PERSON_RE.search(text[: match.start()])
                )
            ):
                continue
            for one in _listed_zh(value):
                if not any(one in c or c in one for c in covered):
                    found.append((category, one))
    unique: list[tuple[str, str]] = []
    for item in found:
        if item not in unique:
            unique.append(item)
    return unique
