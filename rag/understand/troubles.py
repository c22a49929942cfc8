"""A trouble at home or with a service, and whom to call or what to do about it.

「暖气不热找谁」, 「空调漏水怎么办」, 「房东押金不退 咋个整」, "the heating isn't working, who do
I call": the person has a problem with a thing they use or a service they pay for, and wants it
mended, refunded or reported, not something to do. The form is two parts in one query: a fault
stated (a thing broken, leaking, blocked or cut off; not warm, not lit, not working; money not
returned or overdue; a belonging lost) and a request for help with it (whom to find, what to
do, how to complain or report a repair). Either alone is something else: 「不热的地方」 is a
request, 「无聊怎么办」 a need an outing answers (rag.understand.needs reads it first and the
caller keeps it a request), and a complaint or a repair report named outright (投诉, 报修,
"file a complaint") needs no fault beside it.

Written from general knowledge of how people report a fault in Mandarin, the northern and
southwestern colloquial (咋整, 咋个整, 上哪) and Cantonese (坏咗, 点算), and in English (issue
30, session 48), after fresh18's 「暖气不热找谁」 had been seen answered (development data), and
after the development sets' other faults (a leaking air conditioner, a deposit kept back, a
phone left in a taxi) had been seen emptied by the intent gate alone. English reads only who to
call or how to get it fixed: "what should I do" follows a breakup as readily as a leak.
Business-agnostic.
"""

from __future__ import annotations

import re

from rag.understand.cues import form_text
from rag.understand.needs import need_request

# A thing that does not work as it should, said of the thing: broken (not 饿坏了, 累坏了: "very"),
# leaking, a drain blocked, the power tripped, cut off; money kept back or overdue; a belonging
# lost. Such a fault with any help asked (怎么办 included) is a trouble.
_ZH_FAULT = re.compile(
    r"(?<![累饿热冷馋闷憋乐急气吓困渴晒冻笑疼忙美高兴])坏(?:了|掉|咗|左|啦)"
    r"|(?<![学])漏(?:水|电|气|雨)|(?:马桶|下水道|管道|水管|厕所|地漏|水池|洗手池|下水)[^，。,.;；]{0,2}?堵"
    r"|跳闸|断(?:水|电|网|气)|停(?:水|电|气|暖)"
    r"|(?:打不开|关不上|开不了|锁不上|用不了|连不上|上不了网|充不进电|充不上电|冲不上水)"
    r"|(?:押金|工资|钱|退款|欠款|货款|定金|订金)[^，。,.;；]{0,4}?(?:不退|不还|不给|没退|没还|没给|要不回|拖欠)"
    r"|(?:不|没|拒不)(?:退|还|给|发|结)(?:我)?(?:的)?(?:押金|工资|钱|退款|欠款|货款|定金|订金)"
    r"|(?:拖欠|克扣|欠薪|乱收费|多收费|扣押金)"
    # A belonging lost with a verb straight after it (「手机落出租车上了」, 「钱包丢车里了」),
    # the order rag.understand.errands' losing verbs (落在, 丢了) do not take.
    r"|(?:手机|钱包|钥匙|证件|身份证|护照|背包|行李|电脑|耳机|雨伞)[^，。,.;；]{0,3}?(?:丢|落|掉)"
)
# A state that may be a fault or the day's lot (「暖气不热」 or 「天不热了」, 「家里没网」 or a
# quiet evening, noise from the neighbours): a trouble only with help asked of someone
# (找谁, 咋回事), never with 怎么办 / 咋整 alone, which a bored or low person says as readily
# (an audit, session 48: 「周末不工作 不知道干嘛 咋整」, 「家里没网 周末咋整」).
_ZH_STATE_FAULT = re.compile(
    r"(?<![天])(?:不|没|唔|冇)(?:热|暖和?|亮|转|响|制冷|出水|出热水|来电|来水|出风|供暖|好使|灵)"
    r"(?!闹|门|情|心|爱|过)"
    r"|(?:没|冇)(?:有)?(?:热水|水|电|网|信号|暖气)(?:了|啦|咗)?(?=$|\s|[找怎咋点该去上打报投])"
    r"|扰民|噪音"
)
# Help asked of someone: whom to find or call, why it happens, getting it back or mended.
_ZH_ASKS_SOMEONE = re.compile(
    r"找谁|找哪个|找哪里|找哪儿|找哪|该找|(?:打|拨)(?:什么|啥|哪个|几号|多少)电话"
    r"|怎么回事|咋回事|咋个回事|要(?:得)?回来|修(?:好|得好)?(?:吗|不|没)"
)
# Help asked at large: what to do.
_ZH_HELP = re.compile(
    _ZH_ASKS_SOMEONE.pattern
    + r"|怎么办|咋办|咋整|咋个整|咋个办|怎么整|怎么弄|怎么处理|肿么办|点算|点搞|点处理"
)
# A complaint or a repair report named outright.
_ZH_REPORT = re.compile(r"投诉|举报|报修|维权|(?<!\d)12345(?!\d)|消协")
_EN_FAULT = re.compile(
    r"\b(?:is|are|isn'?t|aren'?t|'s|'re|keeps?|stopped|won'?t|doesn'?t|don'?t|not)\s+"
    r"(?:not\s+)?(?:working|broken|leaking|blocked|clogged|heating|draining|flushing|"
    r"turn(?:ing)?\s+on|come\s+on|coming\s+on)\b"
    r"|\b(?:leak(?:s|ing)?|burst\s+pipe|no\s+(?:hot\s+water|heating|power|water|"
    r"signal|wifi|internet)|power\s+went\s+out|landlord\s+(?:won'?t|will\s+not|refuses?))\b"
)
_EN_HELP = re.compile(
    r"\bwho\s+(?:do|should|can)\s+i\s+(?:call|contact|ring|phone|complain\s+to)\b"
    r"|\bhow\s+do\s+i\s+(?:get\s+it\s+fixed|report\s+it|complain)\b"
)
_EN_REPORT = re.compile(
    r"\b(?:file|make|lodge|submit)\s+a\s+complaint\b|\breport\s+(?:a|the)\s+"
    r"(?:repair|fault|leak|outage|noise)\b"
)


