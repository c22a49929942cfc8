"""What an English query asks for by its words: the vibes (moods) and the activity types it
names, matched as whole words ("art" is not in "party"), as ``rag.understand``'s lexicon reads
them in Chinese (``activities.understanding.LEXICON``).
"""

from __future__ import annotations

import re

from activities.vibes import VIBES
from activities.vibes_en import EN_QUERY_ONLY_KEYWORDS, whole_words
from rag.understand import Cue

# English words asking for a vibe, matched as whole words ("art" is not in "party").
EN_MOOD_WORDS: dict[str, tuple[str, ...]] = {
    "热闹": ("lively", "party", "parties", "bar", "bars", "nightlife", "live music", "club"),
    # chill / unwind / laid-back: the English of 放松 and 解压, which ask for 安静 in Chinese
    # (activities.vibes.QUERY_ONLY_KEYWORDS).
    "安静": (
        "quiet",
        "calm",
        "peaceful",
        "relax",
        "relaxing",
        "reading",
        "meditation",
        "chill",
        "chilled",
        "unwind",
        "laid-back",
        "laid back",
        "low-key",
        "restful",
    ),
    "商务": ("networking", "startup", "startups", "founder", "founders", "business", "career"),
    "亲子": ("kids", "kid", "children", "child", "family", "families"),
    "运动": ("sport", "sports", "running", "run", "exercise", "workout", "fitness", "sweat"),
    "玩水": ("water", "swim", "swimming", "surf", "surfing", "kayak", "kayaking", "paddle"),
    "户外": ("outdoor", "outdoors", "hike", "hiking", "park", "picnic", "camping"),
    "文艺": ("art", "arts", "museum", "exhibition", "gallery", "film", "movie", "poetry"),
    "美食": ("food", "eat", "eating", "dinner", "coffee", "spicy", "hotpot", "restaurant"),
    "社交": ("meet people", "make friends", "social", "chat", "chatting"),
    "小局": ("few people", "small group", "small groups"),
}
# With English listings holding vibes (activities.vibes_en, issue 30 session 41) a mood the
# query reads vouches for every row holding it (the precision gate leaves such rows), so a mood
# is read from words naming a mood or a broad field ("quiet", "sporty", "outdoors", "food"),
# not from the name of one activity ("running", "kayak", "gallery", "coffee"): read as moods,
# "running club" kept every sporty row and "art gallery" every arty one (P@10 en -0.05 to
# -0.12 per development set). The activity's own name is matched as a word (lexical_ranking).
EN_ACTIVITY_NOUNS = frozenset(
    {
        "reading",
        "meditation",
        "running",
        "run",
        "swim",
        "swimming",
        "surf",
        "surfing",
        "kayak",
        "kayaking",
        "paddle",
        "hike",
        "hiking",
        "park",
        "picnic",
        "camping",
        "museum",
        "exhibition",
        "gallery",
        "film",
        "movie",
        "poetry",
        "dinner",
        "coffee",
        "spicy",
        "hotpot",
        "restaurant",
        "bar",
        "bars",
        "club",
        "live music",
    }
)
EN_MOOD_WORDS = {
    vibe: tuple(
        dict.fromkeys(
            [w for w in EN_MOOD_WORDS.get(vibe, ()) if w not in EN_ACTIVITY_NOUNS]
            + list(EN_QUERY_ONLY_KEYWORDS.get(vibe, ()))
        )
    )
    for vibe in VIBES
}
# English words naming an activity type (a type of the vibe table), matched as whole words.
EN_KIND_WORDS: dict[str, tuple[str, ...]] = {
    "水上": ("water sports", "surfing", "kayaking", "paddle boarding", "rowing"),
    "运动": ("sport", "sports", "workout", "fitness", "badminton", "tennis", "football"),
    "户外": ("outdoor", "outdoors", "hiking", "hike", "camping", "picnic"),
    "徒步": ("hiking", "hike", "trekking", "walking tour"),
    "骑行": ("cycling", "bike ride", "biking"),
    "桌游": ("board game", "board games", "boardgame", "boardgames", "tabletop"),
    "音乐": ("music", "live music", "concert", "concerts", "jazz", "gig", "gigs", "choir"),
    "读书": ("reading", "book club", "book clubs", "books"),
    "冥想": ("meditation", "meditate", "mindfulness"),
    "手工": ("crafts", "craft", "handmade", "diy", "pottery"),
    "艺术": ("art", "arts", "painting", "drawing", "sketching"),
    "展览": ("exhibition", "exhibitions", "museum", "gallery"),
    "电影": ("movie", "movies", "film", "films", "cinema"),
    "志愿": ("volunteer", "volunteering", "charity"),
    "美食": ("food", "dinner", "hotpot", "restaurant", "cooking"),
    "亲子": ("kids", "children", "family day", "with kids"),
    "商务": ("networking", "startup", "startups", "founders", "business"),
    "学习": ("learn", "learning", "class", "course", "workshop"),
}


_EN_MOOD_RE = {vibe: whole_words(words) for vibe, words in EN_MOOD_WORDS.items()}
_EN_KIND_RE = {kind: whole_words(words) for kind, words in EN_KIND_WORDS.items()}


def english_moods(text: str) -> list[Cue]:
    """Return one cue per vibe an English query asks for (whole words), ordered by position."""
    return _english_cues(text, _EN_MOOD_RE)


def english_kinds(text: str) -> list[Cue]:
    """Return one cue per activity type an English query names (whole words), by position."""
    return _english_cues(text, _EN_KIND_RE)


def _english_cues(text: str, patterns: dict[str, re.Pattern]) -> list[Cue]:
    cues = []
    for order, (vibe, pattern) in enumerate(patterns.items()):
        match = pattern.search(text or "")
        if match:
            cues.append((match.start(), order, Cue(vibe, match.group(0), match.span())))
    cues.sort(key=lambda item: (item[0], item[1]))
    return [cue for _, _, cue in cues]
