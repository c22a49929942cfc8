"""Read a short message right after a search as a change to that search.

"what about tomorrow?", 那明天的呢 and 周日呢 after 周末有什么户外活动 ask the same thing at another
time; "what about food?" and 那美食呢 ask for another kind at the same time; 有没有不用花钱的 and
"any free ones?" narrow it. Each keeps from the last search what the message leaves unsaid. Read
by its own words, such a message went to the user's activities (那明天的呢), to small talk ("what
about tomorrow?") or to the search for company (有没有室内的): a make-run look, session 51.

The router sends such a message to EXPLORE when the last turn searched (:func:`follows_search`);
the planner builds the changed search (:func:`changed_search`).
"""

from __future__ import annotations

import re

from agent import extract
from rag.understand import Understanding

# The results named as the ones asked about ("are any of them free?", 这些里面有免费的吗 searched
# "are of them free" and 「这些里面 免费」: a make-run look, session 53); not what one thinks of
# them ("some of those look boring") nor a person (其中有我朋友的吗): its audit.
_THE_RESULTS_ZH = r"(?:这些|那些|这几个|那几个|其中|里面)(?:里面?|中|当中)?"
_OF_THE_RESULTS = (
    r"|^\W*(?:(?:and|ok|so)\W+)?(?:(?:are|is)\s+)?(?:any|some|one|either)\s+of\s+"
    r"(?:them|those|these)\s+(?!(?:going|for|with|look|looks|seem|seems|sound|sounds|are|is"
    r"|were|was)\b)\w+(?:\s+\w+){0,2}\W*$"
    r"|^\W*"
    + _THE_RESULTS_ZH
    + r"(?:有没有|有)(?![我你他她])[^，,。？?！!\s]{1,8}的(?:吗|呢|嘛|么)?\W*$"
)
# A narrowing of what was just listed: 有没有不用花钱的, 要室内的, "any cheaper ones?",
# "something quieter".
REFINES_RE = re.compile(
    r"^(?!.*(?:(?<!特)别|其他|其它)的)\W*(?:那|那么|嗯)?\W*(?:有没有|有没|要|只要|最好是?|换成)?"
    # Not 好的, 是的, 真的, 你的呢: an answer, not a narrowing (an audit, session 50).
    r"(?!(?:好|是|真|对|行|你|他|她|挺好|不是|当然|别|其他|其它)的)[^，,。？?！!\s我想找]{1,8}的"
    r"(?:吗|呢|呀|吧|么)?\W*$"
    r"|^\W*(?:(?:and|ok|so)\W+)?(?:any|what about|how about)\s+(?:\w+\s+){0,2}?"
    r"(?:ones?|options?)\W*$"
    r"|^\W*(?:something|anything)\s+\w+er\W*$"
    # "not outdoor ones", "no indoor stuff": a refusal narrows too (an audit, session 51).
    r"|^\W*(?:but\s+)?(?:not|no|without)\s+(?!(?:other|more|else|that|this|the|those|these|any)\b)"
    r"\w+(?:\s+\w+)?\s+(?:ones?|options?|stuff|things)\W*$" + _OF_THE_RESULTS,
    re.IGNORECASE,
)
# The words that only ask ("any", "what about"); "free ones" keeps "ones", which the search reads
# as asking for listings at no charge (activities.audience).
_REFINING_WORDS_RE = re.compile(
    r"\b(?:what about|how about|any|something|anything)\b|\b(?<!free )(?:ones?|options?)\b"
    # What is left of "are any of them free?" once the search's reader took "any": "are of them".
    r"|\b(?:(?:are|is)\s+)?(?:(?:any|some|one|either)\s+)?(?:of\s+)?(?:them|those|these)\b"
    r"|^" + _THE_RESULTS_ZH,
    re.IGNORECASE,
)
# What is left of a message that only names another time, once the time is read: 那明天的呢,
# 周日呢, "what about tomorrow?", "and on saturday?".
_ONLY_ASKING_RE = re.compile(
    r"^(?:那么?|还有|改成|换成|and|or|so|ok|what about|how about|and what about|and how about|on"
    # "what about next week instead?" searched "instead" (an audit, session 51).
    r"|the|instead|then|rather|\s)*$",
    re.IGNORECASE,
)
# Another thing at the same time: "what about food?", "how about some live music", 那美食呢.
_OTHER_THING_RE = re.compile(
    r"^\W*(?:(?:and|ok|so)\W+)?(?:what|how) about\s+(?:some\s+|any\s+)?(?P<en>[\w' -]{2,30}?)\W*$"
    r"|^\W*那(?:么)?(?P<zh>[^，,。？?！!\s]{1,8}?)(?:的)?呢\W*$",
    re.IGNORECASE,
)
# Not another thing: a person (那你呢, 那我妹妹呢, "what about you?", "what about my sister?"),
# one of the results (那第一个呢), something about the results (那几点呢, "what about the price?")
# or a suggestion ("how about we go?"): each was searched as a kind (an audit, session 51).
_NOT_A_THING_RE = re.compile(
    r"^(?:[你我他她](?:们)?.{0,4}|这个|那个|这|第.+|它|这些|那些)$"
    r"|^(?:几点|什么时候|哪天|几号|多少钱|价格|价钱|费用|收费|门票|地点|地址|在哪(?:里|儿)?|时间|天气)$"
    r"|^(?:you|me|him|her|them|us|it|that|this|that one|this one|the (?:first|second|third|last)"
    r"(?: one)?)$"
    r"|^(?:the )?(?:prices?|costs?|fees?|tickets?|time|times|timing|place|location|address|weather"
    r"|parking|details?)$"
    r"|^(?:my|your|our|his|her|their)\b"
    r"|^(?:we|i|you|they|he|she)\s+\w+",
    re.IGNORECASE,
)
# A kind and the kind that contradicts it: "what about indoor ones?" after an outdoor search asks
# for indoor ones, not for outdoor ones that are also indoor (an audit, session 51: the old kind
# stayed in the query).
_OPPOSITES = {
    "indoor": ("outdoors", "outdoor", "outside"),
    "indoors": ("outdoors", "outdoor", "outside"),
    "outdoor": ("indoors", "indoor", "inside"),
    "outdoors": ("indoors", "indoor", "inside"),
    "室内": ("户外", "室外", "野外"),
    "户外": ("室内",),
    "室外": ("室内",),
}
# A refusal before a kind: 不要户外的, "not outdoor ones", "no outdoor stuff".
_REFUSED_KIND_RE = re.compile(
    # Not 别的 / 特别 (有没有别的 is asking for others: an audit, session 52).
    r"(?:不要|不想要|不是|(?<!特)别(?!的)|非|\bno\b|\bnot\b|\bnon-?)\s*(?P<kind>[\w\u4e00-\u9fff]+)",
    re.IGNORECASE,
)


