"""A specific activity the query names and no candidate offers: nothing of that kind here.

"surfing lessons" in a city without a sea, 「哪里可以滑雪」 where nobody lists skiing: the query is
a request for activities (the intent gate lets it through, rightly), and its best hit is a
swimming class or a snowshoe walk, close in meaning, so the margin gates let it through too.
But the person asked for one thing by name and nothing here is that thing: answering with the
closest rows as if they fitted is the "nothing fits must mean nothing fits the request" failure
of issue 30 turned round. The similarity cannot say it (a swimming class *is* close to
surfing); what the rows hold can.

:data:`NAMED_KINDS` is a list of specific activities people ask for by name (sports, outdoor
pursuits, crafts, games, shows), each with the words that name it in Chinese and English,
written from general knowledge, not from any labelled query (issue 30 prefers methods fitted on
data; no data says which nouns name an activity, so this is the fallback the issue allows).
:func:`absent_kind` returns the first kind the query names (not under a negation,
``activities.negation``) that none of the candidates names in any field, in either language;
the search then shows the closest rows and says none is of the kind, or answers nothing when no
activity at all names it (``activities.search_relevance.city_lacks_kind``). A kind any
candidate names is left to the ranking: the rule only speaks when no row is that thing.

Words are matched whole in English (lower case, the listed forms: no stemming, so the list says
every form) and as substrings in Chinese. A word that also means something else in everyday
English is left out ("dive" bar, "pool" of a bar, "run" of a train, "boxing" day) or kept only
on the candidates' side (``held``): a candidate holding it only keeps the query answered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from activities.negation import inside, negated_spans


@dataclass(frozen=True)
class NamedKind:
    """One specific activity: the words naming it in a query, and more that a row may use."""

    label: str
    words: tuple[str, ...]  # Chinese substrings and English whole words or phrases
    held: tuple[str, ...] = ()  # further words that, in a candidate, count as offering it
    not_in: tuple[str, ...] = ()  # names of something else holding its words ("cable ski")
    # A place the other kinds asked beside it happen at ("surfing at the seaside", "beach this
    # weekend, keen for a swim"): asked for, it must be offered itself (:func:`absent_kind`).
    setting: bool = False


def _kind(
    label: str, words: str, held: str = "", not_in: str = "", *, setting: bool = False
) -> NamedKind:
    split = lambda s: tuple(w.strip().lower() for w in s.split("|") if w.strip())  # noqa: E731
    return NamedKind(label, split(words), split(held), split(not_in), setting)


# Specific activities, from general knowledge of what cities offer and people ask for by name
# (issue 30, session 39). The category was added after fresh5 and fresh6 had off-topic
# requests for skiing, surfing and paragliding answered with near rows; the list is written to
# cover sports, outdoor pursuits, crafts, games and shows at large, not those queries.
NAMED_KINDS: tuple[NamedKind, ...] = (
    # snow, ice, water, air
    # Skiing towed on water (a cable park, behind a boat) and jet skis are water sports: "cable
    # ski park" offers no snow skiing (general knowledge, issue 30, session 42, after fresh11's
    # "where got snow skiing in singapore" found a cable ski park's wakeboarding).
    _kind(
        "skiing",
        "滑雪|雪场|单板|双板|ski|skis|skiing|skier|skiers|snowboard|snowboarding",
        not_in="water ski|water skiing|water skis|cable ski|jet ski|jet skis|jet skiing",
    ),
    # 滑水道 / 滑水梯 are a water park's slides, not water skiing (session 42 audit).
    _kind(
        "water skiing",
        "滑水|水上摩托|wakeboard|wakeboarding|water ski|water skiing|waterskiing|cable ski|"
        "jet ski|jet skiing|jetski",
        not_in="滑水道|滑水梯",
    ),
    _kind("surfing", "冲浪|surf|surfing|surfer|surfers|surfboard|bodyboard|bodyboarding"),
    _kind("paragliding", "滑翔伞|滑翔翼|paragliding|paraglide|paraglider|hang gliding|hang glider"),
    _kind("skydiving", "跳伞|skydiving|skydive|parachuting"),
    # A flight in a hot-air balloon: an air pursuit like the two above, named by the craft, never
    # by "balloon" alone (a parade's balloons, balloon twisting, a balloon arch are not flights).
    # General knowledge (issue 30, session 56, written after fresh26's "hot air balloon ride over
    # the valley" had been answered with near rows in a city listing none: development data).
    # The flight itself is named, not the craft: a balloon theme, lanterns or a balloon glow
    # to watch (热气球派对布置, "hot air balloon themed party", 热气球灯会) are none (the
    # round's audit).
    _kind(
        "hot-air ballooning",
        "坐热气球|乘热气球|热气球飞行|热气球体验|hot air balloon ride|hot air balloon rides|"
        "hot air balloon flight|hot air balloon flights|hot-air balloon ride|hot air ballooning|"
        "balloon flight|balloon flights|balloon ride|balloon rides|ballooning",
        # A listing with balloons of any sort keeps such a request answered (a balloon fiesta or
        # glow named without "hot air"): the held words err towards answering.
        "balloon|balloons",
    ),
    _kind("diving", "潜水|浮潜|scuba|snorkel|snorkeling|snorkelling|scuba diving|freediving"),
    _kind(
        "skating",
        "滑冰|溜冰|轮滑|旱冰|冰场|skating|ice skating|roller skating|skate|skates|ice rink",
        "rink|skater|skaters",
    ),
    _kind("skateboarding", "滑板|skateboard|skateboarding|skate park|skatepark"),
    _kind(
        "paddling",
        "皮划艇|划艇|桨板|划船|漂流|龙舟|kayak|kayaking|canoe|canoeing|paddleboard|paddleboarding|"
        "paddle board|paddle boarding|"
        "rafting|white water|dragon boat|rowing",
        "paddle|paddling|sup",
    ),
    _kind("sailing", "帆船|sailing|sailboat|yacht|yachting"),
    _kind("swimming", "游泳|泳池|swimming|swim|swims|swimmer|wild swim", "pool|lido|swimmers"),
    _kind("fishing", "钓鱼|垂钓|fishing|angling|fly fishing"),
    # land sports
    _kind("golf", "高尔夫|golf|golfing|mini golf|minigolf|driving range", "putting|putt"),
    _kind("horse riding", "骑马|马术|马场|horse riding|horseback|equestrian|pony rides"),
    _kind(
        "climbing",
        "攀岩|抱石|rock climbing|bouldering|climbing wall|indoor climbing|climbing gym|top-rope",
        "climb|climbing|climbs|boulder|crag|岩壁",
    ),
    _kind("archery", "射箭|archery"),
    _kind("bowling", "保龄球|bowling|tenpin|ten-pin"),
    _kind("billiards", "台球|桌球|斯诺克|billiards|snooker|pool hall"),
    _kind("tennis", "网球|tennis"),
    _kind("badminton", "羽毛球|badminton"),
    _kind("table tennis", "乒乓|table tennis|ping pong|ping-pong"),
    _kind("pickleball", "匹克球|pickleball"),
    _kind("basketball", "篮球|basketball|hoops"),
    _kind("football", "足球|soccer|football|futsal"),
    _kind("volleyball", "排球|volleyball"),
    _kind("baseball", "棒球|垒球|baseball|softball|batting cage"),
    _kind("cricket", "板球|cricket"),
    _kind("rugby", "橄榄球|rugby"),
    _kind("hockey", "冰球|曲棍球|hockey"),
    _kind("frisbee", "飞盘|frisbee|ultimate frisbee|disc golf"),
    _kind("boxing", "拳击|搏击|boxing class|boxing gym|kickboxing|muay thai", "boxing|boxer"),
    _kind(
        "martial arts", "武术|功夫|跆拳道|空手道|柔道|martial arts|kung fu|karate|judo|taekwondo"
    ),
    _kind("tai chi", "太极|tai chi|taichi|qigong|气功"),
    _kind("fencing", "击剑|fencing"),
    _kind("yoga", "瑜伽|yoga", "瑜珈"),
    _kind("pilates", "普拉提|pilates"),
    _kind(
        "jogging",
        "跑步|夜跑|慢跑|马拉松|jogging|jog|marathon|running club|run club|parkrun",
        "running|run|runners|runner|5k|10k|跑团",
    ),
    _kind(
        "cycling",
        "骑行|自行车|单车|cycling|bike ride|biking|bicycle|mountain biking",
        "bike|bikes|cyclists",
    ),
    _kind(
        "hiking",
        "徒步|爬山|登山|hiking|hike|hikes|trekking|trek",
        "walk|walks|walking|trail|trails|bushwalk|summit|步道|郊游|山",
    ),
    _kind("camping", "露营|camping|campsite|glamping", "camp|tent|tents"),
    _kind("go-karting", "卡丁车|go-kart|go kart|go-karting|karting"),
    _kind("bungee", "蹦极|bungee"),
    _kind("trampoline", "蹦床|trampoline|trampolining"),
    _kind("paintball", "真人cs|彩弹|paintball|laser tag|airsoft"),
    _kind("gym", "健身房|gym|crossfit|weightlifting", "fitness|workout|bootcamp|健身"),
    # making things
    _kind("pottery", "陶艺|拉坯|陶瓷|pottery|ceramics|wheel throwing|clay", "ceramic|陶"),
    _kind(
        "jewellery making",
        "首饰|银饰|串珠|jewellery making|jewelry making|beading",
        "jewellery|jewelry|ring|rings|necklace|earrings|银",
    ),
    _kind(
        "painting",
        "画画|绘画|油画|水彩|国画|素描|painting|watercolour|watercolor|sketching|life drawing",
        "paint|drawing|draw|sketch|画",
    ),
    _kind("photography", "摄影|photography|photo walk|photowalk", "photo|photos|camera|拍照"),
    _kind("calligraphy", "书法|calligraphy"),
    _kind("knitting", "编织|织毛衣|钩针|缝纫|knitting|crochet|sewing|embroidery", "knit|刺绣"),
    _kind("woodworking", "木工|woodworking|carpentry|woodwork"),
    _kind(
        "flower arranging",
        "插花|花艺|flower arranging|floristry|ikebana|floral workshop",
        "flower|flowers|floral|花",
    ),
    # Baking is cooking to a person asking to learn to cook; the other way round it is not.
    _kind(
        "cooking",
        "烹饪|做饭|厨艺|做菜|cooking class|cookery",
        "cooking|cook|chef|kitchen|烹|厨|烘焙|baking|bake|bread|sourdough|pastry|dumpling|饺子",
    ),
    _kind("baking", "烘焙|做蛋糕|baking|bake|pastry class", "bakery|cake|bread|烤"),
    # games, shows, going out
    _kind(
        "board games",
        "桌游|board game|board games|boardgame|tabletop games",
        "game|games|剧本杀|狼人杀|麻将|mahjong|象棋|围棋|chess|cards|扑克|棋",
    ),
    _kind("murder mystery", "剧本杀|murder mystery", "桌游|推理"),
    _kind("escape room", "密室|escape room|escape rooms"),
    _kind("book club", "读书会|书友会|book club|reading group", "book|books|读书|书"),
    _kind(
        "clubbing",
        "蹦迪|夜店|clubbing|nightclub|club night|rave",
        "dj|techno|house music|电音|dance floor",
    ),
    _kind("chess", "象棋|国际象棋|围棋|chess"),
    _kind("mahjong", "麻将|mahjong|mah-jong|mah jong"),
    _kind("karaoke", "ktv|k歌|卡拉ok|karaoke", "sing|singing|open mic|唱"),
    _kind("choir", "合唱|choir|chorus", "sing|singing|唱"),
    _kind(
        "dancing",
        "跳舞|舞蹈|街舞|广场舞|交谊舞|芭蕾|dancing|dance class|salsa|ballet|tango|ballroom|zumba|"
        "swing dancing",
        "dance|dances|舞",
    ),
    _kind(
        "stand-up comedy", "脱口秀|相声|喜剧|stand-up|standup|comedy|comedian|improv", "comic|funny"
    ),
    _kind(
        "theatre",
        "话剧|戏剧|舞台剧|音乐剧|京剧|川剧|戏曲|theatre|theater|musical|opera",
        "play|stage|戏",
    ),
    _kind("cinema", "电影|cinema|movie|movies|film screening", "film|films|screening|影"),
    _kind(
        "concert",
        "音乐会|演唱会|livehouse|concert|gig|orchestra|symphony",
        "live music|band|music|音乐|乐",
    ),
    _kind("museum", "博物馆|美术馆|museum|gallery|exhibition", "exhibit|展|馆"),
    _kind("zoo", "动物园|zoo|safari park", "animal|animals|熊猫|panda|动物"),
    _kind("aquarium", "水族馆|海洋馆|aquarium"),
    _kind(
        "theme park",
        "游乐园|游乐场|主题公园|过山车|theme park|amusement park|roller coaster|funfair",
    ),
    _kind("hot springs", "温泉|hot spring|hot springs|onsen"),
    _kind("spa", "spa|按摩|足疗|水疗|massage|sauna|桑拿", "spa|bathhouse"),
    # What is done only on a shore: 赶海 (gathering shellfish at low tide), rock pooling,
    # beachcombing. The shore is a setting: 「想去海边冲浪」 in a city with no coast asks for none
    # of it, though a water park there tags its wave machine 冲浪 (general knowledge, issue 30,
    # session 43, after fresh12's 「哈尔滨能赶海吗 想去海边冲浪」 had been answered unmarked).
    _kind(
        "beach",
        "海滩|沙滩|海边|海滨|赶海|beach|seaside|rock pooling|rockpooling|tide pooling|"
        "tidepooling|beachcombing",
        "coast|bay|ocean|sea|海",
        setting=True,
    ),
    _kind("stargazing", "观星|看星星|天文|stargazing|astronomy|telescope", "star|stars|星"),
    _kind("birdwatching", "观鸟|birdwatching|birding|bird watching", "bird|birds|鸟"),
    _kind("picnic", "野餐|picnic|picnics"),
    _kind("kite flying", "放风筝|风筝|kite flying|kite|kites"),
    # Eating out as an outing: a tea house, a food tour, a night of street food. Added in
    # session 40 after fresh8's "dim sum breakfast this sunday" (labelled, development data)
    # had been emptied by the intent gate: a dish read alone leans towards the requests for
    # something else (recipes), and English "dim sum" does not reach a Chinese 早茶 listing.
    # The words are the general names of food outings, not that query's beyond "dim sum".
    _kind(
        "eating out",
        "美食|小吃|早茶|饮茶|下午茶|宵夜|夜宵|扫街|茶楼|dim sum|yum cha|brunch|afternoon tea|"
        "high tea|food tour|food tours|food walk|food crawl|street food|foodie|tasting menu",
        "吃|食|餐|饭|茶|菜|烧烤|火锅|点心|food|foods|eat|eating|dinner|lunch|breakfast|supper|"
        "tasting|restaurant|cafe|café|bakery|dumpling|dumplings|noodle|noodles|bbq|barbecue|chef|"
        "cuisine|market",
    ),
    _kind("wine tasting", "品酒|红酒|葡萄酒|wine tasting|winery|vineyard", "wine|wines"),
    # Spirits tasted or distilled as an outing (issue 30, session 44, after fresh13's
    # 「爱丁堡有没有威士忌品鉴」 had been emptied by the intent gate: a drink named alone leans
    # towards the requests for something else). General Chinese names of spirits; the English
    # names only offer it: an English query naming whisky was never emptied on the development
    # sets, and naming the kind would drop the beer and cocktail rows beside its whisky
    # (fresh7 "whiskey tasting", nDCG@5 0.99 -> 0.75 when tried).
    _kind(
        "spirits tasting",
        "威士忌|白兰地|金酒|朗姆酒|烈酒",
        "whisky|whiskey|whiskies|scotch|bourbon|distillery|distilleries|gin|rum|dram|drams|"
        "spirits|蒸馏|酒厂",
    ),
    _kind("brewery", "精酿|啤酒|brewery|craft beer|beer tasting", "beer|beers|pub|ale"),
    _kind("trivia", "知识竞赛|trivia|pub quiz|quiz night", "quiz"),
    _kind("volunteering", "志愿|义工|volunteering|volunteer", "charity|cleanup|公益"),
)


# The English noun of a game or a sport is said as a verb of doing it with "-ing"
# ("paintballing with the lads", "karting", "tenpin bowling"): a kind's naming word, and only
# those (a held word's "-ing" may be something else: "ring", "ringing"), reads with it too.
# General English word formation (issue 30, session 47, written after fresh17's "paintballing"
# had been seen answered with rows: development data; before, every form had to be listed).
_DOING = "ing"
# A naming word whose "-ing" is another verb: "improving" is getting better, not improv.
_NOT_DOING = frozenset({"improv"})


# A two-character Chinese name of doing something is often a verb and its object, and a
# listing says it with the object qualified: 「钓黑鱼」 is 钓鱼, 「游个泳」 游泳, 「跳支舞」 跳舞
# (separable words, 离合词: general Chinese grammar). On the candidates' side such a name also
# reads with one Chinese character between its two (:func:`split_form`). Written after
# fresh18's 「出海钓鱼的有吗」 had been answered empty though its city lists 「海钓｜…出海钓黑鱼」
# (issue 30, session 48); over the nineteen development sets it changes no other query, where
# two characters between read 「京剧」 in 「北京路喜剧」 (fresh8, a comedy night as theatre).
_SPLIT_GAP = 1
# Only a verb and its object part this way; 夜店, 网球, 滑板 are nouns (「深夜书店」 is no 夜店,
# 「网红球馆」 no 网球, 「滑雪板」 no 滑板: an audit, session 48). The verbs that head the
# two-character names of doing something (钓鱼, 游泳, 跳舞, 爬山, 打球, 唱歌, 跑步, 骑车, 划船,
# 踢球, 泡澡, 攀岩, 潜水, 射箭, 蹦迪, 下棋, 露营, 喝茶...); not 滑 (「滑到水里」 is no 滑水).
_SPLIT_VERBS = frozenset("钓游跳爬打唱跑骑划踢泡攀潜射蹦下露喝吃看听学做画写读拍")


def split_form(word: str) -> str | None:
    """Return the pattern of a two-character Chinese ``word`` said with :data:`_SPLIT_GAP`
    Chinese characters between its two (「钓黑鱼」 for 钓鱼), or None for any other word."""
    if len(word) != 2 or not all("\u4e00" <= ch <= "\u9fff" for ch in word):
        return None
    if word[0] not in _SPLIT_VERBS:
        return None
    return f"{re.escape(word[0])}[\u4e00-\u9fff]{{{_SPLIT_GAP}}}{re.escape(word[1])}"


def _alternation(words, doing=(), split=()) -> re.Pattern:
    """Return one pattern matching any of ``words``: English ones whole (no letter or digit
    either side), their words apart as written with spaces or hyphens ("cable-ski",
    "water-skiing": session 42 audit), those also in ``doing`` with or without
    :data:`_DOING`, Chinese ones anywhere, those also in ``split`` as written apart too
    (:func:`split_form`); longer words first, so "ice skating" wins over "skating" at the same
    place."""
    parts = []
    for word in sorted(set(words), key=len, reverse=True):
        if word.isascii():
            spaced = r"[\s-]+".join(re.escape(part) for part in word.split())
            ending = f"(?:{_DOING})?" if word in doing and word not in _NOT_DOING else ""
            parts.append(rf"(?<![a-z0-9]){spaced}{ending}(?![a-z0-9])")
        else:
            apart = split_form(word) if word in split else None
            parts.append(f"{re.escape(word)}|{apart}" if apart else re.escape(word))
    return re.compile("|".join(parts))


def _listed(found: str) -> str:
    """Return the listed word a match of :func:`_alternation` stands for ("cable-ski" is
    "cable ski"; "go-kart" is listed so; "paintballing" is "paintball")."""
    if found in _BY_WORD:
        return found
    spaced = re.sub(r"[\s-]+", " ", found)
    stem = spaced.removesuffix(_DOING)
    if spaced not in _BY_WORD and stem in _BY_WORD and stem not in _NOT_DOING:
        return stem
    return spaced


@cache
def _kind_pattern(kind: NamedKind, also_held: bool) -> re.Pattern:
    # A candidate's text: its naming words read written apart too (:func:`split_form`).
    words = kind.words + kind.held if also_held else kind.words
    return _alternation(words, kind.words, kind.words if also_held else ())


# Every word naming a kind in a query, and the kinds each names: one scan of the query. The
# names of something else (``not_in``) are read in the same scan and name nothing unless listed
# as a kind's words ("cable ski" is water skiing; 「滑水道」 is no kind), so a word of a kind
# inside one does not count in a query, as in a candidate (:func:`names`).
_BY_WORD: dict[str, list[NamedKind]] = {}
for _named in NAMED_KINDS:
    for _word in _named.words:
        _BY_WORD.setdefault(_word, []).append(_named)
_QUERY_WORDS = _alternation(set(_BY_WORD) | {w for k in NAMED_KINDS for w in k.not_in}, _BY_WORD)


def names(text: str, kind: NamedKind, *, also_held: bool = False) -> bool:
    """Return whether ``text`` (lower case) names ``kind`` (with its ``held`` words too); a
    word of it inside one of its ``not_in`` names does not count ("cable ski" is no skiing)."""
    if kind.not_in:
        text = _not_in_pattern(kind).sub(" ", text)
    return _kind_pattern(kind, also_held).search(text) is not None


@cache
def _not_in_pattern(kind: NamedKind) -> re.Pattern:
    return _alternation(kind.not_in)


@lru_cache(maxsize=1024)
def kinds_named(query: str) -> tuple[NamedKind, ...]:
    """Return the kinds of :data:`NAMED_KINDS` the query names outside a negation, in the
    list's order (memoised: a search asks for one query several times)."""
    text = (query or "").lower()
    refused = negated_spans(text)
    found = {
        kind
        for match in _QUERY_WORDS.finditer(text)
        if not inside(match.span(), refused)
        for kind in _BY_WORD.get(_listed(match.group(0)), ())
    }
    return tuple(kind for kind in NAMED_KINDS if kind in found)


