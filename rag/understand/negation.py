"""What a query refuses: the one reader of negation and its scope (issues 30 and 33).

「不要户外的，室内玩点什么」, "exercise but no running", 「晚上没空」, "not on sunday": the refusal
markers of both languages are written here once, and three readers share them (a listing's
own refusals are read apart, more narrowly: ``rag.understand.listing_negation``):

- :func:`negated_spans`: the stretches of a text under a negation (a search counts the words and
  cues there apart from what is asked for: ``activities.negation``);
- ``rag.understand.negation_refused``: whether a time phrase is one the person cannot or will
  not make (``refused_time``), and whether a word is negated where it stands
  (``refused_word``: a lexicon cue names nothing), read with this module's markers;

A negation starts at a refusing word (:data:`ZH_NEGATORS`, :data:`EN_NEGATORS`: closed classes
of the language, written from general knowledge, not from the development queries) and runs to
the end of its clause: punctuation, a contrasting or joining word ("但", "but") or
:data:`MAX_ZH_CHARS` / :data:`MAX_EN_WORDS`. Not negations: what one cannot do or has not done
yet (不会游泳, "can't swim", "never tried", 不需要基础: the beginners' class is what such a query
wants; but an inability after a contrast, "on the water but i can't surf", refuses its object:
:func:`_contrasted_inability`), the set phrases whose 不 is not a refusal (不错, 不好, 不久) and
the words holding 别 (特别, 区别) or meaning "other" (别的, 别人).

A refusal may also come after what it refuses, closing its clause: 「戏曲就不要了」, 「球类运动就
算了」, 「对猫狗过敏」, 「一点辣都吃不了」, 「早上实在起不来」. Chinese puts the topic first and
comments on it; a negation closing its clause with nothing after it refuses the clause before it
(:data:`ZH_CLOSING`, the potential complements V不了 / V不来 / V不动, and any negator of
:data:`ZH_NEGATORS` with nothing after it). English "X-free" refuses X; "allergic to", "scared
of", "can't stand" refuse what follows, as "no" does; "or" and "nor" inside a negation carry it
on ("not painting or drawing"), and the paired 不 X 也不 Y refuses both whatever the verbs. A
time may also be refused by saying one is not free then (:data:`ZH_NOT_FREE`: 周六要加班,
"sunday is out", "tonight i'm busy").
"""

from __future__ import annotations

import functools
import re

# --- the markers ------------------------------------------------------------------------------

