"""The offline answers of a chat turn and of a question about what the user said before.

:func:`compose_chat` answers the CHAT mode without an LLM: a question about what the user said
before from memory (:func:`compose_recall`: the user's own statements, a summary's sentence or a
day's messages), a question about live information by saying what the agent can do, anything
else by acknowledging it with what the persona holds.
"""

from __future__ import annotations

import re
from datetime import datetime

from django.utils import timezone

from agent import extract, preferences_said
from agent.confirming import NOTHING_TO_CONFIRM
from agent.context import RuntimeContext
from agent.extract import is_english
from agent.preferences_said import extract_preferences
from agent.recall_questions import asks_about_a_day, is_recall
from agent.told_preferences import asked_categories, compose_none_told, compose_told_preferences
from memory.search import content_tsquery, tsquery_lexemes
from memory.selectors import messages_matching
from rag.chunking import split_sentences

MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
QUOTE_CHARS = 200
# The second best remembered message is quoted too when it is about as close as the best.
SECOND_QUOTE_GAP = 0.05
PERSONA_NOTE_MAX = 3
# What a person cannot eat: it bears on a food listing, and on no other.
EATING_CATEGORIES = ("allergy", "food")
# A question about a day quotes at most this many of the user's turns of that day.
DAY_QUOTES = 5


def _date_text(iso: str, english: bool) -> str:
    day = timezone.localtime(datetime.fromisoformat(iso))
    if english:
        return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"
    return f"{day.year}年{day.month}月{day.day}日"


def remembered(ctx: RuntimeContext) -> list:
    """Return the knowledge chunks quoting what the user said that best answer the message.

    The user's own messages (not the assistant's, not summaries, not earlier recall
    questions), in the knowledge pass's order: the best, and the second when it shares words
    with the question too and is about as close (``SECOND_QUOTE_GAP``). When none is left (the
    turns of an old chat went with retention), the best chat summary holding a sentence with
    the question's words (:func:`summary_quote`). A question for the name takes only a message
    that tells one.
    """
    said = _said_by_user(ctx)
    if asks_about_a_day(ctx.message):
        # The day's turns, read as a range: what the user raised that day, in time order.
        return sorted((c for c in said if c.meta.get("range")), key=lambda c: c.meta["ts"])[
            :DAY_QUOTES
        ]
    if asks_only_for_name(ctx.message):
        # Only a message that tells a name answers it ("hi, I'm Amy"), not the nearest one
        # ("I love board games" was quoted for "what's my name?"; a make-run look, session 49).
        said = [c for c in said if NAME_TOLD_RE.search(c.body or "")]
        return said[:1]
    if not said:
        return [c for c in ctx.knowledge if _is_summary(c) and summary_quote(c, ctx.message)][:1]
    if len(said) < 2:
        return said
    second = said[1]
    if second.meta.get("lexical") and second.priority >= said[0].priority - SECOND_QUOTE_GAP:
        return said[:2]
    return said[:1]


def _is_summary(chunk) -> bool:
    return chunk.meta.get("kind") == "summary" and bool(chunk.meta.get("ts"))


def summary_quote(chunk, question: str) -> str:
    """Return the sentences of a summary chunk holding a content word of ``question``.

    The content words are those the memory search matches on (``memory.search.content_tsquery``:
    no stopwords, no words that ask about a memory, no time phrase); "" when none holds one.
    """
    body = (chunk.body or "").strip()
    words = [w.lower() for w in tsquery_lexemes(content_tsquery(question or ""))]
    sentences = [body[span.start : span.end].strip() for span in split_sentences(body)]
    holding = [s for s in sentences if s and any(w in s.lower() for w in words)]
    return " ".join(holding) if any(s.isascii() for s in holding) else "".join(holding)


# Where a message's clauses part: a comma, a full stop, a semicolon, an exclamation or a question
# mark in either script (an English full stop only before a space, not inside "3.5").
CLAUSE_END_RE = re.compile(r"[，,。;；!！?？\n]|(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bDr)\.(?=\s)")
# A question for the user's name, and the clause of a message that tells it.
NAME_ASKED_RE = re.compile(
    r"我叫(?:什么|啥)|我的名字|我是谁|\bmy name\b|\bwho am i\b|what(?:['’]?s| is) my name", re.I
)
OTHER_QUESTION_RE = re.compile(r"哪|什么|几|多大|多少|\b(?:where|when|how|what|who|which)\b", re.I)
NAME_TOLD_RE = re.compile(
    r"我叫|名字|\bmy name\b|\bcall me\b|(?-i:\b[Ii](?:['’]?m| am) [A-Z][a-z]+\b)"
    # 我是小周 (not 我是做设计的, 我是上海人: an occupation or a place of origin).
    r"|我是(?![^，,。！!？?\s]*[的人])[^，,。！!？?\s]{1,4}(?=[，,。！!？?\s]|$)",
    re.I,
)


