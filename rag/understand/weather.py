"""A question about the weather, or what to wear or carry for it.

「明天冷不冷 要穿羽绒服吗」, "will it rain on saturday", "do I need an umbrella today": a forecast
is asked for, not something to do. Most such questions read past the intent gate already
(activities/fixtures/intent_elsewhere.txt, "weather"), but one naming a coat or the cold can sit
closer to the listings it shares a word with (a winter walk) than to the example questions, and
its best hit above the bare gate answered it. What says it is the form: a yes/no or A-not-A
question about rain, snow, heat or cold, or about what to wear or carry. A request for something
to do in such weather (「下雨天去哪玩」, "indoor things to do if it rains") names an activity and
is read as one before this (activities.search_relevance.ACTIVITY_WORDS).

Written from general knowledge of how people ask about the weather in Chinese and English
(issue 30, session 39), after the fresh7 question above (development data) was seen.
Business-agnostic.
"""

from __future__ import annotations

import re

from rag.understand.cues import form_text

_ZH_WEATHER = re.compile(
    r"(?:冷|热|晒|闷|潮)不(?:冷|热|晒|闷|潮)(?![闹门情乎清])|下不下(?:雨|雪)|会不会下(?:雨|雪)|会下(?:雨|雪)(?:吗|嘛)"
    r"|(?:要|需要|得)(?:不要|不需要)?(?:穿|带)(?:[^，。,.;；!！?？]{0,6})?(?:吗|嘛|不)"
    r"|穿什么(?:衣服)?(?:合适|好|比较好)?[吗呢?？]?$|多少度|几度|天气(?:怎么样|如何|好吗|好不好)"
    # Cantonese (Guangdong, Hong Kong): 落雨 / 落雪 is rain / snow, 遮 an umbrella, 着衫 to
    # wear; A-not-A with 唔 (会唔会落雨, 冻唔冻, 使唔使带遮). General knowledge of the variety
    # (issue 30, session 40), after fresh8's 「会唔会落雨」 had been seen (development data).
    r"|(?:冻|冷|热|晒|焗|闷|湿)唔(?:冻|冷|热|晒|焗|闷|湿)|会唔会(?:落|下)(?:雨|雪)|落唔落(?:雨|雪)"
    r"|会落(?:雨|雪)(?:㗎|嘛|咩|冇|吗)|(?:使|要|驶)唔(?:使|要|驶)(?:带|着|穿)|着(?:咩|乜嘢?)衫"
    r"|几多度|天气(?:点样|点呀|好唔好)"
    # Sichuanese and northern colloquial: 冷不冷嘛, 要下雨不, 穿啥子.
    r"|穿(?:啥子?|啥)(?:衣服)?(?:合适|好)?[嘛哦呢?？]?$|会不会下雨嘛|要下(?:雨|雪)(?:不|没|么)"
    # The wind asked for (风多大, 风大不大, 几级风): general knowledge (issue 30, session 42,
    # after fresh11's 「青岛这两天风多大 要不要穿羽绒服」 had been seen; it was emptied by the
    # intent gate already).
    r"|风(?:有)?多大|风大不大|几级风"
    # Rain, snow or the cold asked with a closing 吗 / 不 / 没 and no 会 (下雪不, 下雨了没, 有雨吗,
    # 明儿冷不), whether it rained or snowed (下没下雪), and how the weather is in everyday
    # northern words (天儿咋样, 天气啥样): general knowledge of spoken Chinese (issue 30, session
    # 44, written after fresh13's 「沈阳明儿下雪不」 had been seen; development data). The
    # question ends its clause: 「下雪不去了」 tells, 「下雨不出门的活动」 asks for something to do.
    r"|(?:下|落|有)(?:雨|雪)(?:了)?(?:吗|嘛|么|不|没|没有|冇)(?=$|[\s,，。.!！?？~～])"
    r"|(?:冷|热|凉快?)(?:吗|嘛|么|不)(?=$|[\s,，。.!！?？~～])|下没下(?:雨|雪)"
    r"|天(?:气|儿)(?:咋样|啥样|怎样|好不)"
    # Whether it will turn colder or warmer (会不会降温, 要降温了吗, 降不降温, 会不会变冷):
    # general knowledge of the forecast asked (issue 30, session 47, written after fresh15's
    # 「昆明这几天会不会降温」 had been seen answered: development data).
    r"|会不会(?:降温|升温|回暖|变冷|变热|变天|降雪|刮风|起风)|降不降温|升不升温|变不变天"
    r"|(?:会|要)(?:降温|升温|回暖|变冷|变热|变天)(?:了)?(?:吗|嘛|么|不|没)(?=$|[\s,，。.!！?？~～])"
)
# The A-not-A question needs no closing 吗 (要不要穿羽绒服, 用不用带伞), same session; it asks
# about the weather only with what is worn or carried against it, or the weather, named
# (_ZH_WEATHER_WORD): 「要不要带泳衣」, 「需不需要穿正装」, 「要不要带孩子」 ask about an outing
# (session 42 audit).
_ZH_WEAR_A_NOT_A = re.compile(r"(?:要不要|需不需要|用不用|得不得)(?:穿|带)")
_ZH_WEATHER_WORD = re.compile(
    r"伞|雨|雪|冷(?!门)|热(?!闹|门)|凉|晒|刮风|大风|风大|天气|气温|温度|降温|升温|雾|霾|太阳|羽绒|外套|大衣|"
    r"棉衣|棉袄|毛衣|秋裤|保暖|厚衣服|薄衣服|短袖|长袖|防晒|遮阳|帽子|手套|围巾|冲锋衣"
)
_EN_WEATHER = re.compile(
    r"\b(?:will|is|does|did)\s+it\s+(?:going\s+to\s+|gonna\s+)?"
    r"(?:rain|snow|hail|freeze|pour|lash|be\s+(?:cold|hot|warm|sunny|windy|wet|rainy|freezing))\b"
    r"|\bdo\s+i\s+need\s+(?:an?\s+)?(?:umbrella|coat|jacket|brolly|raincoat)\b"
    r"|\bwhat\s+(?:should\s+i|to)\s+wear\b|\bweather\s+(?:forecast|like)\b"
    # "is it gonna snow on thanksgiving", "gonna rain tomorrow?", "will there be snow".
    r"|\b(?:is\s+it\s+)?(?:gonna|going\s+to)\s+(?:rain|snow|hail|pour|storm)\b"
    r"|\bwill\s+there\s+be\s+(?:rain|snow|a\s+storm|thunder)"
    # "will it get colder this week", "is it going to warm up" (same session as 会不会降温).
    r"|\b(?:will|is)\s+it\s+(?:going\s+to\s+|gonna\s+)?(?:get|turn)\s+(?:colder|warmer|cold|"
    r"hot|chilly|milder)\b|\b(?:will|is)\s+it\s+(?:going\s+to\s+|gonna\s+)?(?:cool|warm)\s+(?:down|up)\b"
)


