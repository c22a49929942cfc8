"""Who a search query is for, and whether a listing says it is for them (issue 30).

「带我妈出去转转，她六十多了腿脚还行」, "something for a 2 year old", 「一个人在高新上班，下班想认识
点朋友」: an audience request names no activity, so the dense model answers it with the listings
close to every vague request, and the few rows kept miss the ones written for that audience
(docs/RELEVANCE.md, "Audience"). A listing usually says whom it is for: its type (长者, Family),
its tags (老年人, toddlers, 新手) or its description (适合三到六岁, "for over-60s", "come solo").

:func:`asked` reads the audiences a query names and :func:`stated` those a listing states, each
from a closed table (:data:`AUDIENCES`) written from general knowledge of how people in both
languages name older people, children, newcomers and so on, not from the development queries'
wording. A row stating an audience the query asks for counts as a cue of the query (the hybrid's
order, the cut's evidence and the precision gate read it as they read a kind or mood cue;
``activities.search_ranking.cue_counts``). An audience under a negation of the query ("no
kids") is not asked for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from activities.negation import inside, negated_spans
from rag.understand.needs import need_request

# Ages: Chinese numerals up to 九十, a child's age ("三岁", "6岁") or an older person's ("六十多",
# "75岁"); English "2 year old", "75-year-old", "over-60s".
_ZH_DIGITS = dict(zip("一二两三四五六七八九", (1, 2, 2, 3, 4, 5, 6, 7, 8, 9), strict=True))
_ZH_AGE = re.compile(r"([一二两三四五六七八九十\d]{1,3})(?:多)?(?:岁|周岁|了)")
# An English age says "old" or "aged" ("played guitar for 10 years" names none); "over" only
# from 50 up ("over 10 people" is no age).
_EN_AGE = re.compile(
    r"\b(\d{1,2})[- ]?(?:years?|yrs?)[- ]olds?\b|\b(\d{1,2})[- ]?yo\b|\baged (\d{1,2})\b"
    r"|\bover[- ]?([5-9]0)s?\b"
    # someone's age said of them ("my son is 14", "she's 85"); not a clock time, a length or a
    # count ("is 10 minutes away", "is 5pm", "are 6 of us")
    r"|\b(?:(?:son|daughter|kid|child|boy|girl|grandson|granddaughter|brother|sister|mum|mom|dad"
    r"|nan|gran|grandma|grandpa|he|she|they)\s+(?:is|are)|she['’]?s|he['’]?s|they['’]?re|turning"
    r"|turned|just turned)\s+(\d{1,2})\b"
    r"(?![:.]\d|\s*(?:am|pm|a\.m|p\.m|o['’]?clock|min|mins|minutes?|hours?|hrs?|h|km|k|miles?|mi"
    r"|%|of|people|quid|dollars?|bucks|pounds|euros?|percent|degrees?|days?|weeks?|months?)\b)",
    re.I,
)
CHILD_AGE = 12  # at most this old: a child
TEEN_AGE = 17  # above CHILD_AGE and at most this old: a teenager
OLDER_AGE = 55  # at least this old: an older person


def _zh_number(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        value = (_ZH_DIGITS.get(tens, 1) if tens else 1) * 10
        return value + (_ZH_DIGITS.get(ones, 0) if ones else 0)
    return _ZH_DIGITS.get(text) if len(text) == 1 else None


def _ages(text: str) -> list[tuple[int, tuple[int, int]]]:
    """Return the (age, span) a text names."""
    found = []
    for match in _ZH_AGE.finditer(text):
        value = _zh_number(match.group(1))
        if value is not None and (match.group(0).endswith("岁") or value >= 20):
            found.append((value, match.span()))
    for match in _EN_AGE.finditer(text):
        value = int(next(group for group in match.groups() if group))
        found.append((value, match.span()))
    return found


class Words:
    """Words to find in a text, each a small regular expression tried only when its plain
    piece is in the lowered text: a substring test is far cheaper than the expression, and
    most listings state no audience."""

    def __init__(self, words: str):
        self.parts = []
        for word in words.split("|"):
            escaped = re.escape(word).replace(r"\ ", r"[\s-]+")
            chinese = re.search(r"[\u4e00-\u9fff]", word)
            pattern = re.compile(escaped if chinese else rf"\b{escaped}\b", re.IGNORECASE)
            self.parts.append((max(re.split(r"[\s-]+", word.lower()), key=len), pattern))

    def finditer(self, text: str):
        lowered = text.lower()
        for hint, pattern in self.parts:
            if hint in lowered:
                yield from pattern.finditer(text)

    def search(self, text: str):
        return next(self.finditer(text), None)


def _words(words: str) -> Words:
    """Return :class:`Words` for ``words`` ("|" between them): Chinese ones anywhere, English
    ones as whole words (a space: any run of spaces or hyphens)."""
    return Words(words)


@dataclass(frozen=True)
class Audience:
    """One audience: how a query names it (``asks``) and how a listing says it is for it
    (``states``); ``excludes``: what in a listing says it is not (an adults-only evening)."""

    asks: Words
    states: Words
    excludes: Words | None = None


OLDER, CHILDREN, TEENS = "older", "children", "teens"
AUDIENCES: dict[str, Audience] = {
    OLDER: Audience(
        asks=_words(
            "老人|老年|长辈|长者|爸妈|父母|我妈|我爸|老妈|老爸|爹妈|奶奶|爷爷|外婆|外公|姥姥|姥爷|"
            "老伴|退休|银发|senior|seniors|elderly|older people|older adults|retired|retiree|"
            "retirees|pensioner|pensioners|grandparents|grandma|grandmother|grandpa|grandad|"
            "granddad|grandfather|granny|gran|nan|nana|my mum|my mom|my mother|my dad|my father|"
            "my parents|my folks|dementia"
        ),
        states=_words(
            "长者|老年|老人|长辈|银发|退休|中老年|老少皆宜|叔叔阿姨|senior|seniors|elderly|"
            "older adults|older people|retirees|retired|dementia|all ages|55+|60+|65+|70+|"
            "over-50s|over-55s|over-60s|over-65s|over-70s"
        ),
    ),
    CHILDREN: Audience(
        asks=_words(
            "孩子|小孩|娃|儿童|宝宝|小朋友|儿子|女儿|亲子|幼儿|学龄前|一家人|全家|小学生|中学生|"
            "初中生|幼儿园|kid|kids|child|"
            "children|toddler|toddlers|baby|babies|infant|son|daughter|family|families|preschool|"
            "preschooler|buggy|pram|stroller|little ones|primary school|grade school|schoolkids"
        ),
        states=_words(
            "亲子|儿童|孩子|小朋友|宝宝|幼儿|家庭|家长|遛娃|少儿|老少皆宜|全家|family|families|"
            "kids|children|child|toddler|toddlers|preschool|under-fives|under fives|grown-ups|"
            "all ages|prams|pram|buggies"
        ),
        excludes=_words(
            "18+|十八岁以上|成人专场|儿童不宜|谢绝儿童|adults only|over-18s|no children|no kids"
        ),
    ),
    # A teenager is not a child to an activity: the toddler and family rows a child's cue
    # favours are what "my 14 year old" does not want (six English development queries named a
    # teen or an age of 13-17 and read no audience or read children; issue 30, session 46).
    TEENS: Audience(
        asks=_words(
            "青少年|高中生|teen|teens|teenager|teenagers|teenage|tween|tweens|adolescent|"
            "adolescents"
        ),
        states=_words(
            "青少年|初中生|中学生|高中生|teen|teens|teenager|teenagers|teenage|young people|youth|"
            "ages 12+|ages 13+|ages 14+|12 and up|13 and up|14 and up"
        ),
        excludes=_words("18+|十八岁以上|adults only|over-18s"),
    ),
    "newcomers": Audience(
        asks=_words(
            "刚来|刚到|刚搬|新来|初来|谁都不认识|不认识人|认识朋友|认识点朋友|认识些朋友|"
            "认识新朋友|交朋友|交点朋友|交友|just moved|just arrived|just landed|newcomer|"
            "newcomers|new in town|new to the city|new to town|new here|meet people|meet ppl|"
            "meet new people|make friends|make new friends|know anyone|know nobody|no friends|"
            "0 friends|zero friends"
        ),
        states=_words(
            "交友|新朋友|认识朋友|破冰|刚来|刚搬|新来的|newcomers|new to|meet people|make friends|"
            "icebreaker|icebreakers|new in town"
        ),
    ),
    # On one's own: whether to meet people or to be left alone, a listing saying one may come
    # alone suits both. Not 一个人 in a query: 「想安安静静一个人待会」 asks for solitude, and
    # the listings saying 一个人来 are the socials.
    "solo": Audience(
        asks=_words("独自|alone|solo|on my own|by myself"),
        states=_words(
            "一个人来|一个人也|独自|单人|自己来|come alone|come solo|solo|on your own|by yourself"
        ),
    ),
    "couples": Audience(
        asks=_words(
            "情侣|约会|对象|男朋友|女朋友|男友|女友|另一半|纪念日|date|date night|couple|couples|"
            "girlfriend|boyfriend|gf|bf|anniversary|romantic"
        ),
        states=_words("情侣|约会|双人|浪漫|烛光|couples|date night|romantic|for two|candlelit"),
    ),
    # Sexual and gender minorities: "queer friendly", "lgbtq night out" name no activity, and a
    # listing says it is theirs (LGBTQ+ social, queer dance party, drag show); five English
    # development queries named them and read no audience (issue 30, session 46). Not "gay"
    # in a listing (the Gay Gordons is a ceilidh dance) nor 同志 (comrade).
    "queer": Audience(
        asks=_words(
            "lgbt|lgbtq|lgbtqia|lgbtq+|queer|gay|lesbian|bisexual|trans|nonbinary|酷儿|彩虹群体"
        ),
        states=_words("lgbt|lgbtq|lgbtqia|queer|drag|rainbow community|pride|酷儿|彩虹"),
    ),
    "colleagues": Audience(
        asks=_words(
            "团建|同事|团队|部门|team building|team-building|colleagues|coworkers|"
            "co-workers|work outing"
        ),
        states=_words(
            "团建|团队|企业|包场|team building|teams|corporate|group bookings|private hire"
        ),
    ),
    "pets": Audience(
        asks=_words(
            "宠物|狗狗|小狗|我家狗|毛孩子|猫咪|小猫|养了只猫|养了只狗|遛狗|柯基|金毛|泰迪|柴犬|"
            "dog|dogs|puppy|pup|pet|pets|cat|cats|pooch"
        ),
        states=_words(
            # Not a bare 猫: 熊猫 (the panda talks) are no pets.
            "宠物|狗狗|犬|猫咪|撸猫|养猫|猫友|带猫|遛狗|dog|dogs|dog-friendly|pets|pet-friendly|"
            "puppy|puppies|cats"
        ),
    ),
    "students": Audience(
        asks=_words(
            "学生|大学生|穷|省钱|没钱|预算|免费|便宜|不花钱|不用花钱|不要钱|student|students|uni|budget|cheap|"
            # Not a bare "free" ("gluten free", "free this weekend"): "any free ones?" after a
            # search asks for no charge (a make-run look, session 51).
            "skint|broke|free ones|free one|for free|free stuff|free things|free events|"
            "free activities|free of charge|no charge|costs nothing|anything free|something free"
        ),
        states=_words(
            # Not a bare "free": gluten-free, step-free, feel free.
            "免费|学生|不收费|free entry|free admission|free of charge|free to attend|free event|"
            "students|student|by donation|donations welcome|no charge|"
            "pay what you can"
        ),
    ),
    "beginners": Audience(
        asks=_words(
            "零基础|新手|小白|入门|初学|没学过|没玩过|没基础|beginner|beginners|novice|"
            "first timer|first-timers|newbie|never done|never tried|never played"
        ),
        states=_words(
            "零基础|新手|入门|初学|不需要基础|不用基础|没玩过|没基础|不看基础|不需要美术基础|"
            "beginner|beginners|no experience|all levels|all abilities|first-timers|never played"
        ),
    ),
    "accessible": Audience(
        asks=_words(
            "腿脚不便|腿脚不方便|腿脚不好|腿脚不太好|腿脚不利索|腿脚不灵便|行动不便|走不动|"
            "走不了远路|轮椅|腰不好|腰疼|腰酸|膝盖不好|孕妇|怀孕|"
            "wheelchair|mobility|disabled|disability|bad back|bad knees|pregnant|low-impact|"
            "uses a walker|with a walker|zimmer frame|walking stick|mobility scooter|uses a cane"
        ),
        states=_words(
            "无障碍|轮椅|坐着|平路|低强度|慢节奏|节奏慢|wheelchair|step-free|accessible|seated|"
            "chair-based|gentle|low-impact|unhurried"
        ),
    ),
}


@lru_cache(maxsize=1024)
def asked(query: str, *, negated: bool = False) -> frozenset[str]:
    """Return the audiences ``query`` names outside a negation (「不带孩子」, "no kids": not
    asked; ``negated``: those it names under one instead); a child's age (at most
    :data:`CHILD_AGE`) or an older person's (at least :data:`OLDER_AGE`) names them too."""
    text = query or ""
    spans = negated_spans(text)
    matches = [
        (name, m.span())
        for name, audience in AUDIENCES.items()
        for m in audience.asks.finditer(text)
    ]
    found = set()
    for name, span in matches:
        # A word inside a longer word of another audience is that word's: 学生 in 小学生 (a
        # pupil, a child) asks for no student budget (fresh11 「适合小学生的科普活动」, session 45).
        within = any(
            other != name and s <= span[0] and span[1] <= e and (s, e) != span
            for other, (s, e) in matches
        )
        if not within and inside(span, spans) == negated:
            found.add(name)
    teen_age = child_age = False
    for age, span in _ages(text):
        if inside(span, spans) != negated:
            continue
        if age <= CHILD_AGE:
            found.add(CHILDREN)
            child_age = True
        elif age <= TEEN_AGE:
            found.add(TEENS)
            teen_age = True
        elif age >= OLDER_AGE:
            found.add(OLDER)
    # A son or daughter whose age is a teen's is that teen ("my son is 14"): no child's cue.
    if teen_age and not child_age:
        found.discard(CHILDREN)
    return frozenset(found)


