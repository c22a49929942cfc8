"""Errands: buying a thing, changing money, something lost, the way somewhere, a phone line, a
fare, a timetable, a utility notice, a recipe.

「想买部二手单车」, "where can i exchange dollars near canton tower", 「我部手机唔见咗」, "how do
i get from the airport to town": the person wants a shop, a money changer, a lost-property
office or a route, not something to do. Their meaning sits beside listings that share a word
with them (a bike ride, a riverside walk, a tower at night), and the form of the request says
more than the topic: the intent examples (activities/fixtures/intent_elsewhere.txt) can only
move the intent gate, which a labelled "what's on tonight" holds where it is (docs/RELEVANCE.md,
"Reservations and the small path"), and a query naming a kind by the way (单车: cycling) is not
read against them at all (activities.search_relevance.asks_for_activity). What says it is the
form: a verb of buying with what is bought, changing money with a currency, a belonging with a
verb of losing it, a route between places or by a line. A ticket or a pass (what an activity
search finds), a market or a fair (an outing) and an activity noun (a class, a tour, an event)
keep a query a request for something to do.

Written from general knowledge of how people ask for these in Mandarin, Cantonese (Guangdong,
Hong Kong: 买部, 边度, 唔见咗, 点去) and Sichuanese (咋个, 啥子), and in English (issue 30,
session 40). The category was added after fresh8's Cantonese purchase and English money
exchange had been seen (development data), and after the off-topic errands of fresh5-fresh7
(left phones, routes to the airport, a dryrobe); no word of those queries but the general ones
(buy, 买, exchange, dollars, lost, left my, phone, 手机, 唔见) is in it. Business-agnostic.
"""

from __future__ import annotations

import re

from rag.understand.cues import ZH_HOW_DIAN, form_text
from rag.understand.requests import learning_request

_CLAUSE = r"[^，。,.;；!！?？]"

# --- buying -----------------------------------------------------------------------------------

# 买 (buy), 购买 / 选购 / 入手, or a brand or model asked for (哪个牌子, 推荐一款). 买单 is the
# bill (paying: not an activity either); 票 is a ticket, what an activity search finds; 买醉 is
# a night out ("drinking to get drunk").
_ZH_BUY = re.compile(
    r"(?<![卖])(?:购买|选购|入手|买)(?!票|醉)|(?:哪个|边个|什么|咩|啥子?)牌子"
    r"|推荐(?:一款|一个型号|款)"
)
_EN_BUY = re.compile(r"\b(?:buy|buying|purchase|purchasing|shop\s+for|shopping\s+for)\b")
# Where goods are sold or bought in bulk: 批发 (wholesale), 哪里有卖 / 边度有得卖 / 哪点有卖
# (Southwestern 哪点), 代购; "wholesale", "who sells", "shops that sell", "stockists". And the
# bargain asked for by its price with where last, as people type it ("cheap X where", 「哪里…
# 便宜」 is covered by 买 / 卖 / 批发): an outing asked for by price names an activity noun or
# a meal, which the guard and the eating words keep a request. General knowledge of the
# varieties (issue 30, session 40, round 2), written after fresh9's 批发 and "cheap ... where"
# had been seen (development data); the goods those queries name are not here.
_ZH_SELL = re.compile(
    r"批发|代购|(?:哪里|哪儿|哪|边度|边处|哪点|哪块|啥地方|什么地方|哪个地方)(?:有|有得|会)?(?:得)?卖"
)
_EN_SELL = re.compile(
    r"\bwholesale\b|\bwho\s+sells\b|\bwhere\s+sells\b"
    r"|\b(?:shops?|stores?|places?|outlets?)\s+(?:that|which|to)\s+(?:sells?|stocks?|carry|carries)\b"
    r"|\bstockists?\b"
    r"|^(?:cheap|cheapest|discount|discounted|bargain|budget)\s+(?!(?:eats?|food|feeds?|drinks?|"
    r"meals?|lunch|dinner|brunch|breakfast|date|night|nights|day|days|fun|stuff|things?)\b)"
    r"[\w' -]{2,40}?\s+where\s*\??$"
)
# What a traveller sets up, a line or a plan, not an outing: a SIM card, an eSIM, a data plan,
# topping up (电话卡 / 手机卡 / 流量卡, 充话费, 上网卡). General knowledge (issue 30, session
# 40, round 2), written after fresh7's SIM card question and fresh9's had been seen.
_ZH_TELECOM = re.compile(r"(?:电话|手机|流量|上网|sim|esim)卡|充(?:值)?话费|话费充值|流量包")
_EN_TELECOM = re.compile(
    r"\b(?:e-?sim|sim)(?:\s+cards?)?\b|\b(?:data|phone|mobile|prepaid)\s+(?:plans?|packages?|bundles?)\b"
    r"|\btop\s*up\s+(?:my\s+)?(?:phone|sim|credit|data)\b"
)
# Travel bought from a carrier: flights to or from a place, 机票, a train, bus or boat ticket
# (车票 / 高铁票 / 船票; "train tickets") — a ticket to get somewhere, not one to a show.
_ZH_FARE = re.compile(r"机票|(?:车|火车|高铁|动车|城际|汽车|大巴|船|飞机)票")
_EN_FARE = re.compile(
    r"\b(?:cheap\s+|cheapest\s+|return\s+|one-way\s+)?flights?\s+(?:to|from)\b|\bairfares?\b"
    r"|\b(?:train|rail|bus|coach|ferry|plane|air)\s+(?:tickets?|fares?|passes?)\b"
)

