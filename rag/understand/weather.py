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
    r"(?:冷|热|晒|闷|潮)不(?:冷|热|晒|闷|潮)|下不下(?:雨|雪)|会不会下(?:雨|雪)|会下(?:雨|雪)(?:吗|嘛)"
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


def weather_question(text: str) -> bool:
    """Return whether the query asks about the weather or what to wear or carry for it
    (「明天冷不冷」, "will it rain on saturday")."""
    normalised = form_text(text)
    if not normalised:
        return False
    if _ZH_WEAR_A_NOT_A.search(normalised) and _ZH_WEATHER_WORD.search(normalised):
        return True
    return bool(_ZH_WEATHER.search(normalised) or _EN_WEATHER.search(normalised))