# Who a person is, read from their age or their body (「我妈六十多了 腿脚不利索」, "my dad is 80,
# uses a walker"): such a query asks what that person can go to, and the dense model reads it
# as the health or family talk it sounds like (fresh13's query of that form sat below the
# margin gate, issue 30, session 44). Budget words (students) and the company asked for
# (couples, colleagues) are not who one is, and a "cheap" request is as often for shopping.
# A pet is whom the outing is for too ("my dog is bored": fresh14, read as a request for
# something else and answered empty, session 45).
PERSONS = frozenset({OLDER, CHILDREN, TEENS, "accessible", "pets"})
# Asking where to go or what to do (能去啥, 去哪, 能参加的, 带…去, "things to do", "where can I
# take"), not a yes/no about one place (「要去医院吗」 names where already).
_OUTING = re.compile(
    r"能去|去哪|去啥|去什么地方|能参加|可以参加|能玩|可以玩|能干啥|干点啥|做点啥|带.{1,6}去(?:哪|啥|玩|转|逛|走)"
    r"|\bthings to do\b|\bwhere (?:can|could|should|to) (?:i |we )?(?:take|go)\b"
    r"|\bsomewhere (?:to take|for)\b|\bwhat can (?:i|we|they|he|she) do\b|\bactivities for\b"
    r"|\bnothing to do\b",
    re.I,
)

