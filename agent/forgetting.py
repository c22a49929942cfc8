"""Asking the assistant to forget a preference it keeps ("forget that I'm vegetarian", 忘掉我吃素
这件事, 我花生过敏那条删掉吧).

"forget that I'm vegetarian" stored "vegetarian" once more and answered "Got it: vegetarian" (a
make-run look, session 54): the sentence states what it asks to forget. Read as such, it stores
nothing; the preferences in force it names are deleted when the turn is saved
(``memory.services.preference_delete``, recorded as the agent's change) and the answer says which.
So are the user's messages that said nothing but one of them ("I'm vegetarian", 我吃素:
:func:`messages_stating`), so that recall does not quote it back; a message saying more stays.
"""

from __future__ import annotations

import re

from agent.extract import CLOSE_PERSON_EN, CLOSE_PERSON_ZH, read
from agent.naming import said_in
from agent.preferences_said import (
    THINGS_ZH_EN,
    VALUES_ZH_EN,
    extract_preferences,
    stated_in,
    told_already,
)
from agent.triggers import DEADLINE_RE
from memory.models import Role
from memory.selectors import messages_latest, messages_matching, preferences_list

# A fact about oneself asked to be forgotten: "forget that I'm …", "forget about my …", "don't
# remember that I …", 忘掉我…, 别记我…了, 删掉我…; or said first and forgotten after it (我吃素这
# 件事忘了吧, 我花生过敏那条删掉吧). Not "I forgot my keys", 我忘了带钥匙, "I don't remember my
# login", "delete my draft", "forget the partner search" (agent.extract.PARTNER_STOP_RE).
FORGET_RE = re.compile(
    # Not "don't forget that I'm vegetarian", "never forget …", "did you forget …?" (asking it
    # to be kept: an audit, session 54, found them deleting the allergy they named).
    r"(?<!n't )(?<!not )(?<!never )(?<!did you )(?<!have you )(?<!did u )"
    r"\bforget\s+(?:that\s+|about\s+)?"
    r"(?=(?:i|i'?m|i am|i'?ve)\b|my\b[^.?!]{0,20}?\b(?:allerg|diet|preference))"
    r"|\b(?:don'?t remember|stop remembering)\s+that\s+(?=(?:i|i'?m|i am|i'?ve|my)\b)"
    r"|^\W*(?:请|帮我)?(?:忘掉|忘记|别记|不用记|删掉|删除)(?:住)?(?=我|关于我)"
    r"|^\W*我[^，,。？?]{1,16}?(?:这件事|这个|这条|那条|那个)?(?:你)?(?:就)?"
    r"(?:忘掉|忘了|删掉|删了|别记|不用记)(?:吧|了|吧了)?\W*$",
    re.IGNORECASE,
)
# What says "forget" in the message, to read what it asks to forget.
_FORGET_WORDS_RE = re.compile(
    r"\b(?:please\s+)?(?:forget|don'?t remember|stop remembering|delete|remove)\s+"
    r"(?:that\s+|about\s+)?"
    r"|请|帮我|(?:忘掉|忘记|忘了|别记|不用记|删掉|删了|删除)(?:住)?(?:吧|了)*"
    r"|这件事|这个|这条|那条|那个",
    re.IGNORECASE,
)


# A question ("did you forget that I'm vegetarian?", 你忘记我吃素了吗): asking, not telling.
_ASKED_RE = re.compile(r"[?？]\s*$|[吗嘛么呢]\W*$")


def asks_to_forget(message: str) -> bool:
    """Return whether a message asks to forget something the user told of themselves."""
    message = message or ""
    return bool(FORGET_RE.search(message)) and not _ASKED_RE.search(message)


def forget_clause(message: str) -> str:
    """Return the clause of a message that asks to forget (忘掉我不吃辣这件事，我对海鲜过敏 ->
    忘掉我不吃辣这件事): the others may state preferences of their own."""
    for clause in re.split(r"(?<=[，,。;；.!！])\s*", message or ""):
        if FORGET_RE.search(clause):
            return clause
    return message or ""


# The kinds of preference a thing named alone may be forgotten by ("forget about my peanut
# allergy": the thing is the value); a liking or a vibe only as stated ("forget that I'm going
# hiking on Saturday" is no liking of hiking: an audit, session 54).
_THING_CATEGORIES = ("allergy", "food", "dislikes")


