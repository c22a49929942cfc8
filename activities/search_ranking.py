"""What the activity search reads of a query in the rows: its words and cues, and ranks by them.

A row *names* the query when one of the query's content words is in its title, tags, type or
vibes (jieba, :func:`lexical_ranking`) or one of its kind or mood cues is its type or a vibe
(:func:`cue_ranking`). The few rows of the small path are ordered by it (:func:`evidence_order`),
or by meaning when the query's time phrase left them (:func:`meaning_order`); the hybrid orders
the ranked path by a fitted score of the dense similarity, the share of the query's words a row
holds, its cues and what it holds of what the query refuses (:func:`hybrid_scores`,
``activities.negation``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from activities.audience import audience_counts
from activities.negation import inside, mentions_plainly, negated_spans, negated_terms
from activities.reasons import query_terms
from activities.search_kind import meta_similarity, standard_known
from activities.search_language import chinese_listings, other_script
from activities.understanding import vouching_moods
from rag import pool_stats
from rag.search import rrf
from rag.term_ranking import held_terms, rank_held
from rag.understand.cues import HAN_RE, language, normalise

FUSION_FEATURES = ("pool_z", "coverage", "cues", "negated", "refused_like", "meta_like")
# The hybrid's order (issue 30): a linear score over FUSION_FEATURES, fitted by
# bench/activities_fit_fusion.py (multilingual-e5-small) on graded pairs of candidates within
# each on-topic query, pairwise logistic, L2 1.0, each query weighing 1, at limit 10 (20
# candidates). The first three (2026-11-26) on the four sets old dev+test, fresh, fresh2 and
# fresh3 (bench/data/activities_*_queries.jsonl; docs/RELEVANCE.md, "Learned fusion"), kept.
# The last two (2026-11-27, session 39) with the first three fixed, on the seven development
# sets (old dev+test, fresh, fresh2 .. fresh6): "negated", the share of the words the query
# refuses that a row holds (activities.negation; no longer its refused kind, mood and audience
# cues: 「除了火锅」 refused every food row through the 美食 cue), and "refused_like", a row's
# similarity to what the query refuses, read by meaning (the refused phrases embedded with the
# query, against the candidates' own vectors), as a standard score among the candidates.
# Leave-one-set-out the rotations gave -9.1 to -9.8 (-20.8 without fresh6) and -0.38 to -0.50
# (docs/RELEVANCE.md, "Refusals read by grammar and by meaning"). Before: -3.507 for the
# refused words and cues together, no similarity.
# The sixth (2026-11-28, session 47) with the first five fixed, on the eighteen development sets
# (old dev+test, fresh, fresh2 .. fresh17): "meta_like", the query's similarity to the row's
# kind (type and tags embedded apart, Activity.meta_embedding) as a standard score among the
# candidates that have one (0 for a row not yet given one). Leave-one-set-out the rotations gave
# 0.503 to 0.531; held out, nDCG@5 zh 0.736 -> 0.744, en 0.717 -> 0.729, mood en 0.348 -> 0.373
# (docs/RELEVANCE.md, "The listing's kind as a fusion feature, shipped").
FUSION_WEIGHTS = (0.874, 2.855, 1.425, -9.789, -0.432, 0.515)  # in FUSION_FEATURES order
# Over listings in the other language than the query (activities.search_language), the weights
# of the words held and of the cues are multiplied by these (coverage, cues): an English query's
# kinds name one activity but match a broad Chinese type (「手工」 for "pottery"), and the only
# words a Chinese row can hold of it are the few it writes in Latin ("City Walk" for "city"); a
# Chinese query's moods read from the name of one activity (运动 from 球) match English rows'
# vibes. Chosen leave one set out over the twenty-two development sets of
# bench/activities_heldout.py (session 51; grid 1 / 0.5 / 0 and 1 / 0.75 / 0.5 / 0.25 / 0, the
# best crosslingual nDCG@5 of the direction on the other twenty-one sets, its P@10 within 0.005
# and the language's nDCG@5 not lower): 21 of 22 rotations chose each; held out, English over
# Chinese listings nDCG@5 0.784 -> 0.798, P@10 0.613 -> 0.617, Chinese over English 0.813 ->
# 0.817, 0.593 -> 0.599 (docs/RELEVANCE.md, "Across two languages, against the bare order").
FUSION_OVER_CHINESE = (0.0, 0.0)  # an English query over Chinese listings
FUSION_OVER_OTHER_SCRIPT = (1.0, 0.5)  # a Chinese query over listings not in Chinese
# The scripts a word of the query can be written in (:func:`unread_pks`), over normalised text
# (lowercase, full-width folded): Han as ``rag.understand.cues.language`` reads it.
_SCRIPTS = {"han": HAN_RE, "latin": re.compile(r"[a-z]")}


def lexical_text(activity) -> str:
    """Return the fields the hybrid's full text reads: title, tags, type and vibes."""
    tags = " ".join(str(t) for t in activity.tags or [])
    vibes = " ".join(str(v) for v in activity.vibes or [])
    return f"{activity.title} {tags} {activity.type} {vibes}"