# Chinese words of not wanting: they refuse what follows them, and a word after them names
# nothing the query asks for (「不用跟人聊天」: no 社交 cue; :func:`refused_word`).
ZH_NOT_WANTING = (
    "不想",
    "不要",
    "不用",
    "不需要",
    "不必",
    "不喜欢",
    "不爱",
    "讨厌",
    "无需",
    "没有",
    # Cantonese, Wu (覅 = 勿要) and northern 甭 ("no need"): knowledge of the varieties (fresh8's
    # Cantonese refusals read none, session 44; issue 30, session 46)
    *("唔要", "唔想", "唔使", "覅"),
)
# Every Chinese word that refuses what follows it: those, and the words that exclude one thing
# of a kind still asked for (除了火锅还有什么好吃的: food, but not hotpot). A bare 不 only before
# a verb of wanting, going, using or consuming (不去, 不吃), or before 太 ("not too ..."): 不错,
# 不好, 不久 and 不会 stay plain words.
ZH_NEGATORS = (
    *ZH_NOT_WANTING,
    "不在",
    "不去",
    "不吃",
    "不喝",
    "不带",
    "不太",
    "不含",
    "不是",
    "别",
    "除了",
    "避开",
    "远离",
    # Verbs of disliking, fearing or not tolerating: their object is what the query refuses.
    "受不了",
    "害怕",
    "怕",
    "吃不了",
    "喝不了",
    "不能吃",
    "不能喝",
    "戒了",
)
# Comments closing a clause on what came before it (the topic): "X 就算了", "X 没空".
# 除外 ("X excepted", 「陶艺除外」) closes its clause as 算了 does (issue 30, session 46).
ZH_CLOSING = ("算了", "免了", "不考虑", "没空", "没时间", "不行", "除外")
# "Allergic": every 过敏 refuses the allergen named right before it, even with more said after
# it (「海鲜过敏不吃海鲜」, typed without a comma: 海鲜 is refused, not asked for): what stands
# in its clause after the last person named, 对 or adverb of degree (孩子花生过敏, 我对猫毛过敏,
# 我有点花粉过敏: 花生, 猫毛, 花粉). Not when denied or countered (不过敏, 没有过敏, 抗过敏,
# 防过敏). Grammar; persons a closed class (pronouns, kin); general knowledge (audit, session 41).
ZH_ALLERGIC = "过敏"
_ZH_NOT_ALLERGIC = re.compile(r"(?:不|没|没有|不会|不怎么|抗|防)$")
_ZH_PERSON = re.compile(
    r"孩子|小孩|宝宝|宝贝|儿子|女儿|老婆|老公|媳妇|朋友|对象|家人|老人|父母|爷爷|奶奶|姥姥|姥爷"
    r"|外婆|外公|同事|室友|闺蜜|[我你他她咱们爸妈对很]|有点|有些|比较|容易|特别|严重"
)
# What says one is not free at a time named right before it (besides ZH_CLOSING's 没空, 没时间):
# said of a time only (「轮椅不方便」 refuses no wheelchair).
ZH_NOT_FREE = (
    "起不来",
    "起不了",
    "没有时间",
    "不得空",
    "不方便",
    "去不了",
    "来不了",
    "有事",
    "要上班",
    "要加班",
    "得上班",
    "得加班",
)
# The characters a clause's comment may end with after its negation (了, 吧, 啊...).
ZH_PARTICLES = "了吧啊呀哈嘛呢的"
# A clause's leading words that are no part of what it refuses: the subject, 对 ("allergic to"),
# and the adverbs between a topic and its comment (就, 也, 都, 实在).
ZH_FRAME = "我对就也都实在一点还是真的"
# A potential complement closing a clause ("起不来", "爬不动"): unable, so refusing the topic;
# not the idioms where V不了 means "bound to" (少不了, 免不了, 离不了, 忘不了, 错不了).
# The verb itself is tested, not the character before it: 少不了, 忘不了, 免不了, 离不了, 错不了,
# 停不了, 等不了 want the thing (美食少不了), they refuse nothing (an audit, session 54: the old
# lookbehind tested the character before the verb and never excluded them).
_ZH_POTENTIAL = re.compile(r"(?<![少免离忘错])(?![少免离忘错停等])[\u4e00-\u9fff]不[了来动下]$")
# 怕 in 恐怕 / 哪怕 ("probably", "even if") and 不怕 ("not afraid") refuses nothing.
ZH_PA_WORDS = "恐哪不"
# What ends a Chinese clause, for the closing comments.
_ZH_CLAUSE = re.compile(r"[，,。.！!？?；;、~～\s]|但是|但|可是|不过(?!敏)")
# The characters before 别 that make it part of a word (特别, 区别, 分别, 告别, 级别, 类别, 性别,
# 派别, 识别, 辨别), not "don't"; after it, 别的 / 别人 / 别处 / 别家 mean "other".
ZH_BIE_WORDS = "特区分告级类性派识辨"
ZH_BIE_OTHER = "的人处家样"
# The function words closing on the A of an A-not-A question (要, 是, 想) that make "A不A" no
# question: 只要不要太贵 ("as long as it isn't too dear"), 但是不是很远 ("but not very far").
_ZH_BOUND_A = re.compile(r"(?:(?:只|主|需|重|必)要|只想|(?:只|但|可|就|要|而|总|于|或)是)$")
# A negation of these asks for beginners, not against something: 不需要基础, 不用经验.
ZH_NOT_REFUSED = ("基础", "经验")
# What ends a Chinese negation: clause punctuation and the joining words after which the query
# asks for something again (不想跟人说话，但想出门; 除了火锅还有什么).
# (嘅 and 嗰 are Cantonese 的 and 那: 「唔想太辛苦嗰种」)
ZH_END = "，,。.！!？?；;、~～ 但就也还而只的嘅嗰"
MAX_ZH_CHARS = 8
# English: the negating words and every "-n't" form but can't / couldn't (ability, as 不会),
# with or without the apostrophe.
EN_NEGATORS = re.compile(
    r"\b(?:no|not|nothing|none|never|neither|without(?!\s+having\s+to\b)|avoid|avoiding|except"
    r"|non|nor"
    r"|apart\s+from|other\s+than"
    # excluding or keeping away from one thing ("anything but karaoke", "skip the pubs", "minus
    # the booze"; not rope "skipping" nor "minus 5"): general English, in no development set
    # (issue 30, session 46)
    r"|(?:any|every)thing\s+but(?!\s+(?:i|we|you|it|my|me|maybe|ideally|preferably)\b)"
    r"|skip(?=\s+(?:the|any|all)\b)|steer\s+clear\s+of"
    r"|stay\s+away\s+from|keep\s+away\s+from|minus(?!\s*\d)|sans|instead\s+of|rather\s+not"
    # not tolerating or fearing what follows ("can't" of ability stays a plain word)
    r"|allergic to|scared of|afraid of|sick of|tired of|fed up with|hate|can['’]?t stand"
    r"|can['’]?t eat|can['’]?t drink|can['’]?t handle|cannot stand|cannot eat"
    # need not ("i don't have to get wet", "without having to talk", read whole: the bare
    # "without" above stops before it): a refusal, not the asker's state ("don't have any tools")
    r"|(?:do|does|did)(?:n['’]?t|\s+not)\s+(?:have|need)\s+to|without\s+having\s+to"
    r"|(?!can['’]t\b|couldn['’]t\b)[a-z]+n['’]t"
    # typed without the apostrophe ("doesnt involve kids")
    r"|dont|doesnt|didnt|isnt|arent|wasnt|werent|wont|wouldnt|shouldnt)\b",
    re.IGNORECASE,
)
# The refusals that refuse a time standing right after them (不要周末的, 除了周六, "not on sunday",
# "except saturday"); not 没有, 怕 or "no", which deny a thing of that time ("no weekend plans",
# 没有周末的吗) rather than the time.
ZH_TIME_REFUSING = ("不要", "不想要", "别", "除了", "不是", "避开")
EN_TIME_REFUSING = frozenset({"not", "except", "apart from", "other than"})
# A negation followed by one of these says what one has not done yet, or what a listing does
# not require ("never tried climbing", "haven't done pottery", "no experience needed", "no
# charge"): the beginners' or the free listing is what such a query wants, not a refusal.
EN_NOT_REFUSED = frozenset(
    {"tried", "done", "played", "been", "learned", "learnt", "ever", "experience", "charge", "fee"}
    # the asker's own state, not a refusal: "I don't have any tools", "don't know anyone"
    | {"have", "know", "own", "speak"}
    # a wish or a lack, not a refusal ("I don't mind a hike", "not sure if hiking", "haven't
    # gone hiking in ages", "no one to go with", "no I meant hiking", "non-profit"): general
    # English, an audit of session 53 (the English cue readers read refusals since then)
    | {"mind", "sure", "gone", "went", "seen", "miss", "one", "rush", "problem", "worries"}
    | {"better", "i", "we", "it", "thanks", "pressure", "fuss", "frills", "stop", "profit"}
)
# "never" (or "haven't") and a past form says what the asker has not done yet, whatever the
# verb ("never touched a wheel", "never climbed before", "haven't surfed"): the beginners'
# listing is what such a query wants (fresh25's "clay class, never touched a wheel" lost the
# wheel-throwing night it named, 1.00 -> 0). Grammar, not a list of activities: a regular past
# form (-ed) after these negators of experience; but not a verb of liking or wanting, which
# still refuses its object ("never liked crowds", "haven't enjoyed karaoke"). Only where the
# negator opens the asker's own clause (the query's start, after a comma or "and"/"but", after
# "I" or "I've"): after a noun or a copula the form is an adjective of the place wanted
# ("somewhere never crowded", "a park that's never crowded"), which it still refuses.
_EN_EXPERIENCE_NEGATOR = re.compile(
    r"^(?:never|haven['’]?t|hasn['’]?t|havent|hasnt)$", re.IGNORECASE
)
_EN_PAST_FORM = re.compile(r"^[a-z]+ed$", re.IGNORECASE)
EN_LIKING_PAST = frozenset(
    {"liked", "loved", "enjoyed", "fancied", "cared", "wanted", "wished", "interested"}
)
_EN_ASKER_BEFORE = re.compile(
    r"(?:^|[,.;!?]|\b(?:and|but|i|we|i['’]?ve|we['’]?ve|ive|weve|have|has))\s*$", re.IGNORECASE
)
# A negative question asks whether there is one ("isn't there any live music tonight?", "is
# there no hiking this weekend?", "why not go hiking"): no refusal (the same audit).
_EN_ASKING_BEFORE = re.compile(r"\b(?:is|are)\s+there\s+$|\bwhy\s+$", re.IGNORECASE)
_EN_ASKING_AFTER = re.compile(r"\s+there\b", re.IGNORECASE)
_EN_ASKING_NEGATOR = re.compile(r"^(?:isn['’]?t|aren['’]?t|isnt|arent)$", re.IGNORECASE)
# Doing it alone refused, not the thing ("don't want to go hiking alone", "I don't want to hike
# by myself"): the rest of the clause says so; being alone is the thing refused ("dont wanna be
# alone", "don't want to spend thanksgiving alone").
_EN_ALONE = re.compile(r"\b(?:alone|by myself|on my own|solo)\b", re.IGNORECASE)
_EN_ALONE_STATE = re.compile(
    r"\b(?:be|being|feel|feeling|stay|staying|spend|spending|sit|sitting)\b", re.IGNORECASE
)
# A degree refused ("not too expensive yoga class", "not very far hiking trail"): the degree
# word and its adjective, not the thing after them.
_EN_DEGREE = frozenset({"too", "very", "so", "overly", "super", "that"})
_EN_END = re.compile(r"[,.;!?]|\b(?:but|and|just|only|though|so|because|instead)\b", re.I)
# "alcohol-free", "booze free": the word before "free" is refused (not "feel free", "for free").
_EN_FREE = re.compile(r"\b([a-z]+)[- ]free\b", re.IGNORECASE)
EN_NOT_FREE = frozenset({"feel", "for", "entry", "be", "is", "are", "totally", "completely"})
# "kids free entry", "family free day": free of charge for them, nothing refused (an audit,
# session 53).
_EN_FREE_OF_CHARGE = re.compile(
    r"\s+(?:entry|entrance|admission|day|tickets?|of\s+charge|to\s+attend)\b", re.IGNORECASE
)
_EN_WORD = re.compile(r"[a-z0-9'’-]+", re.IGNORECASE)
MAX_EN_WORDS = 4
# What one cannot do, said as a limit on what was just asked for: after a contrast, in the
# same sentence ("on the water but i can't surf", 「想玩水 但我不会游泳」), the inability
# refuses its object and the request before the contrast stands. Alone or with a wish to learn
# ("can't swim, want to learn", "can't swim yet", 「不会游泳 想学」) it stays what it was: the
# beginners' class is what such a query wants. Grammar of both languages (a contrast, a modal
# of inability, the words of learning), written from general knowledge (issue 30, session 40
# round 2, after reading fresh9's 「on the water but i cant surf」).
_EN_CONTRAST = re.compile(r"\b(?:but|though|although|however|except)\b", re.IGNORECASE)
EN_INABILITY = re.compile(
    r"\b(?:can['’]?t|cannot|can\s+not|couldn['’]?t|unable\s+to|not\s+able\s+to)\s+",
    re.IGNORECASE,
)
_EN_LEARNING = re.compile(
    r"\b(?:learn\w*|lessons?|teach\w*|class(?:es)?|beginners?|first[- ]timers?|yet)\b",
    re.IGNORECASE,
)
# 但 / 不过 and not 不但 ("not only") or 只不过 ("merely").
_ZH_CONTRAST = re.compile(r"(?<![不只])(?:但是|可是|不过(?!敏)|但)")
ZH_INABILITY = ("不太会", "不会", "没法", "没办法")
_ZH_LEARNING = ("学", "教", "入门", "基础", "新手", "体验课")
# The paired negation 不 X 也不 Y / 既不 X 也不 Y ("neither X nor Y"): the pairing makes each 不
# a refusal whatever verb follows it (「想运动 不跑步也不打球」; a bare 不 is otherwise read only
# before the verbs of ZH_NEGATORS, for 不错, 不好, 不会). Grammar, written after reading
# fresh9's 「想运动 不跑步也不打球」 (issue 30, session 40 round 2).
# Not the set phrases whose 不 refuses nothing (不错 "good", 不久, 不少, 不好意思).
_ZH_PAIRED = re.compile(
    r"不(?![错久少好])([^\s，,。.！!？?；;、~～但就也还而只的]{1,4}?)(?:也|又|更)不"
    r"([^\s，,。.！!？?；;、~～但就也还而只的]{1,4})"
)
_SENTENCE = re.compile(r"[.;!?。；！？\n]")

