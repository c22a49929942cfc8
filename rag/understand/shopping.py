"""Shopping said without a verb of buying: a shop's opening hours, goods asked for by price.

"servo open late near glenelg?", "what time does the big tesco shut", 「超市几点关门」: the person
asks when a shop or a station is open, a fact about a business, not something to do. "warm winter
jacket under 100 quid", "cheap rain jacket in town", "best place for a new esky": the person
wants to buy a thing, said by its price or its newness instead of by a verb of buying
(rag.understand.errands reads "buy", 买, "where sells"). Their meaning sits beside listings that
share a word with them (a late bar, a winter walk, the beach), and the intent examples read them
as requests (docs/RELEVANCE.md, "Shops, goods and comparisons asked in English", session
54): the form says it.

- **Opening hours**: a named place and "open late / now / till / 24 hours / on Sunday", or "what
  time / when does X close, shut, open", or opening hours named; Chinese 几点关门 / 开门 / 打烊,
  营业到几点, 今天开门吗. A general word in the subject's place ("somewhere open late for a
  drink", "anything open on christmas day") asks for something to do that is open, and is not
  read, nor a place to eat, drink or be entertained (a cafe, a club, 博物馆); the caller keeps
  its own places people go out to (a pub, a park, a museum) a request.
- **Goods by price**: a word of price or newness (cheap, budget, second-hand, new) before goods,
  or goods under a sum of money ("under 100 quid", "for less than $50"). The goods are a general
  class (garments and shoes, bags, bedding, appliances, camping and beach gear, electronics,
  furniture, tyres), the head of its phrase: "cheap tent camping spots" asks for a campsite.
  Hiring one or a lesson with it ("cheap wetsuit hire", "surf lessons, board included") is an
  activity.

Written from general knowledge of how people ask (issue 30, session 54), after the development
sets' answered queries of these forms had been seen (fresh16's packie, fresh20's jacket, fresh21's
esky and thongs, fresh22's rain jacket, fresh24's servo and esky); the class of goods is wider
than theirs, and read over every development query it reads no labelled one. Business-agnostic.
"""

from __future__ import annotations

import re

from rag.understand.cues import form_text

# --- opening hours ----------------------------------------------------------------------------

# Words that stand for no business: "somewhere open late", "anything open on christmas day",
# "what's open tonight" ask for something to do that is open, not for one shop's hours.
_GENERAL = (
    r"(?:somewhere|anywhere|something|anything|nothing|everything|everywhere|place|places|spot|"
    r"spots|where|what|what's|whats|who|it|that|this|there|anyone|stuff|things?)\b"
)
# A shop's name or noun, up to four words ("the big tesco", "lanzhou west railway station").
_NAMED = rf"(?:the\s+|a\s+|an\s+|any\s+|my\s+)?(?!{_GENERAL})[\w'&.-]+(?:\s+[\w'&.-]+){{0,3}}?"
_WHEN_OPEN = (
    r"(?:late|now|right\s+now|today|tonight|tomorrow|tmrw|till|until|til|24|24/7|all\s+night|"
    r"at\s+night|yet|over\s+(?:christmas|easter|the\s+holidays?)|on\s+(?:a\s+)?(?:sundays?|"
    r"saturdays?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|sun|sat|public\s+holidays?|"
    r"christmas|boxing\s+day|new\s+year'?s|easter|thanksgiving|anzac\s+day|the\s+\w+))"
)
# "servo open late near glenelg?", "is the post office open on saturdays"
_EN_OPEN_WHEN = re.compile(
    rf"^(?:(?:is|are|will|does|do)\s+)?{_NAMED}\s+(?:still\s+|even\s+)?open\s+{_WHEN_OPEN}\b"
)
# "what time does the big tesco shut", "when does the pharmacy open tomorrow", "opening hours"
_EN_WHAT_TIME = re.compile(
    rf"\b(?:what\s+time|when|how\s+late)\s+(?:does|do|will|is)\s+{_NAMED}\s+"
    r"(?:close|closes|closing|shut|shuts|open|opens|opening|stay\s+open)\b"
    r"|\b(?:opening|trading|business|store|shop)\s+hours\b"
)
# Places people go out to eat, drink or be entertained, whose hours ask for an outing ("cafe open
# late near me", 「咖啡馆几点关门」); the caller adds its own (rag.understand.errands: parks, pubs,
# beaches; activities: the kinds it lists, a museum, a zoo).
_GOING_OUT = re.compile(
    r"\b(?:caf[eé]s?|coffee\s+(?:shops?|places?)|restaurants?|diners?|eater(?:y|ies)|food|"
    r"bakeries|bakery|clubs?|venues?|librar(?:y|ies)|galler(?:y|ies)|theat(?:re|er)s?|cinemas?|"
    r"kitchens?|brewer(?:y|ies)|taverns?|gigs?|shows?)\b"
    r"|咖啡|餐厅|饭店|饭馆|馆子|茶馆|茶楼|酒馆|剧院|剧场|影院|图书馆|美术馆|博物馆|展|书店"
)
_ZH_HOURS = re.compile(
    # 开 or 关 alone only closing the question (「超市几点开」): 几点开始, 开场 is an event's start.
    r"几点钟?(?:关门|开门|打烊|营业|(?:关|开)(?=[\s?？。!！吗呢啊呀嘛~～]|$))"
    r"|(?:营业|开)到几点|(?:营业|开门|关门|打烊)时间"
    r"|(?:今天|今晚|现在|明天|过年|春节|周末|周日|星期天|礼拜天|国庆|初一)(?:还)?(?:开门|营业)"
    r"(?:吗|不|没|冇|唔|么|嘛)"
    r"|开不开门|营不营业|开唔开门"
)

