"""Questions about what the user told the assistant of their tastes, answered from the persona.

「我吃辣吗」 after 「记住我不吃辣」 searched for spicy dinners, and 「我之前说过什么忌口？」 quoted
「你好」 (a make-run look, session 48): the message telling it was still waiting for its vector,
so the memory search could not find it by meaning, and 忌口 shares no word with 不吃辣. The
stated preferences are written at once (``memory.services.preference_upsert``, in the turn that
states them) and come with every turn's context (``ctx.persona``), so such a question is
answered from them, unless memory found a message sharing the question's word (「我对什么过敏
来着」 after 「帮我记一下：我对花生过敏」): then the user's own words come back, with their date
(``agent.offline_recall.compose_chat``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agent import preferences_said
from agent.extract import is_english

if TYPE_CHECKING:  # the router imports this module, and agent.context imports the router
    from agent.context import RuntimeContext

# The persona's categories a question about eating and drinking reads; about allergies, one.
EATING = ("food", "allergy", "drink")
ALLERGY = ("allergy",)
# A question naming allergies asks about them only (我对什么过敏, "what am I allergic to?").
_ASKS_ALLERGY_RE = re.compile(r"过敏|\ballerg", re.IGNORECASE)

# The foods and drinks a yes/no question about oneself names (我吃辣吗, 我能喝酒吗): not any
# food (「我能吃火锅吗」, 「我能喝奶茶吗」 ask something else; an audit, session 48).
_FOODS = r"(?:辣的?|酒|海鲜|花生|芒果|牛肉|猪肉|羊肉|香菜|牛奶|乳制品|肉|素)"
# Questions about what one cannot or does not eat or drink: 我有什么忌口, 我对什么过敏, 我吃辣吗,
# 我吃不吃辣, 我说过什么忌口; "what am I allergic to", "what don't I eat", "do I eat spicy food?",
# "my dietary restrictions".
ASKS_EATING_RE = re.compile(
    r"我(?:都|有|都有)?(?:什么|哪些|啥)(?:忌口|不吃的|不能吃的|过敏)"
    r"|忌口(?:是|有)?(?:什么|啥|哪些)|我(?:是)?对(?:什么|啥)过敏"
    r"|我(?:之前|以前|刚才|跟你|和你|都|有)*说过(?:我)?(?:有)?(?:什么|啥)?(?:忌口|过敏|不吃)"
    rf"|^\W*我(?:能|可以)?(?:吃|喝){_FOODS}(?:吗|么)[？?。!！]*$"
    rf"|^\W*我(?:吃|喝)不(?:吃|喝){_FOODS}[？?。!！]*$"
    r"|\bwhat am i allergic to\b|\bwhat (?:can['’]?t|don['’]?t) i (?:eat|drink)\b"
    r"|^\W*do i (?:eat|drink) [a-z ]{2,20}\?*\s*$"
    r"|\bmy (?:dietary|food) (?:preferences|restrictions|needs)\b",
    re.IGNORECASE,
)
# Questions about one's tastes at large: 我的偏好是什么, 你记得我的口味吗, 我喜欢什么,
# "what are my preferences", "what do I like?", "do I like jazz?".
ASKS_ANY_RE = re.compile(
    r"我(?:的)?(?:偏好|口味|喜好)(?:是)?(?:什么|啥|有哪些)|(?:记得|知道)我(?:的)?(?:偏好|口味|喜好)"
    r"|^\W*我(?:都)?喜欢(?:什么|啥)[？?呀呢吗]*$|(?:知道|记得)我(?:都)?喜欢(?:什么|啥)"
    r"|\bwhat are my preferences\b|^\W*what do i like\s*\?*\s*$|^\W*do i like [a-z ]{2,20}\?*\s*$"
    r"|\bdo you (?:know|remember) my preferences\b",
    re.IGNORECASE,
)
# A request in the same message makes it a search that minds the tastes, not a question about
# them (「你知道我口味的，帮我找个周末吃饭的地方」, "any restaurants that work with my dietary
# needs tonight?": an audit, session 48).
_REQUEST = (
    r"(?:找|推荐|有没有|帮我|想去|去哪|餐厅|饭店|聚餐|店"
    r"|\b(?:find|any|recommend|suggest|where|spots?|restaurants?|places?|dinner|lunch|tonight)\b)"
)
# The router's rule: either question, with no request beside it, is CHAT's (no tool).
ASKS_RE = re.compile(
    rf"^(?![\s\S]*{_REQUEST})[\s\S]*?(?:{ASKS_EATING_RE.pattern}|{ASKS_ANY_RE.pattern})",
    re.IGNORECASE,
)


def asked_categories(text: str) -> tuple[str, ...] | None:
    """Return the persona categories a question about the user's tastes reads (() for every
    category), or None when the message asks nothing of the kind."""
    if not ASKS_RE.search(text or ""):
        return None
    if ASKS_EATING_RE.search(text or ""):
        return ALLERGY if _ASKS_ALLERGY_RE.search(text) else EATING
    if ASKS_ANY_RE.search(text or ""):
        return ()
    return None


def compose_told_preferences(ctx: RuntimeContext) -> str | None:
    """Return the answer to a question about the user's tastes from the stated preferences, or
    None when the message asks nothing of the kind or none bearing on it was stated (the
    memory search may still find it said in passing)."""
    categories = asked_categories(ctx.message)
    if categories is None:
        return None
    english = is_english(ctx.message)
    told = preferences_said.stated_all(
        (
            (category, value)
            for category, value in preferences_said.persona_stated(ctx.persona)
            if not categories or category in categories
        ),
        english=english,
    )
    if not told:
        return None
    if english:
        return f"You told me: {', '.join(told)}. I keep that in mind when I look for you."
    return f"你跟我说过：{'、'.join(told)}。帮你找活动的时候我都会考虑。"


def compose_none_told(ctx: RuntimeContext) -> str:
    """Return the answer to a question about the user's tastes when none was told."""
    if is_english(ctx.message):
        return (
            "You haven't told me about that yet. Tell me (for example \"I don't eat spicy food\") "
            "and I'll remember it."
        )
    return "你还没跟我说过这方面的偏好。告诉我（比如「我不吃辣」），我会记下来。"