# What someone loves or is keen on, said of them ("train mad 6 year old", "horse-mad daughter",
# "my nan loves a cuppa", "obsessed with movies", 「就爱听戏」, 「是个火车迷」): said of a
# person the search is asked about, it asks what they would enjoy, as a need stated does
# (fresh24's "train mad 6 year old" read near family talk past the intent gate, issue 30,
# session 54). "X mad" is keen on X only after a content word: not after an intensifier, a
# verb of making or a pronoun ("so mad", "drives me mad", "is mad at"), which say angry;
# "into" only after a copula, an intensifier or an age ("is really into", "15yo into"), not
# "ran into". 爱 only before a verb of doing (爱听, 爱玩; not 可爱, 爱人); X迷 a fan of X, not
# 迷路, 迷你, 迷茫.
_NOT_KEEN = (
    r"so|too|very|really|bit|bloody|proper|pure|totally|completely|absolutely|stark|barking|"
    r"raving|hopping|gone|going|go|goes|went|get|gets|got|getting|drive|drives|driving|drove|"
    r"is|was|are|am|be|been|im|me|him|her|them|us|you|it|not|just|and|or|a|the|pretty|quite"
)
_INTEREST = re.compile(
    r"\b(?:loves?|adores?|likes?|enjoys?|obsessed|fanatic|keen on|hooked on|passionate about"
    r"|interested in|fan of|(?:mad|crazy|nuts|potty) (?:about|on|into|for))\b"
    rf"|\b(?!(?:{_NOT_KEEN})\b)[a-z]+[- ](?:mad|crazy)\b(?![- ](?:at|with)\b)"
    r"|(?:\b(?:is|are|really|so|very|super|well|big|totally|massively)|['’]s|\dyo|\byo"
    r"|\bold)\s+into\b"
    r"|喜欢|钟意|爱好|热爱|痴迷|着迷|迷上|入迷|感兴趣|(?:就|最|特别|很|好|超)?爱(?=[看玩听画唱跳跑读踢打下搭拼做逛拍"
    r"写弹骑游爬钓])"
    r"|(?![沉昏低])[\u4e00-\u9fff]迷(?![路茫糊惑信失恋你人宫])",
    re.I,
)