# --- the spans under a negation ---------------------------------------------------------------


def negated_spans(text: str) -> list[tuple[int, int]]:
    """Return the (start, end) character spans of ``text`` under a negation, in order."""
    return list(_negated_spans(text or ""))


# A query's spans are read by several steps of a search: cached (pure; small texts).
@functools.lru_cache(maxsize=1024)
def _negated_spans(text: str) -> tuple[tuple[int, int], ...]:
    spans = []
    for start, marker_end in zh_markers(text):
        end = marker_end
        while end < len(text) and end - start < MAX_ZH_CHARS and text[end] not in ZH_END:
            end += 1
        # 不用会游泳 ("no need to be able to": beginners, as 不需要基础); 没有过敏 (no allergy)
        need_not = text[start:marker_end] in ("不用", "不需要", "不必", "无需")
        plain = (need_not and text[marker_end:][:1] == "会") or text[marker_end:][:2] == "过敏"
        if not plain and not any(word in text[start:end] for word in ZH_NOT_REFUSED):
            if text[marker_end:end].strip(ZH_PARTICLES):
                spans.append((start, end))
            else:  # nothing after it: it comments on its clause (「戏曲就不要了」)
                spans.extend(_zh_topic(text, start))
    spans.extend(_zh_closing(text))
    for match in _EN_FREE.finditer(text):
        if match.group(1).lower() not in EN_NOT_FREE and not _EN_FREE_OF_CHARGE.match(
            text, match.end()
        ):
            spans.append(match.span(1))
    spans.extend(_contrasted_inability(text))
    for match in _ZH_PAIRED.finditer(text):
        spans.append((match.start(), match.end(1)))
        spans.append((match.start(2) - 1, match.end(2)))
    for match in en_markers(text):
        stop = _EN_END.search(text, match.end())
        limit = stop.start() if stop else len(text)
        spans.append((match.start(), _en_reach(text, match.end(), limit)))
    return tuple(sorted(set(spans)))