@dataclass(frozen=True)
class Cues:
    """Per candidate of one search (dense order), the query's cues it has (:func:`cue_counts`),
    read once and passed to the cut's evidence, the hybrid's order and the precision gate."""

    named: tuple[int, ...]  # every kind and mood cue and the audiences asked (negated None)
    asked: tuple[int, ...]  # the cues outside a negation of the query (negated False)
    # The asked cues without the moods read from the name of one activity
    # (``activities.understanding.vouching_moods``): what vouches for a row past the precision
    # gate (``activities.search_ranker``). Empty: the same as ``asked``.
    vouched: tuple[int, ...] = ()

    @property
    def vouching(self) -> tuple[int, ...]:
        """Return the cues that vouch for each candidate past the precision gate."""
        return self.vouched or self.asked


def candidate_cues(activities: list, understood) -> Cues:
    """Return the :class:`Cues` of ``activities`` for the query ``understood``."""
    named = tuple(cue_counts(activities, understood))
    refuses = understood is not None and bool(negated_spans(understood.found.text))
    # nothing refused: every cue is asked for
    asked = tuple(cue_counts(activities, understood, negated=False)) if refuses else named
    vouching = vouching_moods(understood) if understood is not None else None
    if vouching is understood:
        return Cues(named=named, asked=asked)
    vouched = cue_counts(activities, vouching, negated=False)
    # A mood read from the name of one activity still vouches for a row naming that activity
    # in its own words (「不吃辣也能吃火锅」 and the Chongqing hotpot night): that row is of the
    # activity asked for, not merely of its vibe.
    # A single character of the lexicon (球, 诗, 拳) names the activity only inside the query's
    # word holding it (a volleyball row holds 球 and is not what 「打篮球」 asks for).
    spans = negated_spans(understood.found.text)
    terms = [t.lower() for t in query_terms(understood.found.text)]
    kept = {c.label for c in vouching.moods}
    names = {}
    for cue in understood.moods:
        if cue.label in kept or inside(cue.span, spans):
            continue
        word = cue.text.lower()
        if len(word) == 1:
            word = min((t for t in terms if word in t and len(t) > 1), key=len, default="")
        if word:
            names.setdefault(cue.label, set()).add(word)
    for i, activity in enumerate(activities):
        text = own_text(activity).lower()
        labels = {label for label, words in names.items() if any(w in text for w in words)}
        vouched[i] += len(labels & set(activity.vibes or ()))
    return Cues(named=named, asked=asked, vouched=tuple(vouched))


def naming_pks(query: str, activities: list, understood, *, held=None, cues=None) -> set:
    """Return the pks of the activities naming something of the query: one of its words in a
    title, tag, type or vibe (jieba, as the hybrid reads them), or a kind or mood cue of it
    in a type or the vibes. ``cues``: :func:`candidate_cues` of the same activities (None:
    read here)."""
    if not activities:
        return set()
    if cues is None:
        cues = candidate_cues(activities, understood)
    # A word the query refuses names nothing of it (issue 30, session 40 round 2): a row
    # holding only the refused word ("on the water but i can't surf" and the surf lesson) does
    # not name the query for the cut and the gate, which kept such rows as named and dropped
    # the rows of the wanted topic beside them. Its kind and mood cues still count: a refused
    # phrase often holds the kind the query still wants (「球类运动就算了」 and 运动, 「除了火锅」
    # and 美食); with only the cues asked for, the gate dropped every food row of
    # 「除了火锅还有什么好吃的」 (fresh2, 0.75 -> 0.15).
    refused = negated_terms(query, query_terms(query))
    lexical = lexical_ranking(query, activities, held=held, refused=refused)
    return set(cue_ranking(activities, understood, counts=cues.named)) | set(lexical)