# A shop or a chain asked for by its distance: "nearest tim hortons", "closest pharmacy?",
# "where's the nearest 7-eleven", 「离我最近的超市在哪」, 「最近的便利店怎么走」. A place to buy
# something now, asked for by name, the whole request or a clause of it (what follows is the
# errand: "need a double-double"); an activity noun keeps it a request (the guard below: "the
# nearest climbing class"), and the caller keeps a kind of activity named ("closest ice rink").
# General knowledge of how people ask (issue 30, session 43), written after fresh12's "nearest
# tim hortons, need a double-double" had been seen; no word of it is here.
_EN_NEAREST = re.compile(
    r"(?:^|[,.;!?]\s*|\bwhere(?:'s|\s+is)\s+(?:the\s+|a\s+)?)(?:the\s+)?(?:nearest|closest)\s+"
    r"(?:(?!_NOT_A_NAME)[\w'&.-]+\s+){0,2}?(?!_NOT_A_NAME)[\w'&.-]+\s*(?:[,.;!?]|$)".replace(
        "_NOT_A_NAME",
        # A place said with a preposition or a general noun ("the closest one to downtown",
        # "nearest thing on sunday") is no shop's name.
        r"(?:to|from|of|for|in|on|at|near|around|by|this|next|one|ones|thing|things|place|"
        r"places|spot|spots|day|days|time|weekend|tonight|today|tomorrow)\b",
    )
)
_ZH_NEAREST = re.compile(
    r"最近的[^，。,.;；!！?？\s]{1,8}?(?:在哪|在哪里|在哪儿|在边度|喺边|喺边度|怎么走|点去|点行)"
)
# A place people go out to, not a shop: "nearest park?", "where's the nearest pub?", "closest
# river walk", 「最近的公园在哪」, 「最近的江边怎么走」 ask for an outing by its distance. General
# knowledge of where people go out (issue 30, session 43 audit: the shop form had taken these
# for errands); a caller adds the kinds and moods its own reader knows (activities:
# search_relevance.asks_elsewhere). 山 alone is not here (山姆 is a warehouse club), nor 广场 (a
# mall's name: 万达广场).
_OUTING_PLACE = re.compile(
    r"公园|酒吧|清吧|夜店|江边|河边|湖边|海边|海滩|沙滩|绿道|步道|花园|植物园|湿地|景点"
    r"|\b(?:(?<!car\s)parks?|pubs?|bars?|beach(?:es)?|rivers?|riverside|river\s*walks?|riverwalks?|lakes?|"
    r"lakeside|waterfront|seafront|boardwalks?|piers?|promenades?|trails?|gardens?|woods|forests?|"
    r"viewpoints?|lookouts?|playgrounds?|pools?)\b"
)