def trouble(text: str) -> bool:
    """Return whether the query reports a fault at home or with a service and asks whom to
    call or what to do (「空调漏水怎么办」, "boiler not working who do i call"; a state that may
    be the day's lot only with whom to call, 「暖气不热找谁」), or names a complaint or a repair
    report (「物业不管 去哪投诉」). The search reads it after the activity words
    (``activities.search_relevance.asks_elsewhere``)."""
    normalised = form_text(text)
    if not normalised or need_request(normalised):
        return False
    if _ZH_REPORT.search(normalised) or _EN_REPORT.search(normalised):
        return True
    return bool(
        (_ZH_FAULT.search(normalised) and _ZH_HELP.search(normalised))
        or (_ZH_STATE_FAULT.search(normalised) and _ZH_ASKS_SOMEONE.search(normalised))
        or (_EN_FAULT.search(normalised) and _EN_HELP.search(normalised))
    )


# --- paperwork at a public office -------------------------------------------------------------

# How, where or with which documents a piece of paperwork is done: renewing, replacing,
# applying for, withdrawing, activating, transferring or paying a bill (「居住证在哪办 要带啥材料」,
# 「公积金怎么提取」, 「驾照怎么换成本地的」, 「煤气费在哪交」, "what documents do I need for a
# visa"). An office's errand, not something to do. 办 and 交 only as the paperwork's own verb:
# 办派对 / 办生日会 is a party, 交朋友 a friend (not read: 办 and 交 close the clause or take a
# bill, a form or a document).
_HOW_ZH = r"(?:怎么|怎样|如何|咋个|咋|么样|点样)"
_WHERE_ZH = (
    r"(?:在哪里?|在哪儿|去哪里?|去哪儿|上哪儿?|哪里|哪儿|哪能|哪可以|边度|喺边度?)(?:可以|能)?"
)
_PAPER_VERB = (
    r"(?:补办|办理|挂失|续签|续期|延期|提取|激活|申领|申请|注销|过户|落户|报销|退税|缴费|交费|认证|开通"
    r"|换(?:证|照|领|新|本地|成)|(?:交|缴)(?=$|\s|[吗呢啊?？费税钱]))"
)
# The documents of a public office (not a diving licence or a gym card: a course, a club).
_DOCUMENT = (
    r"(?:签证|护照|身份证|居住证|暂住证|驾照|驾驶证|行驶证|社保|医保|公积金|户口|户籍|个税"
    r"|港澳通行证|通行证|结婚证|出生证明|营业执照)"
)
# Bare 办 only where a document is done (「居住证在哪办」): after "how" it is 怎么办, what to
# do, and where an event is held is no paperwork (「读书会在哪办」, 「灯会在哪办」: an audit,
# session 48).
_WHERE_BAN = r"办(?=$|\s|[吗呢啊?？]|证|卡|手续)"
# An occasion held is no paperwork (「生日派对在哪办」).
_OCCASION = re.compile(r"派对|生日|聚会|婚礼|宴|酒席|年会|趴|\bparty\b")
_ZH_PAPERWORK = re.compile(
    rf"{_HOW_ZH}{_PAPER_VERB}|{_WHERE_ZH}{_PAPER_VERB}"
    rf"|{_DOCUMENT}[^，。,.;；!！?？]{{0,4}}?{_WHERE_ZH}{_WHERE_BAN}"
    r"|(?:带|准备|交|提交|需要|要)(?:些)?(?:什么|啥子?|么子|哪样|哪些|啥些)(?:材料|证件|资料|手续)"
    # A document and the paperwork's own words (not 哪里, 吗 or 不 alone: 「外地户口能报名吗」,
    # 「去博物馆需要身份证吗」 ask about an outing; an audit, session 48).
    rf"|{_DOCUMENT}"
    r"[^，。,.;；!！?？]{0,6}?(?:政策|流程|手续|条件|材料|怎么办理|怎么补|怎么办|咋办|要多久|多少钱)"
    r"|落户政策|(?:要|需要|得)办签证"
)
_EN_PAPERWORK = re.compile(
    r"\b(?:renew|replace|apply\s+for|get)\s+(?:a\s+|my\s+|an\s+)?(?:new\s+)?(?:passport|visa|"
    r"driver'?s\s+licen[cs]e|driving\s+licen[cs]e|licen[cs]e|id\s+card|residence\s+permit)\b"
    r"|\bwhat\s+documents\b(?=[^.?!]{0,40}\b(?:visa|passport|licen[cs]e|permit|id\s+card)\b)"
    r"|\b(?:pay|paying)\s+(?:my|the|a)\s+(?:gas|water|electric(?:ity)?|"
    r"council\s+tax|phone)\s+bill\b|\bdo\s+i\s+need\s+a\s+visa\b"
)


def paperwork(text: str) -> bool:
    """Return whether the query asks how, where or with which documents a piece of paperwork
    is done (「居住证在哪办」, 「公积金怎么提取」, "how do i renew my passport")."""
    normalised = form_text(text)
    if not normalised or _OCCASION.search(normalised):
        return False
    return bool(_ZH_PAPERWORK.search(normalised) or _EN_PAPERWORK.search(normalised))
