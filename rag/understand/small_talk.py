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
from rag.understand.regional import TRADITIONAL

_EN_PARTS = (
    r"hi|hey|hello|hiya|howdy|yo|greetings|good\s+(?:morning|afternoon|evening|night)|g'?day",
    # Greetings of Ireland, Britain and Australia said as one word or a question ("howya",
    # "how's the craic", "how ya going"): general knowledge, added in session 39 after the
    # Dublin set (fresh7) showed "howya" unread.
    r"how'?\s*(?:ya|ye|aya|are\s+ya)(?:\s+(?:doing|going|keeping|getting\s+on))?|"
    r"(?:how'?s|what'?s)\s+the\s+craic|what'?s\s+the\s+story|wotcha|alright\s+mate|you\s+alright",
    # How are you, in its spoken and texted forms: the verb dropped ("how you doing", "how u
    # doin"), the g dropped ("goin'", "doin"), and the question about the day or the week asked
    # as it goes or as it went ("how's your day been", "how've you been", "how's it hanging").
    # General knowledge of informal English (issue 30, session 41, written after fresh10's
    # "howzit, how you doing" had been seen: development data).
    r"how(?:\s+(?:are|r|ar|re))?\s+(?:you|u|ya|ye|yall|y'all|you\s+guys|you\s+all)"
    r"(?:\s+(?:doing|doin'?|today|going|goin'?|keeping|keepin'?|holding\s+up|been|getting\s+on))*",
    r"how'?(?:s|\s+is|\s+has|\s+was)\s+(?:it\s+(?:going|goin'?|hanging|hangin'?)|things|"
    r"everything|life|(?:your|ur|the)\s+(?:day|week|weekend|morning|evening|night))"
    r"(?:\s+(?:going|goin'?|been|treating\s+you|so\s+far))*",
    r"hows\s+(?:it\s+(?:going|goin'?|hanging)|things|everything|life|(?:your|ur)\s+(?:day|week))"
    r"(?:\s+(?:going|goin'?|been))*",
    r"how\s+(?:have|'?ve)\s+(?:you|u)\s+been|how'?ve\s+(?:you|u)\s+been|how\s+do\s+you\s+do|"
    r"what'?s\s+up|wh?at'?s\s+new|sup|wassup|wazzup|whaddup|what'?s\s+(?:cracking|crackin'?)|"
    # (Not "what's happening", "what's on", "what's good": asked of a city's listings, they ask
    # what there is to do.)
    r"(?:you|u)\s+(?:good|ok|okay|alright)|"
    # "Alright?" alone is the greeting of much of England ("alright our kid", "alright love,
    # you ok?"), as are Yorkshire's "ey up" and "now then" and the Scots "how's it gaun":
    # general knowledge of British English (issue 30, session 47, written after fresh17's
    # Manchester greeting had been seen answered: development data; before, only "alright
    # mate" and "you alright" were read).
    r"alright|awright|aight|(?:ey|eh|ay)\s+up|now\s+then|how'?s\s+it\s+gaun|"
    r"all\s+good|long\s+time\s+no\s+see|"
    # Is anyone there (same session as the Chinese 有人吗).
    r"(?:is\s+)?(?:any|some)(?:one|body)\s+(?:there|here|home|around|awake|online)",
    r"nice\s+to\s+meet\s+you|thanks?(?:\s+you)?(?:\s+so\s+much)?|thank\s+you(?:\s+so\s+much)?|cheers",
    r"who\s+are\s+you|what'?s\s+your\s+name|what\s+is\s+your\s+name|are\s+you\s+(?:a\s+)?(?:bot|robot|"
    r"human|real|there|an?\s+ai)",
    # Greetings of New Zealand (te reo Māori: kia ora, mōrena, tēnā koe, kia ora koutou), South
    # Africa (howzit, sawubona, molo, dumela, heita), Ireland (dia dhuit), Hawaii and the
    # Pacific (aloha, talofa, bula), and the question whether a person or a machine answers
    # ("are you a bot or a real person", "am i talking to a human", "is this a bot", "what
    # can you do", "say something"): general knowledge (issue 30, session 40, round 2),
    # written after fresh9's "kia ora" had been seen (development data).
    r"kia\s+ora(?:\s+(?:koe|korua|kōrua|koutou|tatou|tātou))?|m[oō]rena|t[eē]n[aā]\s+(?:koe|korua|koutou)|"
    r"howzit|howzit\s+bru|sawubona|molo|dumela|heita|dia\s+(?:dhuit|duit)|aloha|talofa|bula|ni\s+hao",
    r"(?:or|and)\s+(?:a\s+)?(?:bot|robot|human|real\s+person|person|machine|an?\s+ai)|real\s+person|"
    r"(?:am\s+i|are\s+we)\s+(?:talking|chatting|speaking)\s+(?:to|with)\s+(?:a\s+)?(?:bot|robot|human|"
    r"real\s+person|person|machine|an?\s+ai)|is\s+this\s+(?:a\s+)?(?:bot|robot|human|real\s+person|"
    r"an?\s+ai)|what\s+are\s+you|what\s+can\s+you\s+do|who\s+(?:made|built)\s+you|say\s+something",
    r"(?:can|could|shall)\s+(?:we|you)\s+(?:just\s+)?(?:chat|talk)(?:\s+(?:to|with)\s+me)?"
    r"(?:\s+for\s+a\s+(?:bit|while|minute))?|talk\s+to\s+me|let'?s\s+chat",
    # Have you eaten, the greeting of Chinese-speaking Asia carried into English (Singapore and
    # Malaysia: "eat already?", "you makan already or not", "sudah makan"; "have you eaten
    # yet"), and Canadian "eh": general knowledge of the varieties (issue 30, session 42,
    # written after fresh11's "hello bot, you eaten already?" had been seen; development data).
    # Asked, not said: addressed to the one spoken to ("you eaten already?") or with "already",
    # "yet", "or not" after it. Bare "makan", "ate", "had lunch" name a meal (a food query) or
    # tell of one (session 42 audit).
    r"(?:(?:have|did)\s+)?(?:you|u|ya)\s*(?:eaten|ate|makan|had\s+(?:your\s+)?"
    r"(?:lunch|dinner|breakfast|meal))(?:\s+(?:already|yet|liao|le|dah|or\s+not|not\s+yet))*|"
    r"(?:eaten|ate|makan|had\s+(?:your\s+)?(?:lunch|dinner|breakfast|meal))"
    r"(?:\s+(?:already|yet|liao|le|dah|or\s+not|not\s+yet))+|"
    r"(?:(?:did|do)\s+)?(?:you|u|ya)?\s*eat(?:\s+(?:already|yet|liao|le|dah|or\s+not))+|"
    r"(?:sudah|dah)\s+makan(?:\s+(?:belum|ke|or\s+not))?",
    # The friendly address of the one spoken to: general ones, and Britain's and Ireland's
    # regional ones (Manchester "our kid", Liverpool "la" and "lad", Newcastle "pet", the
    # Midlands "duck", Lancashire "chuck", Scotland "hen", "love" everywhere; session 47).
    r"there|mate|buddy|bud|friend|dude|bro|bru|man|guys|fam|folks|everyone|all|bot|again|today|"
    r"our\s+kid|kidda|la|lad|lads|pal|love|luv|pet|duck|chuck|hen|hun|cock|mucker|"
    r"doing|well|fine|ok|okay|lol|haha|hehe|then|so|eh|lah|leh|lor|meh|ah|hor|sia|ya|hoh|one",
)
_ZH_PARTS = (
    r"你好|您好|嗨|哈喽|哈啰|早上好|上午好|下午好|晚上好|早安|晚安|早|在吗|在不在|hello|hi",
    r"你是谁|你是什么|你叫什么(?:名字)?|你几岁(?:了)?|你是(?:机器人|真人|ai|人工智能)",
    r"你(?:最近)?(?:还)?好(?:吗|么|不好)|最近(?:过得)?怎么样|吃了(?:吗|没)|忙(?:吗|不忙)",
    # How are you and what are you up to, in everyday and northern speech (咋样, 如何, 干嘛呢,
    # 忙啥呢, 好久不见, 今天过得怎么样, 有空吗 asked alone): general knowledge of spoken Chinese
    # (issue 30, session 41).
    r"(?:你|您)?(?:最近|近来|这些天|这几天|今天|今儿)?(?:过得|身体|心情)?(?:咋样|怎样|怎么样|如何|好不好|还好吗|好吗)|"
    # What are you doing is said to someone: with 你 / 您, in the progressive (在干嘛呢) or as
    # busy with (忙啥呢). Bare, 做什么 / 这几天干嘛 / 最近干啥 in a search box ask what to do
    # (audit, session 41).
    r"(?:你|您)(?:最近|这些天|这几天)?(?:在)?(?:干嘛|干啥|干什么|做什么|做啥|忙啥|忙什么|忙些什么)(?:呢|嘞)?|"
    r"(?:最近|这些天|这几天)?(?:在(?:干嘛|干啥|干什么|做什么|做啥)|忙啥|忙什么|忙些什么)(?:呢|嘞)?|"
    r"好久不见|好久没(?:聊|见)(?:了)?|(?:你|您)?(?:有空|有时间)(?:吗|不|没)|大家好|各位好",
    # Is anyone there, asked of a chat window (有人吗, 有人没, 有人在不, 在不, 在么): general
    # knowledge (issue 30, session 44, written after fresh13's 「哈喽 有人没」 had been seen;
    # development data). Whole query only: 「有人一起爬山吗」 asks for company.
    r"(?:有人|有没有人)(?:在)?(?:吗|么|嘛|没|没有|不|不在|在吗|在不|在没)?|在(?:不|么|没|嘛)",
    r"谢谢(?:你|您)?|多谢|辛苦了",
    r"(?:能|可以|能不能)?陪我(?:聊|说)(?:会儿?|一会儿?|聊)?(?:天|话)?|(?:我们)?聊(?:聊|会儿?|一会儿?)(?:天)?",
    # Chat with me in northern and southwestern speech: Northeastern 唠 (唠嗑, 唠会儿, 唠两块钱
    # 的), 侃 (侃会儿, 侃大山), 扯 (扯会儿), Sichuanese 摆龙门阵 (摆一哈), Shanghainese 嘎讪胡;
    # have you eaten in Beijing speech (吃了么您, 吃饭了没); the friendly address of the north
    # (老铁, 哥们儿, 老妹儿, 大兄弟) and online (亲, 小伙伴). General knowledge of the varieties
    # (issue 30, session 42, written after fresh11's 「你是机器人吗 陪我唠会儿」 had been seen;
    # development data: of its words only 唠 is here).
    r"(?:能|可以|能不能|来)?(?:陪|跟|和|同)?(?:我|咱|咱俩|咱们)?(?:唠|侃|扯|摆)(?:唠|侃|扯)?"
    r"(?:会儿?|一会儿?|一哈|哈|两句|几句|几块钱的|五块钱的|会)?(?:嗑|大山|龙门阵|闲篇|淡)?(?:呗|吧)?|"
    r"摆(?:一?哈)?龙门阵|嘎讪胡|(?:你|您)?吃(?:了|饭了|过饭了|过了)(?:么|吗|没|没有)?(?:您)?|"
    r"老铁|哥们儿?|姐们儿?|老妹儿|大兄弟|老弟|亲|小伙伴们?|宝子们?",
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
    # Other varieties (general knowledge, issue 30, session 40, round 2; written after fresh9's
    # Wuhan 「你是机器人还是真人 港句话撒」 had been seen): a person or a machine asked as a
    # choice (你是机器人还是真人, 是不是真人), say something (说 / 讲 / Wuhan 港 + 句话, 讲句嘢),
    # what or who are you in Wuhan (么斯, 么子), Northeastern (啥, 嘎哈呢, 干啥呢) and
    # Southwestern (哪个, 啥子) words, Minnan / Taiwanese have you eaten (食饱未, 呷饱未), and
    # the particles 撒, 咧, 啵, 噻, 嘎, 哇, 哟.
    r"(?:你|您)?(?:是|系)(?:不是|唔系|咪)?(?:一个)?(?:机器人|机械人|真人|人|ai|人工智能|bot|程序)"
    r"(?:还是|定系|或者)(?:一个)?(?:机器人|机械人|真人|人|ai|人工智能|bot|程序)",
    r"(?:是|系)(?:不是|唔系|咪)?(?:真人|真的人|机器人|机械人)|(?:说|讲|港|聊)(?:一)?(?:两|几)?句(?:话|嘢)?",
    r"你是(?:么斯|么子|啥子?|哪个|啥玩意儿?)|你(?:在)?(?:嘎哈|干啥|干嘛|搞么斯|做咩)(?:呢|嘞)?|"
    r"你能(?:做|干)(?:什么|啥)|你会(?:做|干)?(?:什么|啥)",
    r"(?:食|呷|吃)饱(?:未|了没|吗|没)|汝好|侬好|恁好",
    # Have you eaten with 恰, the verb to eat of Jiangxi, Hunan and the southwest (恰饭了冇,
    # 恰了没, 恰过饭没): asked in the perfect only, with its closing 冇 / 没 / 吗 (「恰饭」,
    # 「恰么子」 ask what to eat, 「今晚恰饭不」 proposes a meal: the round's audit). General
    # knowledge of the varieties (issue 30, session 56, written after fresh26's 「嗯恰饭了冇」
    # had been seen answered: development data), and 嗯 among the particles.
    r"(?:你|您)?恰(?:饭(?:了|过)|(?:了|过)饭?)(?:么|吗|没|没有|冇|未)",
    r"呀|啊|呢|吧|吗|哦|嘛|哈|呗|么|嚟|㗎|架|嘅|咩|喎|啦|吖|啫|噃|咯|囉|啰|喇|嘞|先|撒|咧|啵|噻|嘎|哇|哟|嗯",
)
_SEP = r"[\s,.!?~;:，。！？～；：、…]*"
_EN_RE = re.compile(rf"^{_SEP}(?:(?:{'|'.join(_EN_PARTS)}){_SEP})+$")
_ZH_RE = re.compile(rf"^{_SEP}(?:(?:{'|'.join(_ZH_PARTS)}){_SEP})+$")
# Fillers alone ("today", "ok", "吗") are no small talk: one greeting or pleasantry is needed.
_EN_FILLER = re.compile(rf"^{_SEP}(?:(?:{_EN_PARTS[-1]}){_SEP})+$")
_ZH_FILLER = re.compile(rf"^{_SEP}(?:(?:{_ZH_PARTS[-1]}){_SEP})+$")