# --- changing money ---------------------------------------------------------------------------

_CURRENCY_ZH = (
    r"(?:钱|外币|外汇|美元|美金|港币|港元|港纸|人民币|欧元|英镑|日元|日币|澳元|澳币|加元|"
    r"韩元|泰铢|现金|货币)"
)
_ZH_MONEY = re.compile(
    rf"(?:兑换|换)(?:一?[啲点些])?(?:{_CURRENCY_ZH})|找换店|换汇"
    # 取现 (withdraw cash), not 争取现场 ("try to be there live").
    r"|(?<!争)(?:取|提|攞)(?:钱|现金|现(?![场在代实]))|提款机|自动柜员机"
)
_CURRENCY_EN = (
    r"(?:money|currency|cash|dollars?|usd|euros?|pounds?|sterling|yuan|rmb|renminbi|yen|hkd|"
    r"foreign\s+currency|travell?er'?s\s+cheques?)"
)
_EN_MONEY = re.compile(
    rf"\b(?:exchange|change|swap|convert)\s+(?:some\s+|my\s+|a\s+few\s+|\d+\s+)?{_CURRENCY_EN}\b"
    r"|\b(?:money|currency)\s+(?:changer|exchange)s?\b|\bbureau\s+de\s+change\b"
    r"|\b(?:withdraw|get\s+out)\s+(?:some\s+)?(?:cash|money)\b|\bcash\s+machines?\b"
    # "atm" is also "at the moment" ("not drinking atm", fresh9, a labelled query this form
    # emptied in session 40): only a machine asked for is one (an / the / nearest atm, atm
    # near / machine).
    r"|\b(?:an|the|any|nearest|closest|nearby|local)\s+atms?\b|\batms?\s+(?:near|nearby|around|machines?)\b"
)

# --- something lost ---------------------------------------------------------------------------

_BELONGING_ZH = (
    # Bare 包 and 卡 not in 面包 / 汉堡包 or 打卡 (a photo spot checked in at).
    r"(?:手机|电话|钱包|银包|钥匙|锁匙|证件|身份证|护照|签证|背包|书包|手袋|包包|(?<![面堡])包|(?<!打)卡|行李|箱|"
    r"电脑|平板|ipad|iphone|耳机|雨伞|伞|遮|眼镜|相机|手表|外套)"
)
# A verb of losing: 丢了 / 弄丢 / 掉了 / 落在 (left on) / 遗失 / 不见了, Cantonese 唔见咗 / 跌咗 /
# 漏咗 / 冇咗, 忘在. Bare 落 (日落, 落雨) and bare 掉 are not, nor 落 after a sun or a plane
# (「看日落在哪里」, 「太阳落下后」, 降落).
_LOSE_ZH = (
    r"(?:弄丢|搞丢|整丢|丢(?:了|咗|失|在|喺|落)|掉(?:了|咗|在|喺)|(?<![日阳降坐])落(?:在|喺|咗|下|了)|遗失|遗落|"
    r"不见了|唔见(?:咗|左|了)|跌(?:咗|左|了|落)|漏(?:咗|左|低)|冇(?:咗|左)|忘(?:在|喺|记拿|了拿))"
)
_ZH_LOST = re.compile(
    rf"{_LOSE_ZH}{_CLAUSE}{{0,10}}?{_BELONGING_ZH}|{_BELONGING_ZH}{_CLAUSE}{{0,10}}?{_LOSE_ZH}|失物招领"
)
_BELONGING_EN = (
    r"(?:phone|mobile|cell|iphone|wallet|purse|bag|handbag|backpack|rucksack|keys?|passport|id|"
    r"card|cards|laptop|tablet|ipad|umbrella|jacket|coat|glasses|sunglasses|headphones|earbuds|"
    r"airpods|luggage|suitcase|camera|watch)"
)
_EN_LOST = re.compile(
    rf"\b(?:lost|left|dropped|forgot|misplaced)\s+(?:my|our|a|the|his|her)\s+(?:[\w'-]+\s+){{0,2}}?"
    rf"{_BELONGING_EN}\b|\blost\s+(?:property|and\s+found)\b|\blost-and-found\b"
    rf"|\bcan'?t\s+find\s+my\s+(?:[\w'-]+\s+){{0,2}}?{_BELONGING_EN}\b"
)