def _values(value: str) -> set[str]:
    """Return a preference's value in both languages."""
    values = {value, VALUES_ZH_EN.get(value, value), THINGS_ZH_EN.get(value, value)}
    return values | {zh for zh, en in {**VALUES_ZH_EN, **THINGS_ZH_EN}.items() if en == value}


def _is(preference, category: str, value: str) -> bool:
    """Return whether a stated (category, value) is this preference, in either language (a
    liking of an activity by its name in either: "board games" is 桌游, an audit, session 56)."""
    return category == preference.category and (
        value in _values(preference.value)
        or told_already((category, value), [(preference.category, preference.value)])
    )


def _names(told: str, preference, stated: list[tuple[str, str]]) -> bool:
    """Return whether what is asked to be forgotten names this preference: stated alike (in
    either language), or, for a thing avoided, its value or its phrase said in the text."""
    if any(_is(preference, c, v) for c, v in stated):
        return True
    category, value = preference.category, preference.value
    if category not in _THING_CATEGORIES:
        return False
    values = _values(value)
    said = told.lower()
    phrases = {stated_in(category, value, english=e).lower() for e in (True, False)}
    return any(said_in(v, said) for v in values if len(v) > 1) or any(p in said for p in phrases)


def preferences_to_forget(*, user, message: str) -> list:
    """Return the user's preferences in force that a request to forget names (none when the
    message asks nothing of the kind)."""
    if not asks_to_forget(message):
        return []
    told = _FORGET_WORDS_RE.sub(" ", forget_clause(message)).strip()
    stated = extract_preferences(told)
    return [p for p in preferences_list(user=user) if _names(told, p, stated)]


# How many of the user's latest messages are read for a statement in other words than the
# preference's value (我吃素 states 素食): a bound on one turn's work; older ones are found by the
# value's own words.
STATED_LOOKBACK = 500


def messages_stating(*, user, forgotten: list) -> list[str]:
    """Return the ids of the user's own messages that state a preference being forgotten ("I'm
    vegetarian", told weeks ago): deleted with it, so no recall quotes it back afterwards (a
    make-run look, session 54: the preference went, the message stayed and was quoted)."""
    if not forgotten:
        return []
    candidates = {
        m.message_id: m for m in messages_latest(user=user, role=Role.USER, limit=STATED_LOOKBACK)
    }
    for preference in forgotten:
        words = _values(preference.value) | {
            stated_in(preference.category, preference.value, english=e) for e in (True, False)
        }
        pattern = "|".join(re.escape(w) for w in sorted(words) if len(w) > 1)
        if pattern:
            for message in messages_matching(user=user, pattern=pattern, role=Role.USER):
                candidates.setdefault(message.message_id, message)
    ids = []
    for message_id, message in candidates.items():
        stated = extract_preferences(message.content)
        said = [(c, v) for c, v in stated if any(_is(p, c, v) for p in forgotten)]
        # Only a message saying nothing but what is forgotten: another preference, someone
        # else, a time or a request in it keeps it whole.
        if said and len(said) == len(stated) and _only_states(message.content):
            ids.append(message_id)
    return ids


# What else a message may say that is kept whatever preference it states: someone else (我老婆
# 吃素, "my son is allergic to peanuts"), a time or a task ("…, remind me on May 1"), a request
# or a question (帮我找个素食餐厅的活动), a request to forget itself. Session 55's audit found
# whole messages deleted with such things in them.
_SOMEONE_ELSE_RE = re.compile(
    r"\b" + CLOSE_PERSON_EN + "|" + CLOSE_PERSON_ZH + r"|\b(?:he|she|they|his|her|their)\b|[他她]",
    re.IGNORECASE,
)
_ASKS_RE = re.compile(
    r"[?？]|吗|帮我|找|想要|有没有|推荐|提醒"
    r"|\b(?:find|any|looking|show|recommend|suggest|remind|book|join|want)\b",
    re.IGNORECASE,
)
# A statement of a preference alone is short ("I'm vegetarian", 我花生过敏): a longer message
# tells more than the preference.
_STATEMENT_MAX_CHARS = 60


def _only_states(text: str) -> bool:
    """Return whether a message says nothing but the user's own preferences: no one else, no
    time or task, no request or question, no request to forget, and short."""
    return (
        len(text) <= _STATEMENT_MAX_CHARS
        and not _SOMEONE_ELSE_RE.search(text)
        and not _ASKS_RE.search(text)
        and not asks_to_forget(text)
        and not DEADLINE_RE.search(text)
        and not read(text).times
    )