def _another_time(message: str, understood: Understanding) -> str:
    """Return the time a message names when it names nothing else; "" otherwise."""
    said = extract.time_said(understood)
    if said and _ONLY_ASKING_RE.match(extract.semantic_query(message)):
        return said
    return ""


def _another_thing(message: str) -> str:
    """Return the thing a "what about X?" or 那X呢 names, or ""."""
    found = _OTHER_THING_RE.match(message)
    if not found:
        return ""
    thing = (found.group("en") or found.group("zh") or "").strip()
    return "" if _NOT_A_THING_RE.match(thing) else thing


# Someone's visit pointed back at: "find something we could do when she's here" after "my sister
# Lucy is visiting next Friday, she loves jazz" searched "find we could do" alone (a make-run
# look, session 51); 她来的时候带她去哪玩.
_THEIR_VISIT_RE = re.compile(
    r"\b(?:when|while) (?:she|he|they)(?:['’]s|['’]re| is| are)? (?:here|visiting|in town|around"
    r"|over|comes?|arrives?|visits?|stays?)\b"
    r"|(?:她|他|他们|她们)(?:来|过来|回来)(?:的时候|那天|了以后)",
    re.IGNORECASE,
)


# What someone likes, said of them (她喜欢听戏, "loves pottery"): the thing liked.
_LIKED_ZH = r"(?:很|特别|最|比较|超)?(?:喜欢|爱)(?P<zh>[^，,。！!？?\s的]{1,8})"
_LIKED_EN = (
    r"(?:really\s+)?(?:loves?|likes?|enjoys?|is\s+into|are\s+into)\s+"
    r"(?P<en>[\w' -]{2,30}?)(?=\s*[,.!?]|\s*$|\s+(?:and|but)\b)"
)
# What the visitor likes, said with the visit (下周六我妈来上海玩，她喜欢听戏; "she loves pottery"):
# the search for their visit looks for it even when it names no kind the lexicon knows (听戏
# was dropped: a make-run look, session 53).
_THEIR_LIKING_RE = re.compile(
    r"(?:她|他|她们|他们)" + _LIKED_ZH + r"|\b(?:she|he|they)\s+" + _LIKED_EN, re.IGNORECASE
)