# --- the way somewhere ------------------------------------------------------------------------

# How to ride or get between places: 怎么坐车 / 点搭车 / 坐几号线, 从 A 到 B 怎么去, a train's
# times or fares (高铁几点有, 地铁末班车几点, 几多钱). Sichuanese 咋个, Cantonese 点 / 点样 (not
# a clock hour or a word ending in 点: ``ZH_HOW_DIAN``). A boat rowed or toured (划船, 游船, 帆船,
# 龙舟) is an outing, not a line.
_HOW_ZH = rf"(?:怎么|怎样|如何|{ZH_HOW_DIAN}样|{ZH_HOW_DIAN}|咋个|咋)"
_LINE_ZH = (
    r"(?:地铁|轻轨|公交|巴士|大巴|火车|高铁|动车|城际|机场线|航班|飞机|(?<![划游帆龙赛])船|渡轮|轮渡|的士|出租车|"
    r"打车)"
)
_ZH_ROUTE = re.compile(
    rf"{_HOW_ZH}(?:坐|搭|乘|转)(?:车|地铁|轻轨|公交|巴士|高铁|火车|船|几号线|哪路|边路)?"
    rf"|(?:坐|搭|乘)(?:几号线|哪路|边路|哪趟|边班)"
    rf"|(?:到|去|至){_CLAUSE}{{1,12}}?{_HOW_ZH}(?:去|走|过去|行|返)(?:[最好快呢呀啊]|$)"
    rf"|{_HOW_ZH}(?:去|过去|返)(?:{_CLAUSE}{{0,10}}?)(?:机场|火车站|高铁站|车站|码头|口岸|最快|最方便|最平|最近)"
    rf"|{_LINE_ZH}{_CLAUSE}{{0,8}}?(?:几点|几多钱|多少钱|票价|首班|末班|尾班|时刻表)"
    rf"|(?:首班|末班|尾班)(?:车|地铁|公交|巴士|高铁)?{_CLAUSE}{{0,4}}?几点"
    # A timetable or departure asked for: 几点发车 / 几点开船 / 班次 / 时刻表 (general
    # knowledge, session 40 round 2).
    # 出发 / 开车 only after a line: 「周末爬山几点出发合适」 asks when to set off on a hike.
    rf"|(?:几点|几时|什么时候)(?:发车|开船|起飞|到站)"
    rf"|{_LINE_ZH}{_CLAUSE}{{0,6}}?(?:几点|几时|什么时候)(?:出发|开车)"
    rf"|{_LINE_ZH}{_CLAUSE}{{0,6}}?班次"
    # How far one place is from another (离…远吗 / 远不远 / 多远, 距离…多远; same session).
    # The whole message is the question (苏州北站离古城远吗), not a clause after an outing asked
    # for (「附近有剧本杀吗 离我远吗」, 「周末爬山的地方 离市区远吗」: an audit, session 47).
    r"|^[^\s，,。！!？?吗呢]{0,14}?(?:离|距离)[^\s，,。！!？?吗呢]{1,12}?"
    r"(?:远吗|远不远|远么|有多远|多远|近吗|近不近)[？?。.!！\s]*$"
)
_EN_ROUTE = re.compile(
    r"\bhow\s+(?:do|can|would|should|could)\s+(?:i|we)\s+get\s+(?:from|to|back\s+to|into|out\s+to)\b"
    r"|\bhow\s+to\s+get\s+(?:from|to|back\s+to|into)\b|\bdirections\s+(?:to|from)\b"
    r"|\b(?:fastest|quickest|cheapest|easiest|best)\s+way\s+(?:to\s+get\s+)?(?:from|to)\s+(?:the\s+)?"
    r"(?:airport|station|terminal|downtown|city\s+centre|city\s+center|town)\b"
    r"|\bwhich\s+(?:bus|train|tram|line|metro|subway|tube|ferry)\s+(?:goes|do\s+i|should\s+i)\b"
    r"|\bhow\s+(?:late|early|often)\s+(?:does|do|is)\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+"
    r"(?:line|train|trains|bus|buses|tram|trams|metro|subway|tube|ferry|el)\s+(?:run|running|go)\b"
    r"|\b(?:last|first)\s+(?:train|bus|tram|metro|subway|tube|ferry)\b"
    # Whether a service runs: "is the metro running all night", "a tube strike tomorrow".
    r"|\b(?:is|are)\s+(?:the\s+)?(?:[\w-]+\s+)?(?:metro|trains?|bus|buses|tube|subway|trams?|"
    r"ferry|ferries|line|el)\s+(?:running|operating|on\s+time|delayed)\b"
    r"|\b(?:tube|train|rail|bus|metro|subway|transit)\s+strikes?\b"
    # How far one place is from another, asked as a yes/no question or a distance ("is the
    # north station far from the old town", "how far is the airport from downtown"): the way
    # somewhere, not something to do. General knowledge (issue 30, session 47, written after
    # fresh16's station question had been seen answered: development data).
    # Not "is there X close to Y", which asks for X (an audit, session 47).
    r"|^(?:is|are)\s+(?!there\b|any\b|some\b)(?:the\s+)?[\w' -]{2,40}?\s+(?:far|close|near)\s+"
    r"(?:from|to)\b"
    r"|\bhow\s+far\s+(?:is|are)\s+[\w' -]{2,40}?\s+from\b"
    # A timetable asked for: "what time's the last ferry to X", "when does the first bus
    # leave", "the next train into town", "the bus timetable" (general knowledge, session
    # 40 round 2, written after fresh9's "what time's the last ... ferry": a place named
    # between "last" and the vehicle).
    r"|\b(?:last|first|next)\s+(?:[\w'-]+\s+){0,2}?(?:train|bus|tram|metro|subway|tube|"
    r"ferry|ferries|boat|coach|shuttle|flight|dart|luas|el)\s*(?:to|from|into|back|home|out|"
    r"leave|leaves|go|goes|run|runs|depart|departs|\?|$)"
    r"|\b(?:timetables?|time\s*tables?)\b"
    r"|\b(?:train|bus|tram|ferry|metro|subway|tube|shuttle|coach|flight)\s+(?:schedules?|times|hours)\b"
    r"|\bwhat\s+time\s+(?:does|do|is|'s|will)\s+(?:the\s+)?(?:[\w'-]+\s+){0,2}?(?:train|bus|tram|"
    r"ferry|boat|coach|shuttle|flight|metro|subway|tube)s?\s*(?:leave|depart|go|run|arrive|get|\?|$)"
)