# --- goods by price ---------------------------------------------------------------------------

# Goods, as a class: what people wear, carry and sleep under, what they cool, heat or clean a
# home with, camping and beach gear, electronics, furniture, tyres. General knowledge, wider
# than the development sets' queries (esky, thongs, jacket are among them).
_GOODS_EN = (
    r"(?:jackets?|coats?|parkas?|raincoats?|puffers?|hoodies?|jumpers?|sweaters?|cardigans?|"
    r"jeans|trousers|pants|shorts|dress(?:es)?|shirts?|t-?shirts?|suits?|boots|shoes|sneakers|"
    r"trainers|sandals|thongs|jandals|flip[-\s]?flops|slippers|togs|swimsuits?|swimmers|"
    r"bikinis?|wetsuits?|scarf|scarves|gloves|mittens|beanies?|hats?|socks|thermals|umbrellas?|"
    r"sunglasses|backpacks?|suitcases?|luggage|handbags?|towels?|(?:electric\s+)?blankets?|"
    r"duvets?|doonas?|mattress(?:es)?|pillows?|heaters?|aircon|air\s*con(?:ditioner)?s?|fans?|"
    r"dehumidifiers?|humidifiers?|kettles?|fridges?|freezers?|microwaves?|washing\s+machines?|"
    r"dryers?|vacuums?|hoovers?|eskys?|eskies|coolers?|chilly\s+bins?|tents?|sleeping\s+bags?|"
    r"phones?|iphones?|laptops?|tablets?|ipads?|tvs?|televisions?|chargers?|headphones|"
    r"earbuds|cameras?|furniture|sofas?|couch(?:es)?|desks?|chairs?|beds?|tyres?|tires?|"
    r"sunscreen|sunblock|snowboards?|skis)"
)
# The goods are the head of the phrase: the end, a clause's end or a linking word after them
# ("cheap esky and thongs for the beach"), not a noun ("cheap tent camping spots").
_HEAD = (
    r"(?=\s*(?:$|[,.;!?，。？！]|\s(?:and|or|in|for|near|at|around|under|below|where|from|to|"
    r"online|downtown|nearby|with|that|which|pls|please|plz|mate|asap)\b))"
)
_PRICE_EN = (
    r"(?:cheap|cheaper|cheapest|affordable|budget|bargain|discount(?:ed)?|second[-\s]?hand|used)"
)
_SUM = (
    r"(?:[£$€]\s*\d+(?:\.\d+)?k?|\d+(?:\.\d+)?\s*(?:quid|bucks|dollars|pounds|euros|rand|k|grand)"
    r"\b)"
)
# "cheap rain jacket in town"; "a new esky" (newness asks for goods to buy as a price does);
# "warm winter jacket under 100 quid".
_EN_PRICED = re.compile(rf"\b{_PRICE_EN}\s+(?:[\w'-]+\s+){{0,3}}?{_GOODS_EN}{_HEAD}")
_EN_NEW = re.compile(
    rf"\b(?:a|an|some|my)\s+(?:brand\s+)?new\s+(?:[\w'-]+\s+){{0,2}}?{_GOODS_EN}{_HEAD}"
)
_EN_UNDER = re.compile(
    rf"\b{_GOODS_EN}\s+(?:[\w'-]+\s+){{0,2}}?(?:under|below|for\s+(?:less\s+than|under))\s+{_SUM}"
)
# Hiring the goods or a lesson, a trip or a tour with them is an activity.
_HIRED = re.compile(
    r"\b(?:hire|hiring|rent|renting|rental|rentals|lessons?|class|classes|courses?|tours?|trips?|"
    r"included|provided)\b"
)


# The parts of the two forms, by name (bench/activities_fit_shopping.py reads which part reads
# a query, to judge each part on the sets it was not written from).
HOURS_PARTS = {"open_when": _EN_OPEN_WHEN, "what_time": _EN_WHAT_TIME, "zh_hours": _ZH_HOURS}
GOODS_PARTS = {"priced": _EN_PRICED, "new": _EN_NEW, "under_sum": _EN_UNDER}


def shopping_form(text: str) -> str | None:
    """Return the part of :func:`shop_hours` or :func:`goods_by_price` that reads the query
    (a name of :data:`HOURS_PARTS` or :data:`GOODS_PARTS`), or None."""
    normalised = form_text(text)
    if not normalised:
        return None
    if not _HIRED.search(normalised):
        for name, pattern in GOODS_PARTS.items():
            if pattern.search(normalised):
                return name
    if not _GOING_OUT.search(normalised):
        for name, pattern in HOURS_PARTS.items():
            if pattern.search(normalised):
                return name
    return None


def shop_hours(text: str) -> bool:
    """Return whether the query asks when a named shop or place is open ("servo open late near
    glenelg?", "what time does tesco close on sunday", 「超市几点关门」); not "somewhere open late
    for a drink". The caller decides which places are outings (a pub's hours ask for a night
    out)."""
    return shopping_form(text) in HOURS_PARTS


def goods_by_price(text: str) -> bool:
    """Return whether the query asks for goods by their price or newness ("warm winter jacket
    under 100 quid", "cheap rain jacket in town", "a new esky"): a purchase, not an outing;
    not a hire or a lesson ("cheap wetsuit hire")."""
    return shopping_form(text) in GOODS_PARTS