# A piece of work asked of the one spoken to, to pass the time: tell me a joke or a story, sing
# me a song, write me a poem (「跟我讲个笑话」, 「给我说个段子」, 「来个脑筋急转弯」). Addressed to
# the assistant (me / us, 我, or the bare imperative opening the clause), not an evening of it
# ("story night", 「故事会」, 「听相声」): nothing to look for. General knowledge of the request
# (issue 30, session 47, written after fresh16's 「无聊 跟我讲个笑话」 had been seen answered:
# development data).
_EN_TASK = re.compile(
    r"\b(?:tell|give)\s+(?:me|us)\s+(?:a|an|another|some|one\s+more)\s+(?:joke|jokes|story|stories|"
    r"riddle|riddles|fun\s+fact)\b|\bsing\s+(?:me|us)\s+(?:a\s+)?song\b"
    r"|\bwrite\s+(?:me|us)\s+(?:a|an)\s+(?:poem|story|song|limerick|haiku)\b|\bmake\s+me\s+laugh\b"
)
_ZH_TASK = re.compile(
    r"(?:(?:给|跟|和|对|帮|陪|为)(?:我|咱|俺)|(?:^|[\s,，。!！?？~～]))"
    r"(?:讲|说|来|编|唱|写)(?:个|一个|几个|段|一段|首|一首|则|一则)"
    r"(?:冷?笑话|故事|段子|脑筋急转弯|谜语|歌|诗)(?!会|大会|沙龙|歌会|朗诵)"
)
# An evening, a session or a walk of it is something to go to ("any storytelling nights? tell
# me a story", 「写首诗 有诗歌沙龙吗」: an audit, session 47).
_GOING_TO = re.compile(
    r"\b(?:nights?|evenings?|sessions?|tours?|walks?|workshops?|classes|events?|open\s+mic)\b"
    r"|沙龙|故事会|朗诵会|读书会|活动|演出"
)


