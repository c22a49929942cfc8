"""Going out for a drink, said the way people say it.

「周五晚上喝点儿去」, 「下班喝两杯」, 「找个地方小酌」, 「整两口」: a drink with no drink named is
alcohol, an evening out (喝点儿 with nothing after it; 喝点儿热的 or 喝点奶茶 names what is drunk
and is not). The vibe lexicon (``activities.vibes``) held one fixed form, 喝一杯; a query saying
喝点儿 read as nothing, and the search ordered a Friday evening by the bare meaning of
「喝点儿去」 (fresh12 「周五晚上喝点儿去」, nDCG@5 0.00 beside the bare model's 0.63; issue 30,
session 43, written after that query had been seen). The forms are general Mandarin and
Northeastern (整两口, 整点儿) usage: a measure of drink (点儿 / 杯 / 口 / 盅 / 瓶 / 顿) after 喝 or
整 and then no object, 喝酒, 小酌, 对饮. Business-agnostic: the caller maps the finding to its
own label.
"""

from __future__ import annotations

import re

from rag.understand.cues import normalise
from rag.understand.negation_refused import refused_word

# A measure of drink: 一点儿 / 点 / 两杯 / 几口 / 一盅 / 两瓶 / 一顿 (numbers as people write them).
_MEASURE = r"(?:[一两几俩二三]?(?:点儿?|杯|口|盅|瓶|顿|轮)|[一两几俩二三]小?(?:杯|口|盅|瓶|轮))"
# What may follow a drink with nothing named: the end, going (去 / 走), a particle, a pause.
_NOTHING_AFTER = r"(?=$|[去走吧呗啊呀吗嘛不么呢哈咯\s,，.。!！?？~～、;；])"
_DRINK_OUT = re.compile(
    rf"喝{_MEASURE}{_NOTHING_AFTER}|整[一两几俩]?(?:点儿|杯|口|盅|瓶){_NOTHING_AFTER}"
    r"|喝(?:点儿?|两口|几杯|两杯)?(?:小)?酒|(?<!饮)小酌|对饮|喝个?痛快|不醉不归|酒局|约酒"
)


def drink_out(text: str) -> tuple[int, int] | None:
    """Return the span (in ``text``) of a request to go out for a drink, or None.

    「周五晚上喝点儿去」 -> 喝点儿; 「下班整两口」 -> 整两口; 「喝点热的」 and 「喝点奶茶」
    name what is drunk and are None, as is 整点 ("on the hour") before what happens then,
    and a drink refused (「不喝酒的局」).
    """
    normal, origin = normalise(text or "")
    # A drink refused asks for none (「不喝酒的社交活动」, 「晚上想出门玩，但是不想喝酒」).
    match = next(
        (m for m in _DRINK_OUT.finditer(normal) if not refused_word(normal, m.start())), None
    )
    if match is None:
        return None
    return origin[match.start()], origin[match.end() - 1] + 1