# The words of NAME_TOLD_RE as a PostgreSQL regular expression: it finds the candidates, the
# Python rule decides (PostgreSQL has no lookbehind and no case-sensitive part).
NAME_TOLD_SQL = r"我叫|名字|my name|call me|i'?m [a-z]|i am [a-z]|我是"
# Asking what the assistant knows of the user as a whole: 你都知道我什么, 你对我了解多少, 你记得我
# 哪些事, "what do you know about me?", "what have I told you?" (a make-run look, session 50:
# answered "I don't know the answer to that" right after the user gave a name and a diet).
ABOUT_ME_RE = re.compile(
    r"你(?:都|还)?(?:知道|记得|了解)(?:关于)?我(?:的)?(?:些)?(?:什么|啥|哪些|多少)(?:事|事情)?"
    r"(?=[吗呢呀啊？?。!！\s]*$)"
    r"|你对我(?:有)?(?:多少|什么|哪些)?了解|关于我你(?:都)?(?:知道|记得)"
    r"|\bwhat (?:do|did) you (?:know|remember) about me\b|\bwhat have i told you\b"
    r"|\bwhat you know about me\b",
    re.I,
)


# The plain ways of telling a name (我叫小王, "my name is Lin", "call me Lin", "I'm Lin"): a
# message saying one outranks a later 我是学生 (an audit, session 50: 我是学生 was quoted).
NAME_SAID_RE = re.compile(
    r"我叫|名字(?:叫|是)(?!什么|啥)|\bmy name is\b|(?-i:\bcall me [A-Z])"
    r"|(?-i:\b[Ii](?:['’]?m| am) [A-Z][a-z]+\b)",
    re.IGNORECASE,
)


def name_told(user) -> tuple[str, str] | None:
    """Return the clause of the user's latest message telling their name (a plain telling
    before a 我是X one) and its ISO time, or None when no message tells one."""
    told = []
    for row in messages_matching(user=user, pattern=NAME_TOLD_SQL, role="user"):
        said = row.content or ""
        asked = NAME_ASKED_RE.search(said) or said.rstrip().endswith(("?", "？"))
        if NAME_TOLD_RE.search(said) and not asked:
            told.append((not NAME_SAID_RE.search(said), row))
    if not told:
        return None
    _, row = min(told, key=lambda pair: pair[0])  # the latest plain telling, else the latest
    return quoted_part(row.content, "what's my name"), row.ts.isoformat()


def compose_about_me(ctx: RuntimeContext) -> str:
    """Return what the assistant knows of the user: the name told, the stated preferences, and
    that anything else said can be asked about."""
    english = is_english(ctx.message)
    named = name_told(ctx.user)
    told = preferences_said.stated_all(
        preferences_said.persona_stated(ctx.persona), english=english
    )
    parts = []
    if english:
        if named:
            parts.append(f'You told me your name on {_date_text(named[1], True)}: "{named[0]}".')
        if told:
            parts.append(f"Your tastes: {', '.join(told)}.")
        if not parts:
            return (
                "You haven't told me about yourself yet. Tell me your name or what you like "
                "(\"I don't eat spicy food\") and I'll remember it."
            )
        return " ".join(parts) + " Ask me about anything else you told me, too."
    if named:
        parts.append(f"你在{_date_text(named[1], False)}告诉过我：「{named[0]}」。")
    if told:
        parts.append(f"你的偏好：{'、'.join(told)}。")
    if not parts:
        return "你还没跟我说过自己的事。告诉我你的名字或喜好（比如「我不吃辣」），我会记下来。"
    return "".join(parts) + "你跟我说过的其他事，也可以随时问我。"


def asks_only_for_name(question: str) -> bool:
    """Return whether ``question`` asks for the user's name and nothing else."""
    asked = NAME_ASKED_RE.search(question or "")
    return bool(asked) and not OTHER_QUESTION_RE.search(
        question[: asked.start()] + question[asked.end() :]
    )