# Advice asked about them beside what they love ("my toddler loves bananas, how many a day",
# "loves chewing shoes, how to stop him", 「喜欢咬人怎么办」): a question how or why, whether
# one should, whether it is all right, asks for an answer, not an outing. "how about", 怎么样
# and "what do I do with ..." may still ask for one. Written from general grammar, not from a
# development query: none of the twenty-five DEV_SETS' queries holds both (issue 30, session 54).
_ADVICE = re.compile(
    # Not "how far / how long" (a fact of the outing), "why not a bug walk", "what should we do
    # with our dinosaur mad 5yo" (an audit, session 54).
    r"\bhow\b(?!\s+(?:about|far|long|much|old)\b)|\bwhy\b(?!\s+not\b)"
    r"|\bshould (?:i|we)\b(?!\s+do\s+(?:with|this|today|on)\b)"
    r"|\bis (?:it|that|this) (?:ok|okay|alright|normal|safe|bad|healthy)\b"
    r"|\bwhat (?:do|should) (?:i|we) do\b(?!\s+with\b)"
    # "my son likes to bite other kids, any tips": tips and advice are answers, not outings (the
    # lead's review, session 54).
    r"|\b(?:tips?|advice)\b|办法|窍门"
    r"|怎么(?!样)|如何|为什么|为啥|咋(?:办|整|回事|弄)|正常吗|要紧吗",
    re.I,
)