def _en_reach(text: str, start: int, limit: int) -> int:
    """Return where an English negation's object from ``start`` ends: :data:`MAX_EN_WORDS`
    words before ``limit``, articles not counted ("get into the freezing water"); two words
    after a degree word ("not too expensive")."""
    end, count, most = start, 0, MAX_EN_WORDS
    for word in _EN_WORD.finditer(text, start, limit):
        if count == 0 and word.group(0).lower() in _EN_DEGREE:
            most = 2
        if count >= most:
            break
        end = word.end()
        count += word.group(0).lower() not in ("a", "an", "the")
    return end


def _contrasted_inability(text: str) -> list[tuple[int, int]]:
    """Return the spans of what ``text`` says one cannot do after a contrast in the same
    sentence (see :data:`_EN_CONTRAST`): from the modal to the end of its clause, at most
    :data:`MAX_EN_WORDS` words or :data:`MAX_ZH_CHARS` characters; none where the sentence
    speaks of learning."""
    spans = []
    for sentence in _sentences(text):
        start, end = sentence
        part = text[start:end]
        if _EN_LEARNING.search(part) or any(w in part for w in _ZH_LEARNING):
            continue
        contrast = _EN_CONTRAST.search(part)
        if contrast:
            modal = EN_INABILITY.search(part, contrast.end())
            if modal:
                stop = _EN_END.search(part, modal.end())
                limit = stop.start() if stop else len(part)
                end = _en_reach(part, modal.end(), limit)
                if end > modal.end():
                    spans.append((start + modal.start(), start + end))
        contrast = _ZH_CONTRAST.search(part)
        if contrast is None:
            continue
        at = contrast.end()
        for word in ZH_INABILITY:
            found = part.find(word, at)
            if found >= 0:
                stop = found + len(word)
                while stop < len(part) and stop - found < MAX_ZH_CHARS and part[stop] not in ZH_END:
                    stop += 1
                if stop > found + len(word):
                    spans.append((start + found, start + stop))
                break
    return spans