def quoted_part(body: str, question: str) -> str:
    """Return the clause of a user's message that tells their name when ``question`` asks it,
    else the whole message.

    "我叫什么名字" asked after "你好，我叫林晓，在杭州上班，对花生过敏" quotes 「我叫林晓」, not the
    whole introduction (a make-run look, session 48). Only the name: for any other question the
    clause holding its word is not always the answer ("what does Mia like?" after "Mia is
    visiting, she loves climbing"), so the message is quoted whole.
    """
    if not asks_only_for_name(question):
        return body  # not the name, or more than it ("我叫什么名字，在哪上班")
    clauses = [c.strip() for c in CLAUSE_END_RE.split(body or "") if c.strip()]
    telling = [c for c in clauses if NAME_TOLD_RE.search(c)]
    if not telling or len(telling) == len(clauses):
        return body
    return ", ".join(telling) if body.isascii() else "，".join(telling)


def _said_by_user(ctx: RuntimeContext) -> list:
    """Return the knowledge chunks of the user's own statements, in the pass's order."""
    asked = (ctx.message or "").strip()
    return [
        c
        for c in ctx.knowledge
        if c.meta.get("role") == "user"
        and c.meta.get("kind") != "summary"
        and c.meta.get("ts")
        and (c.body or "").strip()
        and (c.body or "").strip() != asked
        and not is_recall(c.body or "")
        and not (c.body or "").rstrip().endswith(("?", "？", "吗", "呢", "么"))
    ]


def compose_recall(ctx: RuntimeContext) -> str:
    """Return the answer to "what did I say": the remembered messages quoted with their dates."""
    english = is_english(ctx.message)
    found = remembered(ctx)

    def quoted(chunk) -> str:
        body = (chunk.body or "").strip()
        if _is_summary(chunk):
            body = summary_quote(chunk, ctx.message)
        elif not asks_about_a_day(ctx.message):
            body = quoted_part(body, ctx.message)
        if len(body) > QUOTE_CHARS:
            body = body[:QUOTE_CHARS] + "…"
        return f'"{body}"' if english else f"「{body}」"

    if not found:
        if english:
            return (
                "I looked through what you've told me but couldn't find that. "
                "Tell me again and I'll remember it."
            )
        return "我翻了翻你跟我说过的话，没找到这件事。再告诉我一次吧，我会记下来。"
    dates = [_date_text(c.meta["ts"], english) for c in found]
    if _is_summary(found[0]):
        # Only the summary is left of that chat: say so rather than quote it as the user's words.
        if english:
            return f"From the summary of our chat up to {dates[0]}: {quoted(found[0])}"
        return f"我们{dates[0]}及之前那次对话的摘要里记着：{quoted(found[0])}"
    if asks_about_a_day(ctx.message):
        lines = [f"- {quoted(c)}" for c in found]
        if english:
            return f"On {dates[0]} you told me:\n" + "\n".join(lines)
        return f"{dates[0]}你跟我说了：\n" + "\n".join(lines)
    if len(found) == 1:
        if english:
            return f"On {dates[0]} you told me: {quoted(found[0])}"
        return f"你在{dates[0]}跟我说过：{quoted(found[0])}"
    if english:
        lines = [f"- On {d}: {quoted(c)}" for d, c in zip(dates, found, strict=True)]
        return "Here is what you told me:\n" + "\n".join(lines)
    lines = [f"- {d}：{quoted(c)}" for d, c in zip(dates, found, strict=True)]
    return "你跟我说过：\n" + "\n".join(lines)


def persona_values(
    ctx: RuntimeContext,
    *,
    english: bool,
    results: list[dict] | None = None,
    limit: int = PERSONA_NOTE_MAX,
) -> list[str]:
    """Return the persona's stated preferences as phrases (``preferences_said.stated_in``) in the
    answer's language, the most relevant first.

    ``results``: the search results an answer lists; then only the preferences bearing on them
    are named: what the user cannot eat when one of them is food, a taste when the search
    raised one of them by the user's stated preferences (its ``boost``). An answer saying "by
    your preferences: allergic to peanuts" over a Sunday walk claimed what the search never did
    (a make-run look, session 47); nothing listed, nothing bears.
    """
    chunks = [c for c in ctx.persona if c.meta.get("value")]
    if results is not None:
        boosted = any(
            (r.get("boost") or 0) > 0
            and (r.get("provenance") or {}).get("personalised") == "preferences"
            for r in results
        )
        # Any kind its type or title names (社交 "周五火锅局" is food too), not only the first.
        food = any(
            any(
                cue.label == "美食"
                for cue in extract.kinds_in(f"{r.get('type', '')} {r.get('title', '')}")
            )
            for r in results
        )
        chunks = [
            c for c in chunks if (food if c.meta.get("category") in EATING_CATEGORIES else boosted)
        ]
    phrases = preferences_said.stated_all(preferences_said.persona_stated(chunks), english=english)
    # A liking kept in the words it was said in (桌游, "board games") has no translation: an
    # English answer names no Chinese one ("by your preferences: board games, 桌游" was two
    # languages in one line; a make-run look, session 49); a Chinese answer names Latin ones
    # too (KTV, "board games"), as Chinese text does.
    return [p for p in phrases if not (english and extract.CJK_RE.search(p))][:limit]