def visit_said_before(message: str, topic: str, earlier: list[str]) -> str:
    """Return the search for ``message`` (whose semantic part is ``topic``) with the time and the
    kinds of the user's latest earlier message naming a time ("next Friday jazz find we could do
    together"), when it points back at someone's visit without a time of its own; "" otherwise.
    ``earlier``: the user's earlier messages in the chat, oldest first."""
    if not _THEIR_VISIT_RE.search(message) or extract.time_said(extract.read(message)):
        return ""
    for text in reversed(earlier):
        understood = extract.read(text)
        said = extract.time_said(understood)
        if said:
            kinds = [text[slice(*cue.span)] for cue in extract.kinds_in(text, understood)]
            liking = _THEIR_LIKING_RE.search(text)
            liked = (liking.group("zh") or liking.group("en") or "").strip() if liking else ""
            if liked and not any(liked in kind or kind in liked for kind in kinds):
                kinds.append(liked)
            rest = _THEIR_VISIT_RE.sub(" ", topic).strip()
            return " ".join([said, *kinds, rest]).strip()
    return ""


# Someone told of earlier ("我女儿6岁，喜欢画画", "my son is 7 and loves trains") asked for by a
# pronoun: 这周末有适合她的活动吗 searched 「她」 and found nothing (a make-run look, session 54).
# 他 inside 其他 or 吉他 is no pronoun (其他能玩的 searched the child told of: an audit, 54).
_HE_ZH = r"(?<![其吉])他"
THEY_ZH = rf"(?:她们|他们|她|{_HE_ZH})"
_FOR_THEM_RE = re.compile(
    rf"(?:适合|给|带|陪|让|跟){THEY_ZH}|{THEY_ZH}(?:能|可以|会)?(?:玩|去|参加|喜欢)"
    r"|\b(?:for|take|bring|with) (?:her|him|them)\b"
    r"|\b(?:she|he|they)(?:['’]d| would| could| can| might| will) (?:like|enjoy|love|do|go)\b"
    r"|\b(?:would|could|might|will|does|do) (?:she|he|they) (?:like|enjoy|love)\b",
    re.IGNORECASE,
)
# The pronoun and the liking said of it leave the search: "anything she'd like?" searched the
# child told of and "like" (session 54's make-run look); the liking told earlier takes its place.
_PRONOUN_RE = re.compile(
    THEY_ZH + r"(?:能|可以|会|可能)?(?:喜欢|爱)?"
    r"|\b(?:her|him|them|she|he|they)(?:['’]d| would| could| can| might| will)?"
    r"(?: (?:like|enjoy|love|fancy)(?: to do)?)?\b"
    r"|\b(?:would|could|might|will|does|do) (?:she|he|they) (?:like|enjoy|love)(?: to do)?\b"
    r"|\b(?:i|we) (?:can|could) (?:take|bring)\b",
    re.IGNORECASE,
)
# Who a pronoun can be: her/她 not a son, him/他 not a daughter (an audit, session 54).
_FEMALE_TEXT = (
    "sister mum mom mother wife daughter girlfriend grandma nan nana aunt "
    "妈 妈妈 老婆 妹 妹妹 姐 姐姐 女儿 闺女 女朋友 奶奶 姥姥 外婆"
)
_MALE_TEXT = (
    "brother dad father husband son boyfriend grandpa uncle "
    "爸 爸爸 老公 哥 哥哥 弟 弟弟 儿子 男朋友 爷爷 姥爷 外公"
)
_FEMALE = frozenset(_FEMALE_TEXT.split())
_MALE = frozenset(_MALE_TEXT.split())
_SHE_RE = re.compile(r"她|\b(?:she|her)\b", re.IGNORECASE)
_HE_RE = re.compile(_HE_ZH + r"(?!们)|\b(?:he|him)\b", re.IGNORECASE)
_SOMEONE_RE = re.compile(
    r"\b" + extract.CLOSE_PERSON_EN + "|" + extract.CLOSE_PERSON_ZH, re.IGNORECASE
)
# Their age, said of them: 6岁, 六岁, "6 year old", "is 7", "aged 7".
_AGE_RE = re.compile(
    r"(?P<zh>[一二两三四五六七八九十\d]{1,3})(?:多)?(?:岁|周岁)"
    r"|\b(?:(?P<en>\d{1,2})[- ]?(?:years?|yrs?)[- ]?old"
    r"|(?:is|are|turned|turns|aged?) (?P<is>\d{1,2}(?: and \d{1,2})?))\b",
    re.IGNORECASE,
)
_THEIR_LIKED_RE = re.compile(_LIKED_ZH + r"|\b" + _LIKED_EN, re.IGNORECASE)
# How far back the person told of may be: a few turns, not the whole chat.
_SOMEONE_LOOKBACK = 6


