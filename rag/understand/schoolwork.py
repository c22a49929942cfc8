"""Schoolwork: a query asking for help with homework, an essay or an exam question.

「四级作文有没有万能模板」, 「这道题怎么做」, "help with my essay on the enlightenment": a piece of
school or exam work is named, and what is asked is an answer, a model text or a solution, not
something to do. Such queries sit near the study listings (a writing workshop, a maths club)
in meaning, and one asking "is there" (有没有) reads like a request for things to find. What
says it is the piece of work named: homework, an essay or composition, a paper, a test paper,
an exercise or "this question". A class, a club, a contest or a talk about it (「作文课」,
"essay writing workshop", "homework club") is something to do, and is not read as schoolwork.

Written from general knowledge of how students ask for help in Chinese and English (issue 30,
session 44), after fresh13's 「四级作文有没有万能模板」 had been seen answered (development
data: of its words only 作文 is here). Business-agnostic.
"""

from __future__ import annotations

import re

from rag.understand.cues import form_text

_ZH_WORK = re.compile(
    r"作业|作文|论文|习题|练习题|试卷|试题|真题|考题|范文|题目|解析式|"
    r"(?:这|那|第[一二三四五六七八九十0-9]{1,3})[道个]?(?:数学|物理|化学)?题"
    # The kinds of exam question a student practises (完形填空, 阅读理解, 选择题, 压轴题): general
    # knowledge of Chinese exams (issue 30, session 55, written after fresh25's 「英语完形填空有甚
    # 技巧」 had been seen answered: development data).
    r"|完形填空|阅读理解|(?:填空|选择|判断|应用|解答|计算|证明|压轴|附加|阅读|听力)题|文言文翻译"
)
_EN_WORK = re.compile(
    r"\b(?:homework|assignments?|coursework|essays?|dissertation|thesis|worksheets?|"
    r"past\s+papers?|exam\s+papers?|exam\s+questions?)\b"
)
# Something to do about the work: a class, a club, a contest, a talk, a study group.
_ZH_OUTING = re.compile(r"课|班|营|比赛|大赛|工作坊|讲座|沙龙|分享会|俱乐部|社|小组|角|活动")
_EN_OUTING = re.compile(
    r"\b(?:class(?:es)?|course|workshops?|clubs?|groups?|sessions?|lessons?|contest|"
    r"competition|talks?|lectures?|meetups?|events?|slam)\b"
)


def schoolwork_request(text: str) -> bool:
    """Return whether the query asks for help with a piece of school or exam work (「四级作文有
    没有万能模板」, "help with my essay"), not for a class or club about it (「作文课」)."""
    normalised = form_text(text)
    if not normalised:
        return False
    if _ZH_OUTING.search(normalised) or _EN_OUTING.search(normalised):
        return False
    return bool(_ZH_WORK.search(normalised) or _EN_WORK.search(normalised))