def own_text(activity) -> str:
    """Return a listing's own words that the lexical evidence reads: title, tags and type.

    Not its vibes: they are labels of one lexicon (``activities.vibes``, Chinese) that every
    listing carries whatever its language, and the cue readers count them already."""
    tags = " ".join(str(t) for t in activity.tags or [])
    return f"{activity.title} {tags} {activity.type}"


def scripts(text: str) -> set:
    """Return the scripts ``text`` holds: "han" (a Chinese character), "latin" (a Latin letter)."""
    normal = normalise(text or "")[0]
    return {name for name, pattern in _SCRIPTS.items() if pattern.search(normal)}


def other_language_pks(activities: list, understood) -> set:
    """Return the pks of the activities whose title is in the other language than the query (a
    Chinese query and an English listing, or the reverse; ``rag.understand.language``): the
    model scores such a pair lower (``rag.relevance.CROSS_LIFT``), whatever the evidence."""
    asked = getattr(understood, "language", None)
    if asked not in ("zh", "en"):
        return set()
    other = {"zh", "en"} - {asked}
    return {a.pk for a in activities if language(normalise(a.title or "")[0]) in other}


def unread_pks(query: str, activities: list) -> set:
    """Return the pks of the activities whose lexical evidence is unread: none of the query's
    words could be in them, so that they name none is no sign they are beside the point (issue
    30, session 42: 「小印度导览」 and the Little India walks, 「学做娘惹菜」 and the laksa class).

    A word could be in a listing when the listing's own words (:func:`own_text`) hold its
    script (a Chinese word needs a Chinese character, a Latin one a Latin letter; digits need
    none), or when a listing of the pool whose title is in the same language
    (``rag.understand.language``) holds one of the query's words in its own words: then the
    catalogue writes them ("ktv" and 「KTV 欢唱夜」 beside 「周末烘焙课」). So a Latin loanword
    ("diy", "spa") leaves a Chinese listing holding Latin (「KTV 欢唱夜」) read, and a Chinese
    query an English-titled listing with Chinese tags. The words are those naming the query
    (:func:`naming_pks`: content words, not the refused); a query without any leaves nothing
    unread. The embedding model reads across scripts by itself; the relevance cut reads an
    unread listing as one naming the query (``activities.search_relevance``)."""
    terms = query_terms(query)
    refused = negated_terms(query, terms)
    asked = [t for t in terms if t not in refused]
    if not asked or not activities:
        return set()
    needs = [scripts(t) for t in asked]
    blind = [a for a in activities if not any(n <= scripts(own_text(a)) for n in needs)]
    if not blind:
        return set()
    # Only here, with a listing lacking the script, are the own words segmented (the held
    # words of the search read the vibes too).
    held = held_terms({a.pk: own_text(a) for a in activities}, asked)
    tongue = {a.pk: language(normalise(a.title or "")[0]) for a in activities}
    written = {tongue[a.pk] for a in activities if set(held.get(a.pk, ())) & set(asked)}
    return {a.pk for a in blind if tongue[a.pk] not in written}


def query_evidence(query: str, activities: list, understood) -> bool:
    """Return whether the query names something the activities have (:func:`naming_pks`)."""
    return bool(naming_pks(query, activities, understood))


def evidence_order(rows: list, query: str, understood) -> list:
    """Return ``rows`` (the few that pass the filters) with those the query names first.

    The three-or-fewer path calls no provider: what orders them is what the query names, its
    words in title, tags, type and vibes and its kind and mood cues (RRF of the two lists);
    rows naming nothing keep their given order, after the others.
    """
    if not query or len(rows) < 2:
        return rows
    lexical = lexical_ranking(query, rows)
    fused = {f.key: f.score for f in rrf([lexical, cue_ranking(rows, understood)], k=1)}
    return [a for _, a in sorted(enumerate(rows), key=lambda p: (-fused.get(p[1].pk, 0.0), p[0]))]