def someone_said_before(message: str, topic: str, earlier: list[str]) -> str:
    """Return the search for ``message`` (whose semantic part is ``topic``) with its pronoun read
    as the person the user told of in the latest earlier messages, their age and what they like
    (这周末有适合她的活动吗 after 我女儿6岁，喜欢画画: "6岁女儿 画画"); "" when it asks for no one
    by a pronoun, names its own person, points at their visit, or nobody was told of.
    ``earlier``: oldest first."""
    if (
        not _FOR_THEM_RE.search(message)
        or _SOMEONE_RE.search(message)
        or _THEIR_VISIT_RE.search(message)  # their visit: visit_said_before reads it
    ):
        return ""
    for text in reversed(earlier[-_SOMEONE_LOOKBACK:]):
        found = _SOMEONE_RE.search(text)
        if not found:
            continue
        relation = (found.group("relation_zh") or found.group("relation_en")).lower()
        if (_SHE_RE.search(message) and relation in _MALE) or (
            _HE_RE.search(message) and relation in _FEMALE
        ):
            continue  # "anything for her?" after "my son is 7": not him
        tail = text[found.end() :]
        aged = _AGE_RE.search(tail)
        years = aged and (aged.group("zh") or aged.group("en") or aged.group("is"))
        if not years:
            person = relation
        elif found.group("relation_zh"):
            person = f"{years}岁{relation}"
        else:
            person = f"{years} year old {relation}"
        liking = _THEIR_LIKED_RE.search(tail)
        liked = (liking.group("zh") or liking.group("en") or "").strip() if liking else ""
        rest = _PRONOUN_RE.sub(" ", topic)
        return " ".join(" ".join([person, liked, rest]).split())
    return ""