def compose_chat(ctx: RuntimeContext, preferences: list[tuple[str, str]]) -> str:
    """Return a warm small-talk answer from templates, in the language of the message.

    A question about what the user said before is answered from memory (:func:`compose_recall`).
    """
    text = ctx.message
    english = is_english(text)
    if ctx.forgotten is not None:  # "forget that I'm vegetarian" (agent.forgetting)
        return _forgotten_text(ctx.forgotten, english)
    if ctx.action == NOTHING_TO_CONFIRM:  # a bare yes with nothing proposed (agent.chat)
        if english:
            return (
                "OK. Nothing is waiting for a yes right now: tell me what you'd like to do "
                "(find an activity, set one up or find company)."
            )
        return "好的。现在没有等你确认的事：想找活动、组局还是找搭子，跟我说就行。"
    if preferences:
        if english:
            said = ", ".join(
                preferences_said.stated_in(c, value, english=True) for c, value in preferences
            )
            return (
                f"Got it: {said}. I'll keep that in mind when I find activities or people for you."
            )
        said = "、".join(
            preferences_said.stated_in(c, value, english=False) for c, value in preferences
        )
        return f"记住啦：{said}。之后帮你找活动或约人时我会考虑这一点。"
    if ABOUT_ME_RE.search(text):
        return compose_about_me(ctx)
    if asked_categories(text) is not None:
        # 我有什么忌口 / "what am I allergic to": the user's own words when memory found a
        # statement sharing the question's word (quoted with its date), else the stated
        # preferences (written at once: a message's vector may still be pending), else "not
        # told yet" rather than the nearest unrelated message. Not a request sharing the word
        # (周末有什么好吃的活动), nor a statement of a preference no longer in force ("forget that
        # I'm allergic to peanuts" left it quoted back): make-run looks and an audit, session 54.
        said = _said_by_user(ctx)
        body = (said[0].body or "") if said else ""
        in_force = {(c.meta.get("category"), c.meta.get("value")) for c in ctx.persona}
        statement = not extract.QUESTION_RE.search(body) and all(
            stated in in_force for stated in extract_preferences(body)
        )
        if said and statement and said[0].meta.get("lexical"):
            return compose_recall(ctx)
        return compose_told_preferences(ctx) or compose_none_told(ctx)
    if is_recall(text):
        return compose_recall(ctx)
    if kept := _asked_to_keep(text):
        if english:
            return f'Noted: "{kept}". Ask me about it any time.'
        return f"记下了：「{kept}」。想不起来的时候问我就行。"
    if LIVE_INFO_RE.search(text) and (unknown := compose_unknown(text)):
        return unknown
    if _asks_about_something_told(ctx):
        return compose_recall(ctx)
    if english:
        if re.search(r"thank", text, re.I):
            return "You're welcome! Anything else on your mind, or something to do? Just ask."
        if re.search(r"\b(?:hello|hi|hey|good (?:morning|evening))\b", text, re.I):
            return (
                "Hi! I'm Xiaoyi: I can chat, find activities, set one up or find you company. "
                "What would you like to do today?"
            )
        return compose_unknown(text) or "I see, I'll remember that. Tell me more, I'm listening."
    if re.search(r"谢谢|多谢|thank", text, re.I):
        return "不客气！还有什么想聊的，或者想找点事做，随时叫我。"
    if re.search(r"难过|伤心|失恋|压力|累|烦|不开心|被.*骂", text):
        return "听起来你现在挺不容易的，抱抱你。想说说发生了什么吗？我在听。"
    if re.search(r"你好|在吗|嗨|早上好|晚上好|hello|hi\b", text, re.I):
        return "你好呀！我是小忆，可以陪你聊天，也能帮你找活动、组局、找搭子。今天想做点什么？"
    if re.search(r"晚安|睡了", text):
        return "晚安，好好休息，明天见！"
    if re.search(r"你是谁|你叫什么|你会什么|你能做什么|机器人", text):
        return (
            "我是小忆，一个会记住你偏好的生活助手：能聊天、推荐活动、帮你发起活动、找搭子，"
            "也能管理你报名的活动。"
        )
    return compose_unknown(text) or "嗯嗯，我明白。多跟我说说吧，我都记着呢。"