def assistant_task(text: str) -> bool:
    """Return whether the query asks the one spoken to for a piece of work to pass the time
    ("tell me a joke", 「跟我讲个笑话」), not for something to go and do."""
    normalised = form_text(text).translate(TRADITIONAL)
    if _GOING_TO.search(normalised):
        return False
    return bool(_EN_TASK.search(normalised) or _ZH_TASK.search(normalised))


# A greeting opening a message that asks something after it ("hi! I just moved here, what's good
# to do on weekends?", 「嗨，周末有什么好玩的」, "hey there, any gigs tonight"): the greeting
# names nothing to look for, and searched with the rest it found nothing (a make-run look,
# session 53).
# Without a pause after it, only before words that ask ("hi any gigs tonight"): "hello kitty
# cafe", "hey jude tribute band", "yo yo ma concert" are names (an audit, session 53).
_OPENING = re.compile(
    rf"^{_SEP}(?:{_EN_PARTS[0]}|{_ZH_PARTS[0]})(?:\s+(?:there|all|everyone|guys|mate|folks))?"
    r"(?:\s*[,.!?~;:，。！？～；：、…]+\s*|\s+(?=(?:any|anything|something|what|whats|what's"
    r"|where|is|are|can|could|do|does|i|i'm|im|we|got|recommend|suggest|find|show|looking)\b))",
    re.IGNORECASE,
)