# --- a utility or a public service --------------------------------------------------------------

# When the heating comes on, a cut to the water or power, a plate-number driving restriction
# (「暖气几号开始供」, 「明天停水吗」, 「今天限号几」, "power cut tonight", "when does the
# heating come on"): a notice from a utility or the city, not something to do. General
# knowledge (issue 30, session 40, round 2), written after fresh5's 「西安暖气一般几号开始供」
# had stayed answered through two rounds.
# When the household waste is taken away is the same kind of notice, asked in any order and
# tense: a bin or a waste stream and a verb of collecting it in one clause ("which day are the
# bins collected", "when do they collect the recycling", "what day does the rubbish get picked
# up", 「垃圾几点收」, 「收垃圾是星期几」, 「垃圾车什么时候来」). General knowledge of the
# notice (issue 30, session 47, written after fresh17's bin question had been seen answered:
# development data; before, only the nouns "bin day" and "bin collection" were read). Picking
# litter up is volunteering, not a collection, and no verb here reads it.
_WASTE_EN = r"(?:bins?|wheelie\s+bins?|rubbish|recycling|garbage|trash|refuse|waste|compost)"
_COLLECT_EN = r"(?:collect|collects|collected|collecting|collection|collections|emptied)"
_WHEN_ZH = r"(?:几点|几时|哪天|哪一天|什么时候|啥时候|星期几|周几|礼拜几|几号)"
_ZH_UTILITY = re.compile(
    r"(?:暖气|供暖|供热|集中供暖)(?:[^，。,.]{0,8}?)(?:几号|几时|哪天|什么时候|啥时候|开始|停|来)"
    r"|(?:几号|几时|哪天|什么时候|啥时候)(?:[^，。,.]{0,6}?)(?:供暖|来暖气|通暖气|停暖)"
    r"|停(?:水|电|气)|限号|限行|尾号"
    rf"|(?:收|清运|拉)垃圾[^，。,.]{{0,4}}?{_WHEN_ZH}|垃圾(?:车)?[^，。,.]{{0,4}}?{_WHEN_ZH}"
    r"(?:来)?(?:收|清运|拉走|来)"
)
_EN_UTILITY = re.compile(
    r"\b(?:power|electricity|water|gas)\s+(?:cuts?|outages?|shut\s*offs?|shutoffs?)\b"
    r"|\bboil\s+water\s+(?:notice|advisory)\b|\bheating\s+(?:come|comes|go|goes|turn|turns)\s+on\b"
    r"|\bbin\s+(?:day|collection)\b|\brubbish\s+collection\b|\bgarbage\s+(?:day|collection)\b"
    rf"|\b{_WASTE_EN}\b[^,.;!?]{{0,30}}?\b{_COLLECT_EN}\b"
    # Verbs only this way round: "a collection of rubbish art" is an exhibition.
    rf"|\b(?:collect|collects|collected|collecting|empty|empties)\b[^,.;!?]{{0,20}}?\b{_WASTE_EN}\b"
)

