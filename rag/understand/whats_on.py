"""A request made only of a time and "what is there" (「下周有什么好玩的」, "what's on tonight").

Read by the activities search (such a request asks for something to do, whatever its words
resemble) and by its reasons (the asking words are not a topic a result is "close in meaning
to").
"""

from __future__ import annotations

import re

# What a request made only of a time says besides it: what there is (「今天早上有什么」, "what's
# on tonight"). Such a request reads like the news questions of the intent examples when its
# time is ignored (a morning already over keeps its words in the text the model reads), yet it
# asks for nothing but what is on. General question words (issue 30, session 42). English
# "what's" or "what is" alone asks what the time is ("what is thanksgiving", "what's today",
# "what is dec 5": session 42 audit): only "on", "happening" or "going on" after it asks what
# there is.
_WHATS_ON = re.compile(
    r"^(?:有什么|有啥|有没有什么|有哪些|都有什么|有什么(?:活动|安排|好玩的|可以去的|可以玩的)|"
    # 有啥好玩的, 有什么有意思的推荐 (session 45, a make-run look).
    r"有(?:什么|啥)(?:好玩|有意思|好耍)的?(?:推荐)?|"
    r"干嘛|干什么|干啥|做什么|做点什么|去哪|去哪儿|去哪里|玩什么|搞咩|有咩搞|"
    r"what(?:'?s|\s+is)\s+(?:on|happening|going\s+on)|anything(?:\s+on)?|what\s+to\s+do|"
    r"things\s+to\s+do|anything\s+fun(?:\s+to\s+do)?|what\s+is\s+there\s+to\s+do|"
    r"anything\s+(?:happening|going\s+on|to\s+do))[\s?？!！。.~～吗呢啊呀嘛]*$"
)

_TIME_ON = re.compile(r"on\b", re.IGNORECASE)


def whats_on_at(found) -> bool:
    """Return whether a read query (``rag.understand.Understanding``, or None) is a time and
    "what is there" only (「今天早上有什么」, "what's on tomorrow night"), whether its time was
    applied or ignored (already over)."""
    if found is None:
        return False
    spans = [p.span for p in found.times] + [i.span for i in found.ignored]
    if not spans:
        return False
    text = found.text
    for start, end in sorted(spans, reverse=True):
        # The time reader takes the "on" of "what's on tonight" with its time ("on tonight");
        # it is the question's "what's on", kept.
        kept = _TIME_ON.match(text, start, end)
        text = text[:start] + (" on " if kept else " ") + text[end:]
    return bool(_WHATS_ON.match(" ".join(text.split()).strip(" ,，")))