def without_greeting(text: str) -> str:
    """Return ``text`` without the greeting that opens it ("hi! any gigs tonight?" -> "any gigs
    tonight?"); the text itself when it is nothing but a greeting, or opens with none."""
    rest = _OPENING.sub("", text or "", count=1)
    return rest if rest.strip() else text


def small_talk(text: str) -> bool:
    """Return whether the whole query is greetings, pleasantries or questions to the one
    spoken to ("hey how are you", 「你叫什么名字呀」), with nothing else to look for."""
    normalised = form_text(text).translate(TRADITIONAL)
    if not normalised:
        return False
    for whole, filler in ((_EN_RE, _EN_FILLER), (_ZH_RE, _ZH_FILLER)):
        if whole.match(normalised) and not filler.match(normalised):
            return True
    return False


# A form of address or an interjection before small talk (「老乡 吃了没咧」, 「靓仔 食咗饭未啊」,
# 「嘛事啊 在不在 陪我聊会儿」, "yo mate, how ya going"): what is said to the one spoken to is the
# rest. A closed list of general address terms and interjections of Mandarin, the regional
# varieties and English, not a reading of any short opening: session 55's audit found the open
# form ("up to four characters or three words") emptying requests put before a courtesy or a
# question (「狼人杀 有人吗」, 「撸串 咋样」, "sushi? thanks"). Written after fresh24's and
# fresh25's answered greetings had been seen (development data). "sup" and "neighbor" are left
# out: the lead had seen them in an unseen split's query before writing the list.
_ADDRESS_ZH = (
    "老乡 靓仔 靓女 亲 亲爱的 亲们 宝 宝宝 宝贝 兄弟 兄弟们 哥们 哥们儿 姐妹 姐妹们 大哥 大姐"
    " 美女 帅哥 老铁 朋友 朋友们 小哥 小哥哥 小姐姐 幺妹 孃孃 嬢嬢 家人们 伙计 老兄 老弟 妹子"
    " 哥 姐 喂 哈喽 嗨 哎 诶 欸 嘿 嘛事啊 干嘛呢 侬好 雷猴"
)
_ADDRESS_EN = (
    *[
        "mate",
        "bro",
        "bruh",
        "dude",
        "buddy",
        "bud",
        "pal",
        "fam",
        "yo",
        "hey",
        "oi",
        "hun",
        "hon",
        "guys",
    ],
    *["y'all", "folks", "friend", "cuz", "homie", "dawg", "lads"],
    *("yo mate", "hey mate", "oi mate", "hey there", "hey guys", "yo bro"),
)
_ADDRESSED = re.compile(
    r"^\s*(?P<opening>"
    + "|".join(
        re.escape(w) for w in sorted((*_ADDRESS_ZH.split(), *_ADDRESS_EN), key=len, reverse=True)
    )
    + r")[\s,，。!！~～、…]+(?P<rest>\S.*)$"
)


def addressed_small_talk(text: str) -> bool:
    """Return whether the query is small talk after a form of address or an interjection
    (「老乡 吃了没咧」: an address, then "have you eaten"), never a request put before a courtesy
    or a question (「火锅 咋样」, 「狼人杀 有人吗」: no address opens them)."""
    normalised = form_text(text).translate(TRADITIONAL)
    found = _ADDRESSED.match(normalised)
    return found is not None and small_talk(found.group("rest"))