def asks_for_someone_untold(message: str, topic: str, earlier: list[str]) -> bool:
    """Return whether ``message`` asks for what someone would like by a pronoun alone, nobody
    told of in the latest earlier messages (有没有她会喜欢的 in a new chat searched 「她会喜欢」: a
    make-run look, session 55): the answer asks who."""
    return (
        bool(_FOR_THEM_RE.search(message))
        and not _SOMEONE_RE.search(message)
        and not _THEIR_VISIT_RE.search(message)
        and not someone_said_before(message, topic, earlier)
        and not _PRONOUN_RE.sub(" ", topic).strip(" 的吗呢？?")
    )


def _change_of(message: str) -> tuple[str, str] | None:
    """Return how a message changes the last search, in the order it is read: ("time", the time
    said), ("narrow", the words added) or ("thing", the thing asked for); None when it does not."""
    understood = extract.read(message)
    when = _another_time(message, understood)
    if when:
        return "time", when
    if REFINES_RE.search(message):
        topic = extract.semantic_query(message) or message
        return "narrow", _REFINING_WORDS_RE.sub(" ", topic).strip() or topic
    thing = _another_thing(message)
    return ("thing", thing) if thing else None


def names_only_another_time(message: str) -> bool:
    """Return whether a message asks the last question again at another time and says nothing
    else (那明天的呢, "what about tomorrow?")."""
    change = _change_of(message)
    return change is not None and change[0] == "time"


def follows_search(message: str) -> bool:
    """Return whether a message, said right after a search, changes that search."""
    return _change_of(message) is not None


def changed_search(message: str, last: dict) -> dict | None:
    """Return the arguments of ``last`` (a search's) as changed by ``message``, or None when
    the message does not change a search.

    Another time keeps the last search's topic; a narrowing adds to its query; another thing
    keeps its time (the message's own, else the last search's).
    """
    change = _change_of(message)
    if change is None:
        return None
    how, words = change
    if how == "time":
        query = f"{words} {extract.semantic_query(last['query'])}"
    elif how == "narrow":
        query = f"{_without_contradicted(last['query'], message)} {words}"
        said = extract.time_said(extract.read(message))
        if said:  # "is one of them on Sunday?": that day, the last search's topic narrowed
            rest = _REFINING_WORDS_RE.sub(" ", words).strip()
            query = f"{said} {extract.semantic_query(last['query'])} {rest}"
    else:
        understood = extract.read(message)
        said = extract.time_said(understood) or extract.time_said(extract.read(last["query"]))
        query = f"{said} {extract.semantic_query(words) or words}"
    return {**last, "query": query.strip()}


def _without_contradicted(query: str, message: str) -> str:
    """Return ``query`` without the kinds a narrowing ``message`` contradicts: the opposite of a
    kind it asks for (outdoor, after "what about indoor ones?") and a kind it refuses (户外, after
    不要户外的); the refusal itself stays in the message's words, where the search reads it."""
    refusals = [m["kind"].lower() for m in _REFUSED_KIND_RE.finditer(message)]
    # Only a kind the last query names is dropped for a refusal (never a piece of a word).
    kinds = {cue.text.lower() for cue in extract.kinds_in(query)} | set(_OPPOSITES)
    refused = {k for k in kinds if any(k in r for r in refusals)}
    words = set(re.findall(r"[a-z]+", message.lower()))
    dropped = set(refused)
    for kind, opposites in _OPPOSITES.items():
        said = kind in words if kind.isascii() else kind in message
        if said and kind not in refused:
            dropped.update(opposites)
    for word in sorted(dropped, key=len, reverse=True):
        if re.search(r"[a-z]", word):
            query = re.sub(rf"\b{re.escape(word)}\b", " ", query, flags=re.IGNORECASE)
        else:
            query = query.replace(word, " ")
    return " ".join(query.split())