# --- the grammar of a yes/no question about the weather (issue 30, session 48) ----------------
# A state of the weather said as a predicate: rain or snow falling (下雨, 落雪, 有雨; not 雨天,
# 雪山, 滑雪: the verb or 有 must come first), the temperature changing (降温, 回暖, 变天), the
# wind (刮风, 台风, 风大), fog or smog (雾霾, 起雾), the sky (放晴, 出太阳), the air, or hot and
# cold themselves (not 热闹, 热门, 冷门, 冷清, 凉皮). Asked in any of Chinese's yes/no grammars,
# the state is the question: a closing particle after it, a degree between (「雾霾严重吗」,
# 「降温不」, Wu 「要落雨伐」, Cantonese 冇 / 咩), a yes/no modal before it (会不会, 会唔会, 是不是
# 要, 有没有), or the predicate's own A-not-A (降不降温, 下不下雨, 有没有雨). General knowledge of
# the grammar, written after fresh18's 「大连这两天降温不」 had been seen answered (development
# data; the forms before it were one string each: 会不会降温, 降不降温).
_STATE_WORD = (
    r"(?:(?:下|落|有|降)(?:大|小|暴|阵|毛毛|冻)?(?:雨|雪|冰雹|雹)(?![天季林伞衣具景山场地道])"
    r"|暴雨|雷阵雨|雷雨|打雷|冰雹|结冰|霜冻|寒潮|雨停|雪停"
    r"|降温|升温|回暖|转暖|转凉|回温|变冷|变热|变暖|变凉|变天|入冬|倒春寒"
    r"|刮(?:大)?风|起风|大风|台风|风大|风(?=严重|厉害|大)"
    r"|雾霾|霾|起雾|大雾|有雾|放晴|天晴|出太阳|阴天|空气(?:质量)?|污染|温度|气温|闷热|潮湿)"
)
# Hot and cold themselves, one character each (not 热闹, 热乎, 冷门, 冷餐, 晒太阳, 凉皮, 冻梨):
# before a closing particle or in the A-not-A they are the question; after a modal only where
# the predicate ends (「会不会很冷」, not 「有没有冷餐会」, 「有没有晒太阳的地方」).
_TEMP = (
    r"(?:冷(?![门清饮面盘餐])|热(?![闹门情爱身水饮菜汤狗乎])|凉(?![皮粉面茶菜拌快])"
    r"|晒(?![书图太被])|冻(?![梨豆肉品]))"
)
_STATE = rf"(?:{_STATE_WORD}|{_TEMP})"
_ENDS = r"(?=$|[\s,，。.!！?？~～了吗啊呀呢吧不])"
_DEGREE = r"(?:了)?(?:很|太|特别|比较|更|有点|还)?(?:严重|厉害|大|高|低|多|重|得很|得厉害)?(?:了)?"
_CLOSE = (
    r"(?:吗|嘛|么|不|没|没有|伐|冇|咩|啵|不咯|不啦|哇)(?:[啊呀啦呢哦嘞]*)(?=$|[\s,，。.!！?？~～])"
)
_MODAL = r"(?:会不会|会唔会|会否|是不是(?:要|会)?|系唔系(?:会)?|有没有|有冇|有没得|还会不会|要不要)"
_ZH_STATE_QUESTION = re.compile(
    rf"{_STATE}{_DEGREE}{_CLOSE}"
    # The degree's own A-not-A after the state (「雾霾大不大」, 「降温厉不厉害」).
    rf"|{_STATE}(?:了)?(?:大不大|严不严重|厉不厉害|高不高|低不低|重不重|多不多)"
    # After a modal the predicate must end there: 有没有 is also "is there" (「有没有下雪的地方」,
    # 「有没有下雨也开放的场馆」, 「有冇落雨都开嘅地方」 ask for places; an audit, session 48).
    rf"|{_MODAL}(?:要|会|有)?(?:很|太|特别|比较|更|有点|再)?(?:{_STATE_WORD}|{_TEMP}){_ENDS}"
)
# The predicate's own A-not-A: one character, 不 / 唔 / 没 / 冇, the character again.
_A_NOT_A = re.compile(r"(.)([不唔没冇])\1")


def _zh_state_question(normalised: str) -> bool:
    """Return whether a Chinese query asks yes or no about a state of the weather."""
    if _ZH_STATE_QUESTION.search(normalised):
        return True
    for match in _A_NOT_A.finditer(normalised):
        # 降不降温 -> 降温, 有没有雨 -> 有雨, 冷不冷 -> 冷: the A-not-A itself is the question.
        rest = normalised[match.start() + 1 : match.end() + 4]
        if re.match(_STATE, match.group(1) + rest[2:]):
            return True
    return False


def weather_question(text: str) -> bool:
    """Return whether the query asks about the weather or what to wear or carry for it
    (「明天冷不冷」, "will it rain on saturday")."""
    normalised = form_text(text)
    if not normalised:
        return False
    if _ZH_WEAR_A_NOT_A.search(normalised) and _ZH_WEATHER_WORD.search(normalised):
        return True
    return bool(
        _ZH_WEATHER.search(normalised)
        or _zh_state_question(normalised)
        or _EN_WEATHER.search(normalised)
    )