# --- a recipe --------------------------------------------------------------------------------

# How a dish is made: "recipe for shepherd's pie", 「红烧肉怎么做」, 「糖醋排骨的做法」, Cantonese
# 点整 / 点样整 / 点煮. Instructions, not a cooking class (an activity noun or the wish to learn,
# rag.understand.requests, keeps those a request). Added in session 40 after the recipe
# questions of fresh and fresh4 (development data) had stayed answered: a dish reads like a
# cooking class to the intent examples (docs/RELEVANCE.md, "Information requests").
_ZH_RECIPE = re.compile(
    r"(?:怎么|怎样|如何|点样|点)(?:做|整|煮|炒|烧|炖|焗)(?:才)?(?:好吃)?[呢呀啊?？]?$"
    r"|的做法|做法是|菜谱|食谱"
)
_EN_RECIPE = re.compile(
    r"\brecipes?\s+(?:for|of)\b|\bhow\s+(?:do\s+(?:i|you)|to)\s+(?:cook|bake)\b"
)

# --- a job --------------------------------------------------------------------------------

# Looking for paid work: 找工作, 求职, 招聘, 找兼职 / 实习, 投简历; "looking for a job / work",
# "find a job", "jobs hiring", "job openings", "internship". Not volunteering ("looking for
# volunteer work", 「招聘志愿者」, "need work experience volunteering" name what it is for:
# :data:`_VOLUNTEER`). General knowledge (issue 30, session 42): session 41's audit had
# 「找工作 不要加班的」 answered as a request for activities. Not 工作室 / 工作坊 (a studio, a
# workshop: 「找工作室拍写真」), 工具 or 工艺; 招人 only asked alone (「公司招人吗」), not
# recruiting partners (「招人一起打球」); not "work-life" (session 42 audit).
_ZH_JOB = re.compile(
    r"找(?:个|份)?(?:工作(?![室坊])|兼职|实习|工(?![作具艺]))|求职|招聘|投简历|(?:工作|兼职)机会"
    r"|招人(?:吗|嘛|么|不|没|了)?[\s?？。!！~～]*$"
)
_EN_JOB = re.compile(
    r"\b(?:looking\s+for|find(?:ing)?|need|want)\s+(?:a\s+|an\s+)?(?:new\s+|part[-\s]time\s+|"
    r"full[-\s]time\s+)?(?:job|jobs|work(?![-\s]life\b)|internship)\b"
    r"|\bjobs?\s+(?:hiring|openings?|vacanc(?:y|ies))\b|\bhiring\s+now\b"
    r"|\bjob\s+(?:hunting|search|listings?|interview)\b"
)
_VOLUNTEER = re.compile(r"志愿|义工|\bvolunteer")
# Picking litter up with others is volunteering, not a bin collection ("community trash
# collection cleanup on saturday", 「周末去海边捡垃圾」: an audit, session 47).
_CLEANUP = re.compile(
    r"清理|捡垃圾|净滩|清洁行动|\bclean[-\s]?ups?\b|\blitter\b|\bwith\s+a\s+group\b|\bcommunity\b"
)