def meaning_order(rows: list, vector) -> list:
    """Return ``rows`` (the few a time phrase left) by their cosine to the query's ``vector``,
    most similar first; rows not embedded yet keep their given order, after the others.

    Measured on the development splits (docs/RELEVANCE.md, "Parts of the day"): ordering the
    few rows of a part-of-day window by meaning instead of by the words they share with the
    query raised nDCG@5 on fresh3 zh 0.741 -> 0.751 and fresh2 en 0.658 -> 0.675, the others
    level; it keeps every row (P@10 unchanged).
    """
    query = np.asarray(vector, dtype=np.float32)
    query_norm = float(np.linalg.norm(query)) or 1.0

    def key(pair):
        order, activity = pair
        if activity.embedding is None:
            return (1, 0.0, order)
        row = np.asarray(activity.embedding, dtype=np.float32)
        cosine = float(row @ query) / ((float(np.linalg.norm(row)) or 1.0) * query_norm)
        return (0, -cosine, order)

    return [activity for _, activity in sorted(enumerate(rows), key=key)]


def cue_ranking(activities: list, understood, *, counts=None) -> list:
    """Return the pks of the activities having a kind or mood the query asks for, most first.

    Kinds match the activity's type, moods its vibes (the vibe lexicon, ``understood``); ties
    keep the dense order. A hit matching none is left out (RRF gives it nothing from this list).
    ``counts``: :func:`cue_counts` of the activities (None: read here).
    """
    if counts is None:
        counts = cue_counts(activities, understood)
    scored = []
    for order, (activity, matched) in enumerate(zip(activities, counts, strict=True)):
        if matched:
            scored.append((-matched, order, activity.pk))
    return [pk for _, _, pk in sorted(scored)]


def cue_counts(activities: list, understood, *, negated: bool | None = None) -> list[int]:
    """Return, per activity, how many kinds, moods and audiences the query asks for it has: its
    type among the kinds (1 or 0), its vibes among the moods, and the audiences it states
    (``activities.audience``).

    ``negated``: None counts every kind and mood cue (what names the query, for the cut and the
    gate); True only the cues under a negation of the query (「不要户外的」: 户外), False only the
    others (``activities.negation``; what the hybrid's order counts and the gate's exemption
    reads: a refused cue counts for nothing there). Audiences: those the query asks for with
    None or False, those it refuses with True."""
    kinds, moods = set(), set()
    if understood is not None:
        spans = negated_spans(understood.found.text) if negated is not None else []
        for cues, labels in ((understood.kinds, kinds), (understood.moods, moods)):
            labels.update(
                c.label for c in cues if negated is None or inside(c.span, spans) == negated
            )
    # The audiences the query names that a listing states count as cues too (activities.audience:
    # 「带我妈出去转转」 and the seniors' tai chi, "a 2 year old" and the toddlers' playgroup).
    audiences = (
        audience_counts(activities, understood.found.text, negated=bool(negated))
        if understood is not None
        else [0] * len(activities)
    )
    if not kinds and not moods:
        return audiences
    return [
        (a.type in kinds) + len(moods & set(a.vibes or ())) + n
        for a, n in zip(activities, audiences, strict=True)
    ]


def lexical_ranking(query: str, activities: list, *, held=None, refused=frozenset()) -> list:
    """Return the pks of the activities whose title, tags, type or vibes hold a content word of
    the query, best first (as ``rag.term_ranking.term_ranking`` ranks them). Content words are
    those a reason may name (``activities.reasons.query_terms``): no stop, filler or time words,
    and no single Han character that means little alone (做 in 做公益 would match 做一个卡包).

    ``held``: :func:`lexical_held` of the same query over these activities (or more), so that
    ranking a second pool of the same candidates segments nothing again; None finds them here.
    ``refused``: words the query refuses (``activities.negation.negated_terms``), which neither
    rank a row nor count among the query's words.
    """
    terms = query_terms(query)
    if not terms:
        return []
    if held is None:
        held = held_terms({a.pk: lexical_text(a) for a in activities}, terms)
    asked = [t for t in terms if t not in refused]
    return rank_held({a.pk: set(held[a.pk]) - refused for a in activities}, asked)


