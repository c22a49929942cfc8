"""A question asking for a judgement: is a thing rude, polite, normal, allowed; should I tip.

"is it rude to take a call on the train", 「用纸巾占座算不算没礼貌」, "X is rude or not ah": the
person asks what is done or thought, an answer, not something to find. Such a question names
ordinary things (a seat, a train, a meal) and its meaning sits beside the listings that share
them, and close to no example request for something else (manners are no topic of
activities/fixtures/intent_elsewhere.txt), so neither the intent gate nor the margin gates say
it. What says it is the form: a judgement of conduct asked as a question (a yes/no question
with a word of manners or of what is normal or allowed, or the A-not-A and "or not" forms of
it), or tipping.

Written from general knowledge of how people ask about manners and custom in Chinese and
English (issue 30, session 42), after fresh11's "chope seat with tissue paper is rude or not
ah" had been seen (development data): of its words only "rude" and "or not" are here.
Business-agnostic; a surface decides what else makes such a query a request (activities: an
activity word, as for the weather).
"""

from __future__ import annotations

import re

from rag.understand.cues import form_text

# Words judging conduct: manners, what is allowed (_EN_CONDUCT), and what is usual (with it,
# _EN_JUDGED). "ok", "normal", "a thing" judge a plan as readily as conduct ("jazz tonight ok or
# not" asks whether the plan suits): the bare "X or not" form takes only a word of conduct
# (session 42 audit).
_EN_CONDUCT = (
    r"rude|impolite|polite|disrespectful|offensive|bad\s+manners|good\s+manners|bad\s+form|"
    r"(?:socially\s+)?acceptable|appropriate|inappropriate|frowned\s+upon|"
    r"allowed|legal|illegal|against\s+the\s+(?:law|rules)"
)
_EN_JUDGED = rf"{_EN_CONDUCT}|normal|weird|strange|awkward|ok|okay|alright|a\s+thing"
_EN_OPINION = re.compile(
    # is it rude to ..., would it be weird if ..., is that normal
    rf"\b(?:is|was|would|will)\s+(?:it|that|this)\s+(?:be\s+)?(?:considered\s+)?(?:{_EN_JUDGED})\b"
    rf"(?:\s+(?:to|if|when|for)\b|\s*[?？]|\s*$)"
    # X is rude or not (ah): the "or not" of Singapore and Malaysian English, and "X rude?"
    rf"|\b(?:is|are|consider(?:ed)?)\s+(?:very\s+|quite\s+|so\s+)?(?:{_EN_CONDUCT})\s+or\s+not\b"
    rf"|\b(?:{_EN_CONDUCT})\s+or\s+not\b"
    # tipping, and what the custom is
    r"|\b(?:should|do|must)\s+(?:i|we|you|people)\s+tip\b|\bhow\s+much\s+(?:should\s+i\s+|to\s+)?tip\b"
    r"|\btipping\s+(?:culture|etiquette|custom)\b|\betiquette\s+(?:for|of|when|in|on)\b"
    r"|\bwhat\s+do\s+(?:you|people)\s+think\s+(?:of|about)\b|\bdo\s+you\s+(?:like|love|hate)\b"
)
_ZH_JUDGED = (
    r"礼貌|没礼貌|不礼貌|失礼|没素质|不文明|文明|合适|妥当|正常|奇怪|尴尬|犯法|违法|违规|丢人|过分"
)
# 算 judges only as a verb of its own: not inside 预算 (a budget), 打算, 计算, 估算, 就算, 结算,
# 划算 (「预算合适的音乐节」, session 42 audit).
_ZH_SUAN = r"(?<![预打计估就结划清核总盘推换])算"
# 你觉得 / 你认为 asks the one spoken to for an opinion only when the question is one of
# judgement: it ends in 怎么样, 好不好, 对吗 or weighs 该不该; 「你觉得这周末有什么演出」 and
# 「你觉得附近哪家咖啡馆好」 ask for something to find (session 42 audit).
_ZH_ASKED_OPINION = (
    r"你(?:觉得|认为)[^，。,.;；!！?？]{0,20}?(?:(?:怎么样|咋样|如何|好不好|好吗|对不对|对吗|行不行|行吗|"
    r"可以吗|可不可以|妥吗|有必要吗)[\s?？。!！~～呢啊呀嘛]*$|该不该|应不应该|应该不应该)"
    r"|你怎么看(?:待)?"
)
_ZH_OPINION = re.compile(
    # 算不算没礼貌, 是不是不礼貌, 礼貌吗, 合不合适, 会不会很尴尬, 违法吗
    rf"(?:{_ZH_SUAN}不算|是不是|会不会|{_ZH_SUAN}是|{_ZH_SUAN})(?:很|太|有点|有些)?(?:{_ZH_JUDGED})"
    rf"|(?:{_ZH_JUDGED})(?:吗|嘛|么|不|没)[\s?？。!！~～]*$"
    r"|合不合适|礼不礼貌|正不正常|违不违法|尴不尴尬"
    # 要不要给小费, 小费给多少, 你觉得...怎么样 (an opinion of the one spoken to)
    rf"|小费|{_ZH_ASKED_OPINION}"
    # Cantonese: 系咪好冇礼貌, 会唔会好失礼, 啱唔啱
    rf"|(?:系咪|系唔系|会唔会|算唔算)(?:好|太|有啲)?(?:{_ZH_JUDGED}|冇礼貌|失礼|核突)"
)


def opinion_question(text: str) -> bool:
    """Return whether the query asks for a judgement of conduct or custom ("is it rude to
    ...", 「算不算没礼貌」, "should I tip") rather than for something to find."""
    normalised = form_text(text)
    if not normalised:
        return False
    return bool(_EN_OPINION.search(normalised) or _ZH_OPINION.search(normalised))
