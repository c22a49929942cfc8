"""Whether a message asks what the user said before (read by the knowledge pass and the offline
answers alike)."""

from __future__ import annotations

import re

from agent import extract
from memory.understanding import day_asked, time_zone

# A question about what the user said before: 我上周说我的猫叫什么？ / what did I tell you ...
# 来着 and "again" ask to be reminded (我对什么过敏来着, "what am I allergic to again?").
# 我叫什么 / 我的名字 / 我是谁 ask for what the user said about themselves, their name.
RECALL_ZH_RE = re.compile(
    # 提 not of 提醒 (我有哪些提醒 asks for the reminders: a make-run look, session 55).
    r"我.{0,8}?(?:说|提(?!醒)|讲|告诉你?)(?:过|了|的)?|还记得|记不记得|记得我|来着"
    r"|我(?:叫什么名字|叫啥名?|的名字是什么|是谁)[？?吗呀啊]*$"
)
# A question about what the assistant said, not the user (你上次推荐的那个展叫什么来着, "do you
# remember what you recommended?"): its answers are what is recalled.
ABOUT_THE_ASSISTANT_RE = re.compile(
    r"你(?:上次|之前|刚才|昨天)?(?:说|推荐|提|讲|发|给)|我们.{0,6}(?:聊|说)|"
    r"\byou (?:said|told|recommended|suggested|mentioned|sent|gave)\b|\bwe (?:talked|discussed)\b",
    re.I,
)
QUESTION_ZH_RE = re.compile(r"[？?]|什么|啥|吗|哪|谁|几|多少|怎么|来着[？?。!！吗呀啊呢]*$")


def is_recall(text: str) -> bool:
    """Return whether the message asks what the user said before (a question about what was
    discussed on one day, "5月2日我们聊了什么", included: :func:`asks_about_a_day`)."""
    text = text or ""
    if extract.RECALL_EN_RE.search(text) or asks_about_a_day(text):
        return True
    return bool(RECALL_ZH_RE.search(text) and QUESTION_ZH_RE.search(text))


def asks_about_a_day(text: str) -> bool:
    """Return whether the message asks what was discussed on one past day: memory answers it
    with that day's turns (a range read, ``memory.understanding.day_asked``)."""
    return day_asked(text or "", tz=time_zone(None)) is not None
