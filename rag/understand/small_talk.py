"""Small talk: a query that only greets, thanks or asks the assistant about itself.

"hey how are you", 「你是谁呀，能陪我聊会天吗」: there is nothing in it to look for, and its
meaning sits as close to a friendly listing as to anything else (an English greeting's best hit
stood 0.001 above the background, where the English gate is below zero), so no similarity rule
can say it; nor can the intent examples (small-talk lines among the requests for something else
pulled "what's on tonight" after them: docs/RELEVANCE.md, "Reservations and the small path").
What can say it is the form: the whole query is greetings, pleasantries and questions about the
one spoken to, with nothing else left. A query with anything besides ("hi, any hikes this
weekend?") is not small talk.

Written from general knowledge of how people greet and chat in Chinese and English, not from
labelled queries (issue 30, session 39). Business-agnostic: any surface that finds things may
ask it.
"""

from __future__ import annotations

import re

from rag.understand.cues import form_text

_EN_PARTS = (
    r"hi|hey|hello|hiya|howdy|yo|greetings|good\s+(?:morning|afternoon|evening|night)|g'?day",
    # Greetings of Ireland, Britain and Australia said as one word or a question ("howya",
    # "how's the craic", "how ya going"): general knowledge, added in session 39 after the
    # Dublin set (fresh7) showed "howya" unread.
    r"how'?\s*(?:ya|ye|aya|are\s+ya)(?:\s+(?:doing|going|keeping|getting\s+on))?|"
    r"(?:how'?s|what'?s)\s+the\s+craic|what'?s\s+the\s+story|wotcha|alright\s+mate|you\s+alright",
    r"how\s+(?:are|r)\s+(?:you|u|ya)(?:\s+(?:doing|today|going))*",
    r"how'?s\s+(?:it\s+going|things|life|your\s+(?:day|week|weekend|morning|evening)(?:\s+going)?)",
    r"how\s+is\s+(?:it\s+going|your\s+(?:day|week|weekend|morning|evening)(?:\s+going)?)",
    r"how\s+have\s+you\s+been|how\s+do\s+you\s+do|what'?s\s+up|wh?at'?s\s+new|sup|wassup",
    r"nice\s+to\s+meet\s+you|thanks?(?:\s+you)?(?:\s+so\s+much)?|thank\s+you(?:\s+so\s+much)?|cheers",
    r"who\s+are\s+you|what'?s\s+your\s+name|what\s+is\s+your\s+name|are\s+you\s+(?:a\s+)?(?:bot|robot|"
    r"human|real|there|an?\s+ai)",
    r"(?:can|could|shall)\s+(?:we|you)\s+(?:just\s+)?(?:chat|talk)(?:\s+(?:to|with)\s+me)?"
    r"(?:\s+for\s+a\s+(?:bit|while|minute))?|talk\s+to\s+me|let'?s\s+chat",
    r"there|mate|buddy|friend|dude|bot|again|today|doing|well|fine|ok|okay",
)
_ZH_PARTS = (
    r"你好|您好|嗨|哈喽|哈啰|早上好|上午好|下午好|晚上好|早安|晚安|早|在吗|在不在|hello|hi",
    r"你是谁|你是什么|你叫什么(?:名字)?|你几岁(?:了)?|你是(?:机器人|真人|ai|人工智能)",
    r"你(?:最近)?(?:还)?好(?:吗|么|不好)|最近(?:过得)?怎么样|吃了(?:吗|没)|忙(?:吗|不忙)",
    r"谢谢(?:你|您)?|多谢|辛苦了",
    r"(?:能|可以|能不能)?陪我(?:聊|说)(?:会儿?|一会儿?|聊)?(?:天|话)?|(?:我们)?聊(?:聊|会儿?|一会儿?)(?:天)?",
    # Cantonese (Guangdong, Hong Kong): greetings (早晨, 哈佬), how are you (你点呀, 最近点),
    # have you eaten (食咗饭未), long time no see (好耐冇见), thanks (唔该, 多谢晒), who or
    # what are you (你系边个, 你系咪机械人, 你系乜嘢嚟), chat with me (倾下偈, 同我倾偈). General
    # knowledge of the variety (issue 30, session 40), written after fresh8's Cantonese
    # greeting had been seen (development data): its words beyond 你系咪 and 机械人 are not here.
    r"早晨|哈佬|哈啰|喂|你好(?:吗|嘛|唔好)?|好耐(?:冇|无)见|食(?:咗)?(?:饭|早餐|晏)(?:未|吗|冇)",
    r"(?:你|最近|近排)(?:过得)?(?:点|点样|几好)(?:呀|啊|嘛|吖)?|(?:你)?(?:几)?好(?:嘛|冇)",
    r"唔该(?:晒|你|哂)?|多谢(?:晒|你|哂)?|辛苦晒",
    r"你(?:系|係|是)(?:咪|唔系|不是)?(?:边个|边位|谁|乜(?:嘢)?|咩(?:嚟)?|"
    r"(?:一个)?(?:机械人|机器人|真人|人|ai|人工智能|bot))(?:嚟|来)?",
    r"你叫(?:咩|乜嘢|什么)(?:名)?(?:字)?|你几(?:多)?岁",
    r"(?:可唔可以|可以|得唔得|能唔能)?(?:同|陪)我(?:倾|吹|聊)(?:下|吓|一阵|阵)?(?:偈|水|天)?|倾(?:下|吓)?偈",
    r"呀|啊|呢|吧|吗|哦|嘛|哈|呗|么|嚟|㗎|架|嘅|咩|喎|啦|吖|啫|噃|咯|囉|啰|喇|嘞|先",
)
_SEP = r"[\s,.!?~;:，。！？～；：、…]*"
_EN_RE = re.compile(rf"^{_SEP}(?:(?:{'|'.join(_EN_PARTS)}){_SEP})+$")
_ZH_RE = re.compile(rf"^{_SEP}(?:(?:{'|'.join(_ZH_PARTS)}){_SEP})+$")
# Fillers alone ("today", "ok", "吗") are no small talk: one greeting or pleasantry is needed.
_EN_FILLER = re.compile(rf"^{_SEP}(?:(?:{_EN_PARTS[-1]}){_SEP})+$")
_ZH_FILLER = re.compile(rf"^{_SEP}(?:(?:{_ZH_PARTS[-1]}){_SEP})+$")


def small_talk(text: str) -> bool:
    """Return whether the whole query is greetings, pleasantries or questions to the one
    spoken to ("hey how are you", 「你叫什么名字呀」), with nothing else to look for."""
    normalised = form_text(text)
    if not normalised:
        return False
    for whole, filler in ((_EN_RE, _EN_FILLER), (_ZH_RE, _ZH_FILLER)):
        if whole.match(normalised) and not filler.match(normalised):
            return True
    return False