# An activity noun, a ticket or an outing to a market keeps a query a request for something
# to do (「去花市买年花」, "where to buy tickets for the symphony", "a bus tour of the city").
# A carrier's ticket (车票, 机票, 高铁票; "train tickets") is a fare, and 股票, 彩票, 发票, 支票,
# 邮票, 钞票 are no tickets at all (session 40, round 2).
# A ride taken for itself (游船, 划船, 观光巴士, 缆车, 过山车, 游览) is an outing too: its fare and
# its times are an activity's.
_ACTIVITY_ZH = re.compile(
    r"活动|课|工作坊|体验|团(?!购)|(?<![邮警药当])局|展|讲座|市集|集市|花市|夜市|墟|逛|"
    r"游船|划船|帆船|观光|缆车|过山车|游乐|游览|"
    r"(?<![车机船股彩发支邮钞])(?<!火车|高铁|动车|城际|汽车|大巴|飞机)票|表演|演出"
)
_ACTIVITY_EN = re.compile(
    r"\b(?:events?|activit(?:y|ies)|class(?:es)?|workshops?|lessons?|courses?|tours?|meetups?|"
    r"(?<!train\s)(?<!rail\s)(?<!bus\s)(?<!coach\s)(?<!ferry\s)(?<!plane\s)(?<!air\s)"
    r"(?:tickets?|passes)|"
    r"markets?|fairs?|bazaars?|festivals?|shows?|things\s+to\s+do)\b"
)


def errand(text: str) -> str | None:
    """Return which errand the query asks for ("buy", "shop", "money", "lost", "line",
    "fare", "route", "utility", "recipe", "job"), or None.

    「想买部二手单车」 and "where to buy a cheap winter coat" ask for a shop; "exchange dollars"
    and 「边度可以换港币」 for a money changer; 「我部手机唔见咗」 and "left my phone on the
    blue line" for lost property; 「西安北站到机场怎么坐车」 and "how late does the red line
    run" for a route. None when an activity noun, a ticket or a market says the errand is part
    of an outing ("去花市买年花", "buy tickets for a show").
    """
    normalised = form_text(text)
    if not normalised:
        return None
    if _ACTIVITY_ZH.search(normalised) or _ACTIVITY_EN.search(normalised):
        return None
    for label, zh, en in (
        ("lost", _ZH_LOST, _EN_LOST),
        ("money", _ZH_MONEY, _EN_MONEY),
        ("buy", _ZH_BUY, _EN_BUY),
        ("buy", _ZH_SELL, _EN_SELL),
        ("shop", _ZH_NEAREST, _EN_NEAREST),
        ("line", _ZH_TELECOM, _EN_TELECOM),
        ("fare", _ZH_FARE, _EN_FARE),
        ("route", _ZH_ROUTE, _EN_ROUTE),
        ("utility", _ZH_UTILITY, _EN_UTILITY),
        ("recipe", _ZH_RECIPE, _EN_RECIPE),
        ("job", _ZH_JOB, _EN_JOB),
    ):
        if label == "recipe" and learning_request(normalised):
            return None
        if label == "job" and _VOLUNTEER.search(normalised):
            return None
        if label == "utility" and (_VOLUNTEER.search(normalised) or _CLEANUP.search(normalised)):
            continue
        if label == "shop" and _OUTING_PLACE.search(normalised):
            continue
        if zh.search(normalised) or en.search(normalised):
            return label
    return None