def lexical_held(query: str, activities: list) -> dict:
    """Return ``{pk: the query's content words in its title, tags, type or vibes}`` for
    :func:`lexical_ranking` of any of these activities (empty when the query has none)."""
    terms = query_terms(query)
    if not terms:
        return {}
    return held_terms({a.pk: lexical_text(a) for a in activities}, terms)


def hybrid_scores(
    hits: list,
    query: str,
    *,
    candidates: list,
    understood=None,
    held=None,
    cues=None,
    refused=(),
    vector=None,
) -> dict:
    """Return {pk: fused score in (0, 1)} of ``hits``, higher first: the logistic of
    :data:`FUSION_WEIGHTS` over :func:`fusion_features` of the query's ``candidates`` (every hit
    the relevance cut judged, ``hits`` among them). Re-orders what passed the filters and the
    cut, never adds a row.

    Why not reciprocal-rank fusion of the dense, lexical and cue ranks (as before): with ranks
    over a pool of 20, a row in the lexical list at all outweighed the whole dense order, so one
    shared everyday word put a row first ("想找吃素的朋友一起吃饭": the newcomers' social,
    holding 朋友, above the vegetarian supper the model ranks first). Here a row gains by the
    share of the query's words it holds, weighed by how rare each is among the candidates, and
    the dense score counts by how far the row stands above the query's other candidates.
    ``held``: :func:`lexical_held` of the candidates (None: found here); ``cues``:
    :func:`candidate_cues` of the candidates (None: read here); ``refused``: the vectors of
    what the query refuses (``activities.negation.refused_phrases``, embedded with the query;
    the candidates' embeddings loaded with them); ``vector``: the query's, whose cosine to
    each candidate's kind vector ``activities.search_kind.read_meta_like`` gave it (None: no
    such feature).
    """
    activities = [hit.obj for hit in candidates]
    if cues is None:
        cues = candidate_cues(activities, understood)
    terms = query_terms(query)
    if held is None:
        held = lexical_held(query, activities)
    refused_terms = negated_terms(query, terms)
    x = fusion_features(
        [hit.score for hit in candidates],
        fusion_held(activities, held, refused_terms),
        terms,
        list(cues.asked),
        negated=refused_terms,
        refused_like=refused_similarity(activities, refused),
        meta_like=meta_similarity(activities, vector),
    )
    x[:, 1:3] *= evidence_trust(query, understood, [a.title for a in activities])
    scores = 1.0 / (1.0 + np.exp(-(x @ np.asarray(FUSION_WEIGHTS, dtype=np.float64))))
    fused = {a.pk: float(score) for a, score in zip(activities, scores, strict=True)}
    return {hit.obj.pk: fused[hit.obj.pk] for hit in hits}


def evidence_trust(query: str, understood, titles: list[str]) -> tuple[float, float]:
    """Return the multipliers of the fusion's words held and cues (``coverage``, ``cues``) for
    ``query`` over candidates of these ``titles``: :data:`FUSION_OVER_CHINESE` for a query read
    as English (``understood``) over listings most of whose titles are Chinese,
    :data:`FUSION_OVER_OTHER_SCRIPT` for a Chinese query over listings most of whose titles are
    not, else 1 and 1."""
    english = understood is not None and understood.language == "en"
    if chinese_listings(english, titles):
        # Only a kind matches a broad Chinese type; a query of moods alone ("something chill
        # this weekend") keeps its cues: without them a livehouse night came before the quiet
        # rows (tests/activities/test_search_weekdays.py; the dev sets are the same either way,
        # docs/RELEVANCE.md "Across two languages, against the bare order").
        if not understood.kinds:
            return (FUSION_OVER_CHINESE[0], 1.0)
        return FUSION_OVER_CHINESE
    if other_script(query, titles):
        return FUSION_OVER_OTHER_SCRIPT
    return (1.0, 1.0)