def row_text(activity) -> str:
    """Return what a candidate says of itself, lower case: title, description, tags, type,
    vibes and place (a kind named anywhere in it counts as offered)."""
    tags = " ".join(str(t) for t in activity.tags or [])
    vibes = " ".join(str(v) for v in activity.vibes or [])
    place = getattr(activity, "location_name", "") or ""
    return f"{activity.title} {activity.description} {tags} {activity.type} {vibes} {place}".lower()


# Alternatives of a request: 「泡温泉或者去森林里放松」 asks for hot springs *or* a forest.
_ALTERNATIVES = re.compile(r"或者|或是|还是|要么|或|(?<![a-z])(?:or|either)(?![a-z])|/")


@lru_cache(maxsize=1024)
def kinds_asked(query: str) -> tuple[NamedKind, ...]:
    """Return :func:`kinds_named` when every alternative of the query names one (the whole
    request is for named kinds), else none: with an alternative naming no kind ("hot springs or
    a walk in the woods") something else would do, and the named kinds do not bound it."""
    text = (query or "").lower()
    parts = [part for part in _ALTERNATIVES.split(text) if part.strip(" ,，。.!?？！")]
    if any(not kinds_named(part) for part in parts):
        return ()
    return kinds_named(query)


def offering(query: str, activities: list) -> tuple[bool, ...]:
    """Return, per activity, whether it names a kind the query asks for (:func:`kinds_asked`);
    empty when the query asks for none."""
    named = kinds_asked(query)
    if not named:
        return ()
    texts = [row_text(a) for a in activities]
    return tuple(any(names(text, kind, also_held=True) for kind in named) for text in texts)


def absent_kind(query: str, activities: list) -> str | None:
    """Return the label of a kind the query asks for (:func:`kinds_asked`) that no candidate
    of ``activities`` names (None: the query asks for none, or a candidate offers one of
    those). With several named ("skiing or skating"), one offered is enough to answer, unless
    one named is a setting no candidate offers (「想去海边冲浪」: the seaside)."""
    named = kinds_asked(query)
    if not named or not activities:
        return None
    texts = [row_text(a) for a in activities]
    # A setting named and offered by no candidate bounds the request whatever else is offered:
    # surfing at a water park is no surfing at the seaside (:attr:`NamedKind.setting`).
    for kind in named:
        if kind.setting and not any(names(text, kind, also_held=True) for text in texts):
            return kind.label
    if any(names(text, kind, also_held=True) for kind in named for text in texts):
        return None
    return named[0].label