def _sentences(text: str) -> list[tuple[int, int]]:
    """Return the (start, end) spans of the sentences of ``text``."""
    bounds = [0] + [m.end() for m in _SENTENCE.finditer(text)] + [len(text)]
    return [(a, b) for a, b in zip(bounds, bounds[1:], strict=False) if b > a]


def asked_text(text: str) -> str:
    """Return ``text`` with its negated spans blanked (each character a space): what it asks
    for, for the readers of a query's form that must not read a refused word as wanted (an
    errand word under a refusal asks for no errand: "not drinking atm")."""
    chars = list(text or "")
    for start, end in negated_spans(text):
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def inside(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    """Return whether ``span`` lies within one of ``spans``."""
    return any(start <= span[0] and span[1] <= end for start, end in spans)


def zh_markers(text: str, negators=ZH_NEGATORS) -> list[tuple[int, int]]:
    """Return (start, end) of each of ``negators`` in ``text`` that refuses (not 特别, 有没有)."""
    found = []
    for negator in negators:
        start = text.find(negator)
        while start >= 0:
            if zh_negates(text, start, negator):
                found.append((start, start + len(negator)))
            start = text.find(negator, start + 1)
    return found


def en_markers(text: str) -> list[re.Match]:
    """Return the English negators of ``text`` that refuse what follows (not "never tried")."""
    found = []
    for match in EN_NEGATORS.finditer(text):
        following = _EN_WORD.search(text, match.end())
        if following and following.group(0).lower().lstrip("-") in EN_NOT_REFUSED:
            continue
        word = match.group(0)
        if following and _not_done_yet(word, following.group(0), text[: match.start()]):
            continue
        if _EN_ASKING_BEFORE.search(text[: match.start()]) or (
            _EN_ASKING_NEGATOR.match(word) and _EN_ASKING_AFTER.match(text, match.end())
        ):
            continue  # "isn't there any ...?", "is there no ...?", "why not ..."
        stop = _EN_END.search(text, match.end())
        clause = text[match.end() : stop.start() if stop else len(text)]
        if _EN_ALONE.search(clause) and not _EN_ALONE_STATE.search(clause):
            continue  # "don't want to go hiking alone"
        found.append(match)
    return found


def _not_done_yet(negator: str, following: str, before: str) -> bool:
    """Return whether ``negator`` and the word after it say what the asker has not done yet
    ("never touched", "haven't climbed"), not what they refuse (``before``: the text before
    the negator)."""
    word = following.lower()
    return bool(
        _EN_EXPERIENCE_NEGATOR.match(negator)
        and _EN_PAST_FORM.match(word)
        and word not in EN_LIKING_PAST
        and bool(_EN_ASKER_BEFORE.search(before))
    )


def zh_negates(text: str, start: int, negator: str) -> bool:
    """Return whether ``negator`` at ``start`` of ``text`` is a refusal, not part of a word."""
    before = text[max(0, start - 1) : start]
    after = text[start + len(negator) : start + len(negator) + 1]
    if negator == "没有" and before == "有":  # 有没有: "is there"
        return False
    if negator[0] in "不没" and before and before == negator[1:2]:
        # a question of A-not-A (要不要, 想不想, 去不去): "whether", no refusal; not when the
        # first A closes a word of its own (只要不要太贵: "as long as it isn't")
        return bool(_ZH_BOUND_A.search(text, 0, start))
    if negator == "别" and (
        (before and before in ZH_BIE_WORDS) or (after and after in ZH_BIE_OTHER)
    ):
        return False  # 特别, 区别; 别的, 别人
    return not (negator == "怕" and before and before in ZH_PA_WORDS)


def _zh_clause_start(text: str, end: int) -> int:
    """Return where the clause holding ``text[end - 1]`` starts (after punctuation or 但)."""
    start = 0
    for match in _ZH_CLAUSE.finditer(text, 0, end):
        start = match.end()
    return start


def _zh_topic(text: str, at: int, start: int | None = None) -> list[tuple[int, int]]:
    """Return the span of the topic a comment at ``at`` refuses: its clause before it (or from
    ``start``), without the clause's subject and adverbs (:data:`ZH_FRAME`); none when nothing
    is left."""
    start = _zh_clause_start(text, at) if start is None else start
    end = at
    while start < end and text[start] in ZH_FRAME:
        start += 1
    while end > start and text[end - 1] in ZH_FRAME:
        end -= 1
    return [(start, end)] if start < end else []


def _zh_allergen(text: str, at: int) -> list[tuple[int, int]]:
    """Return the span of the allergen before the 过敏 at ``at`` (:data:`ZH_ALLERGIC`)."""
    start = _zh_clause_start(text, at)
    for person in _ZH_PERSON.finditer(text, start, at):
        start = person.end()
    return _zh_topic(text, at, start)


def _zh_closing(text: str) -> list[tuple[int, int]]:
    """Return the topics refused by the comments closing their clause (:data:`ZH_CLOSING`, a
    potential complement such as 起不来), and by :data:`ZH_ALLERGIC` wherever it stands."""
    spans = []
    at = text.find(ZH_ALLERGIC)
    while at >= 0:
        if not _ZH_NOT_ALLERGIC.search(text, 0, at):
            spans.extend(_zh_allergen(text, at))
        at = text.find(ZH_ALLERGIC, at + 1)
    bounds = [m.start() for m in _ZH_CLAUSE.finditer(text)] + [len(text)]
    for end in bounds:
        clause_end = end
        closing = next((c for c in ZH_CLOSING if text[:end].endswith(c)), None)
        while closing is None and clause_end > 0 and text[clause_end - 1] in ZH_PARTICLES:
            clause_end -= 1
            closing = next((c for c in ZH_CLOSING if text[:clause_end].endswith(c)), None)
        # 碰不了 at its clause's end: its 了 is the complement's, not a particle (session 54)
        head = text[:end] if _ZH_POTENTIAL.search(text[:end]) else text[:clause_end]
        if closing is not None:
            spans.extend(_zh_topic(text, clause_end - len(closing)))
        elif _ZH_POTENTIAL.search(head):
            spans.extend(_zh_topic(text, len(head) - 3))
    return spans