def refused_similarity(activities: list, refused) -> list[float] | None:
    """Return, per activity, its highest cosine to the ``refused`` vectors (what the query
    refuses, ``activities.negation.refused_phrases``); None when the query refuses nothing.
    An activity not embedded yet gets the others' mean (a standard score of 0)."""
    if not len(refused):
        return None
    phrases = np.asarray(refused, dtype=np.float32)
    phrases /= np.linalg.norm(phrases, axis=1, keepdims=True).clip(1e-9)
    out: list[float | None] = []
    for a in activities:
        row = getattr(a, "embedding", None)
        if row is None:
            out.append(None)
            continue
        row = np.asarray(row, dtype=np.float32)
        out.append(float((phrases @ row).max()) / (float(np.linalg.norm(row)) or 1.0))
    known = [v for v in out if v is not None]
    mean = sum(known) / len(known) if known else 0.0
    return [mean if v is None else v for v in out]


def fusion_held(activities: list, held: dict, refused: set) -> list[set]:
    """Return, per activity, the query's words it holds (``held``: :func:`lexical_held`), a
    word the query refuses (``refused``) only where the listing has it plainly, not under its
    own negation (``activities.negation.mentions_plainly``: 不说话的读书会 and 说话)."""
    rows = []
    for a in activities:
        words = set(held.get(a.pk, ()))
        if refused & words:
            text = lexical_text(a)
            words -= {t for t in refused & words if not mentions_plainly(t, text)}
        rows.append(words)
    return rows


def fusion_features(
    scores: list,
    held: list,
    terms: list,
    cues: list,
    *,
    negated: set = frozenset(),
    refused_like: list | None = None,
    meta_like: list | None = None,
) -> np.ndarray:
    """Return one row of :data:`FUSION_FEATURES` per candidate: its dense score's standard
    score among the candidates (``rag.pool_stats.pool_scores``, the same for similarities and
    margins), the share of the query's content words ``terms`` it holds (``held``: per
    candidate, the terms it holds), each word weighing log(1 + n / df) over the n candidates as
    ``rag.term_ranking.rank_held`` weighs them, its kind and mood cues (``cues``: per candidate,
    :func:`cue_counts`), what it holds of what the query refuses: the share of the
    ``negated`` terms it holds (weighed the same way), and how like what the query refuses it
    is: the standard score among the candidates of ``refused_like`` (per candidate, its
    similarity to the refused phrases, :func:`refused_similarity`; None: 0 for every one),
    and how like the query its kind is: the standard score of ``meta_like`` (per candidate,
    :func:`meta_similarity`) among the candidates that have one, 0 for one that has none.

    The shares: the words asked for over all the query's words, the refused over the refused
    (「不要户外的，室内玩点什么」: 室内 and 玩点 asked for, 户外 refused)."""
    n = len(scores)
    if not n:
        return np.zeros((0, len(FUSION_FEATURES)))
    z = pool_stats.pool_scores(scores)
    df = {t: sum(t in h for h in held) for t in terms}
    idf = {t: math.log(1 + n / max(df[t], 1)) for t in terms}
    asked = [t for t in terms if t not in negated]
    refused = [t for t in terms if t in negated]
    # The words asked for count over all the query's words, as before the negation was read:
    # over the asked ones only, a lone generic word left beside a refusal (轻松 in
    # 「不想太累，轻松点的活动」) weighed as the whole request (docs/RELEVANCE.md, "Negation").
    total = sum(idf.values()) or 1.0
    total_refused = sum(idf[t] for t in refused) or 1.0
    like = [0.0] * n
    if refused_like is not None:  # a standard score over all the candidates, as fitted
        values = np.asarray(refused_like, dtype=np.float64)
        spread = float(values.std())
        if spread > 1e-9:
            like = ((values - values.mean()) / spread).tolist()
    meta = standard_known(meta_like, n)
    return np.asarray(
        [
            [
                z[i],
                sum(idf[t] for t in asked if t in held[i]) / total,
                float(cues[i]),
                sum(idf[t] for t in refused if t in held[i]) / total_refused,
                float(like[i]),
                meta[i],
            ]
            for i in range(n)
        ],
        dtype=np.float64,
    )