# A liking denied (孩子不喜欢出门, "my son doesn't like crowds"): no outing for what they love
# (an audit, session 54).
_NOT_KEEN_ON = re.compile(
    r"(?:不|没)(?:太|怎么|大)?(?:喜欢|爱|感兴趣)"
    r"|\b(?:doesn'?t|don'?t|does not|do not|never) (?:really )?(?:like|love|enjoy)\b",
    re.I,
)


def interest_stated(query: str) -> bool:
    """Return whether a query says what someone loves or is keen on (:data:`_INTEREST`), denies
    no liking (:data:`_NOT_KEEN_ON`) and asks no advice about it (:data:`_ADVICE`)."""
    text = query or ""
    if _ADVICE.search(text) or _NOT_KEEN_ON.search(text):
        return False
    return bool(_INTEREST.search(text))


# Care asked for, not an outing: 「我爸腿脚不好 去哪个医院」 asks where to go, for a doctor.
_CARE = re.compile(
    r"医院|看病|挂号|医生|大夫|诊所|药|康复|理疗|\b(?:hospital|doctor|gp|clinic|pharmacy|"
    r"physio|medicine|meds|vet|vets|veterinary)\b|兽医",
    re.I,
)


def care_asked(query: str) -> bool:
    """Return whether a query asks for care (a hospital, a doctor, medicine, a vet)."""
    return bool(_CARE.search(query or ""))