def _forgotten_text(forgotten: list, english: bool) -> str:
    """Return the answer to a request to forget: what was forgotten, or that nothing was kept."""
    said = [preferences_said.stated_in(p.category, p.value, english=english) for p in forgotten]
    if english:
        if not said:
            return "I didn't have that among what I keep about you, so there's nothing to forget."
        return f"OK, I've forgotten: {', '.join(said)}."
    if not said:
        return "我记着的偏好里没有这一条，不用删。"
    return f"好的，已经忘掉：{'、'.join(said)}。"


def _asks_about_something_told(ctx: RuntimeContext) -> bool:
    """Return whether the message is a question sharing a word with something the user told
    before ("what does Mia like?" after "my sister Mia is visiting, she loves climbing"): the
    answer is what they said, not "I don't know". A make-run look (session 47); the memory
    search's lexical match (the knowledge pass's ``lexical``) is the shared word."""
    if not QUESTION_RE.search(ctx.message or ""):
        return False
    said = _said_by_user(ctx)
    return bool(said) and bool(said[0].meta.get("lexical"))


def _asked_to_keep(text: str) -> str:
    """Return what a message asks to be remembered (我下周三去北京出差，帮我记一下: 我下周三去北京
    出差), without the asking; "" when it asks nothing of the kind or says nothing else."""
    cue = extract.REMEMBER_RE.search(text)
    if cue is None or extract.QUESTION_RE.search(text):  # 记住了吗？ asks, keeps nothing
        return ""
    if cue.group(0).lower().startswith("remember"):
        # "please remember that I hate mornings": what follows, "I hate mornings".
        rest = re.sub(r"^\s*that\b", "", text[cue.start() + len("remember") :], flags=re.I)
    else:
        rest = text[: cue.start()] + " " + text[cue.end() :]
    rest = re.sub(r"^[\s，,。.:：!！~～了]+|[\s，,。.:：!！~～吧哦啊呀哈]+$", "", rest)
    return rest[:QUOTE_CHARS] if len(re.sub(r"\W|了|谢谢|好的", "", rest)) >= 2 else ""


# Questions only live data answers (markets, prices, news, scores, forecasts, traffic): the
# agent has none of it, and says so instead of nodding along ("我都记着呢").
LIVE_INFO_RE = re.compile(
    r"股票|股市|大盘|[AaＡ]股|港股|美股|基金|汇率|比特币|币价|金价|油价|房价|新闻|头条|比分|赛果|"
    r"彩票|开奖|天气预报|天气怎么样|会不会下雨|路况|航班|"
    r"\b(?:stocks?|stock market|shares|nasdaq|dow jones|exchange rates?|bitcoin|crypto|news|"
    r"headlines|scores?|lottery|weather|forecast|gold price|oil price|traffic)\b",
    re.IGNORECASE,
)
# A question or a request to look something up (not a statement to listen to).
QUESTION_RE = re.compile(
    r"[？?]|吗|怎么样|怎样|如何|为什么|为啥|多少|几点|是不是|什么时候|告诉我|查一下|查查|帮我查|"
    r"^(?:what|how|is|are|was|were|will|why|when|who|which|where|can|could|do|does|did|"
    r"should)\b|\b(?:tell me|check|look up)\b",
    re.IGNORECASE,
)
CAN_DO_ZH = "我能帮你找活动、发起活动、找搭子，也记得你跟我说过的事。"
CAN_DO_EN = "I can find activities, set one up, find you company, and remember what you tell me."


def compose_unknown(text: str) -> str | None:
    """Return an honest answer to a question the agent has no way to answer, else None.

    Live information (a market, a price, the news, a score, the weather) is named as what it
    cannot look up; any other question is answered "I don't know". Nothing is recommended
    and no search filter is blamed: none was used.
    """
    english = is_english(text)
    if not QUESTION_RE.search(text.strip()):
        return None
    if LIVE_INFO_RE.search(text):
        if english:
            return (
                "I can't answer that: I have no live information such as stock prices, news "
                f"or the weather, and I'd rather not guess. {CAN_DO_EN}"
            )
        return f"这个我帮不上：我查不到股票、新闻、天气这类实时信息，也不想瞎猜。{CAN_DO_ZH}"
    if english:
        return f"I don't know the answer to that, and I have no way to look it up. {CAN_DO_EN}"
    return f"这个问题我答不上来，我手边没有这方面的信息。{CAN_DO_ZH}"