def outing_for(query: str) -> frozenset[str]:
    """Return the audiences of :data:`PERSONS` a query asks somewhere to go for (it names them
    and asks where to go or what to do: 「我妈六十多了 腿脚不利索 能去啥」), else none; a query
    asking for care (a hospital, a doctor, medicine) asks for no outing."""
    text = query or ""
    # Or saying they are bored, cooped up, restless (rag.understand.needs): what to do with
    # them (session 45; "restless legs" is a condition, read there); or what they love
    # (:func:`interest_stated`, session 54).
    if not (_OUTING.search(text) or need_request(text) or interest_stated(text)) or care_asked(
        text
    ):
        return frozenset()
    return asked(text) & PERSONS


def refused(query: str) -> frozenset[str]:
    """Return the audiences ``query`` names only under a negation ("volunteering that doesn't
    involve kids")."""
    return asked(query, negated=True) - asked(query)


def listing_text(activity) -> str:
    """Return what a listing says of itself: title, type, tags and description."""
    tags = " ".join(str(t) for t in activity.tags or [])
    return f"{activity.title} {activity.type} {tags} {activity.description or ''}"


def stated(text: str, audiences=None) -> frozenset[str]:
    """Return the audiences of ``audiences`` (None: all) a listing's ``text`` says it is for
    (:func:`listing_text`), other than under its own negation or beside its own exclusion."""
    names = AUDIENCES if audiences is None else audiences
    return frozenset(name for name in names if _states(name, text))


@lru_cache(maxsize=8192)
def _states(name: str, text: str) -> bool:
    """Return whether ``text`` states the audience ``name`` (memoised: one search reads its
    candidates for the cut, the gate and the order, and listings come back across searches)."""
    audience = AUDIENCES[name]
    if audience.excludes is not None and audience.excludes.search(text):
        return False
    spans = None
    for match in audience.states.finditer(text):
        spans = negated_spans(text) if spans is None else spans
        if not inside(match.span(), spans):
            return True
    # A child's age stated ("适合三到六岁", "for 3- to 5-year-olds") is for children.
    return name == CHILDREN and any(age <= CHILD_AGE for age, _ in _ages(text))


# Whom a volunteering listing names is whom it serves, not whom it is for: the older neighbour
# visited, the families a food bank packs for, the children tutored, the shelter dogs walked
# (every development corpus holds such rows; "things for retired people" put "Befriending
# volunteers" first by its "older people" tag, fresh7, issue 30, session 45). What it involves
# still counts against it when the query refuses it ("volunteering that doesnt involve kids").
BENEFICIARIES = frozenset({OLDER, CHILDREN, TEENS, "pets", "accessible"})
# Read from the listing's type and tags only: a listing for seniors may say its helpers are
# volunteers ("one-on-one with patient volunteers").
_VOLUNTEERING = _words("公益|志愿|义工|volunteer|volunteers|volunteering|charity")


def serves_others(activity) -> bool:
    """Return whether a listing is volunteering (its type or a tag says so)."""
    tags = " ".join(str(t) for t in activity.tags or [])
    return _VOLUNTEERING.search(f"{activity.type} {tags}") is not None


def stated_for(activity, audiences=None) -> frozenset[str]:
    """Return the audiences of ``audiences`` (None: all) a listing is for: those it states
    (:func:`stated`), less :data:`BENEFICIARIES` when it is volunteering (whom it serves)."""
    found = stated(listing_text(activity), audiences)
    return found - BENEFICIARIES if found and serves_others(activity) else found


def audience_counts(activities: list, query: str, *, negated: bool = False) -> list[int]:
    """Return, per activity, how many of the audiences ``query`` asks for it is for
    (:func:`stated_for`; ``negated``: how many of those it refuses it states at all,
    :func:`refused`: a volunteering listing involves whom it serves)."""
    wanted = refused(query) if negated else asked(query)
    if not wanted:
        return [0] * len(activities)
    if negated:
        return [len(stated(listing_text(a), wanted)) for a in activities]
    return [len(stated_for(a, wanted)) for a in activities]
