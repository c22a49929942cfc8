"""Re-ranking of the hybrid fusion by conversation context: neighbour turns and whole chats.

A chat turn rarely carries its answer alone: the answer is often the next turn ("What did you
research?" / "Adoption agencies"), and the turns of one conversation (one ``chat_id``) talk
about one thing. After the reciprocal-rank fusion of the lexical and semantic lists, memory
hybrid search therefore

1. **adds neighbours**: each of the best ``NEIGHBOUR_ANCHORS`` fused turns lends
   ``NEIGHBOUR_WEIGHT`` of its score to the turn before and the turn after it in its chat
   (passing the same filter), which may enter the list that way;
2. **boosts whole chats**: a chat's score is the sum of the scores of its best ``CHAT_TOP``
   turns after step 1 (so a chat that several lists, or several turns, point to stands out); a
   turn gains ``CHAT_BOOST`` times the best score times a third of its chat's z-score over the
   chats present (when positive).

Each constant was kept because it raised hybrid recall@10 on LoCoMo (docs/BENCHMARKS.md,
"Memory"); the figures of each step are there.
"""

from __future__ import annotations

import bisect
import math
import re
import statistics
from collections import defaultdict
from dataclasses import dataclass

from django.db import connections

from config.replicas import read_alias
from memory.models import Kind
from memory.speakers import speaker_weighed
from memory.validation import filter_sql
from rag.search import TS_CONFIG
from rag.text import STOPWORDS, index_words, query_words, quote_lexeme

# Reciprocal-rank fusion constant of memory hybrid search (the live fusion_k, 60, serves the
# other surfaces): a small k lets the top of each list count more (LoCoMo: k 60 -> 10 added
# about 0.02 recall@10 on its own; 10 -> 5 with the constants below, 0.012 more). These five
# were chosen on all ten LoCoMo conversations, before the dev/test split of
# bench/memory_locomo.py was fixed: for them its test split is not unseen (docs/BENCHMARKS.md).
FUSION_K = 5
NEIGHBOUR_ANCHORS = 40
NEIGHBOUR_WEIGHT = 0.3
CHAT_TOP = 3
CHAT_BOOST = 0.4
# Fitted on bench/memory_zh_set.json, split dev (bench/memory_zh_quality.py): 0.3 put every
# acknowledgement below the content turns it answered; 1.0 (none) let "好的" rank 4th for "猫".
LOW_CONTENT_WEIGHT = 0.3
# Words that acknowledge or react and say nothing (with rag.text.STOPWORDS): a turn made only
# of them, punctuation and emoji is low-content.
_ACK_TEXT = """
    好 好的 好吧 好嘞 嘞 啦 呗 好哒 好滴 行 行吧 可以 嗯 嗯嗯 恩 恩恩 哦 噢 喔
    哈 哈哈 哈哈哈 嘿嘿 呵呵
    嘻嘻 对 对的 对对 是的 没错 收到 明白 明白了 知道 知道了 懂了 谢谢 多谢 感谢 辛苦 唉 哎
    ok okay k yes yeah yep sure right thanks thank thx lol haha hmm fine great cool nice got
"""
ACK_WORDS = frozenset(_ACK_TEXT.split())


def chat_context(
    ids: list[int], anchor_ids: list[int], flt: dict
) -> tuple[dict[int, str], dict[int, list[int]]]:
    """Return the chat of each of ``ids``, and the turns just before and after each anchor.

    Neighbours are of the same user, chat and kind and pass the filter's role and time range;
    a neighbour's chat is its anchor's. One query: the rows of ``ids`` with a lateral join on
    the ``(user, chat_id, ts)`` index, gated to the anchors (the other rows only give their
    chat).
    """
    chat_of, near, _, _ = _context(ids, anchor_ids, flt)
    return chat_of, near


def _context(
    ids: list[int], anchor_ids: list[int], flt: dict, *, user=None
) -> tuple[dict[int, str], dict[int, list[int]], dict[int, str], dict[int, str]]:
    """Return :func:`chat_context`, and the content and the speaker of every row it names, in
    its one query.

    ``user``: the rows' owner, which prunes the query to that user's partition.
    """
    ids = list(dict.fromkeys([*ids, *anchor_ids]))
    if not ids:
        return {}, {}, {}, {}
    # With the user named, both the rows and their neighbours are pruned at planning time.
    if user is None:
        owner, neighbour, owner_params = "", "m.user_id = a.user_id", []
    else:
        owner, neighbour, owner_params = " AND a.user_id = %s", "m.user_id = %s", [user.pk]
    # A neighbour is of its anchor's chat and kind (``same``): the filter's role and time range.
    extra, params = filter_sql({**flt, "chat_id": None, "kind": None}, "m")
    same = f"a.id = ANY(%s) AND {neighbour} AND m.chat_id = a.chat_id AND m.kind = a.kind"
    sql = (
        "SELECT a.id, a.chat_id, a.content, a.speaker, n.id, n.content, n.speaker"
        " FROM memory_chatmessage a LEFT JOIN LATERAL ("
        f" (SELECT m.id, m.content, m.speaker FROM memory_chatmessage m WHERE {same}{extra}"
        "   AND (m.ts, m.id) < (a.ts, a.id) ORDER BY m.ts DESC, m.id DESC LIMIT 1)"
        " UNION ALL"
        f" (SELECT m.id, m.content, m.speaker FROM memory_chatmessage m WHERE {same}{extra}"
        "   AND (m.ts, m.id) > (a.ts, a.id) ORDER BY m.ts, m.id LIMIT 1)"
        f") n ON true WHERE a.id = ANY(%s){owner}"
    )
    chat_of: dict[int, str] = {}
    near: dict[int, list[int]] = defaultdict(list)
    content_of: dict[int, str] = {}
    speaker_of: dict[int, str] = {}
    with connections[read_alias()].cursor() as cursor:
        cursor.execute(
            sql,
            [
                *[anchor_ids, *owner_params, *params],
                *[anchor_ids, *owner_params, *params],
                *[ids, *owner_params],
            ],
        )
        for pk, chat, content, speaker, other, other_content, other_speaker in cursor.fetchall():
            chat_of[pk] = chat
            content_of[pk] = content
            speaker_of[pk] = speaker
            if other is not None:
                near[pk].append(other)
                chat_of[other] = chat
                content_of[other] = other_content
                speaker_of[other] = other_speaker
    return chat_of, near, content_of, speaker_of


def neighbours(anchor_ids: list[int], flt: dict) -> dict[int, list[int]]:
    """Return, for each anchor id, the ids of the turns just before and after it in its chat."""
    return chat_context([], anchor_ids, flt)[1]


def add_neighbours(
    scores: dict[int, float], flt: dict, near: dict[int, list[int]] | None = None
) -> dict[int, float]:
    """Return ``scores`` with each top anchor's neighbours credited a share of its score.

    ``near``: the neighbours of the anchors when the caller has them (:func:`chat_context`).
    """
    anchors = top_anchors(scores)
    if near is None:
        near = neighbours(anchors, flt)
    out = dict(scores)
    for anchor in anchors:
        for other in near.get(anchor, ()):
            out[other] = out.get(other, 0.0) + NEIGHBOUR_WEIGHT * scores[anchor]
    return out


def top_anchors(scores: dict[int, float]) -> list[int]:
    """Return the ``NEIGHBOUR_ANCHORS`` best-scored ids, best first."""
    return sorted(scores, key=lambda pk: -scores[pk])[:NEIGHBOUR_ANCHORS]


def rerank_top(
    scores: dict[int, float], flt: dict, top_k: int, *, user=None, query_text: str = ""
) -> list[tuple[int, float]]:
    """Return the ``top_k`` best (id, score) of the fused scores with neighbours added, chats
    boosted, other speakers than the one ``query_text`` names weighed down
    (:func:`memory.speakers.speaker_weighed`) and acknowledgements demoted, best first, in one
    query (on ``user``'s partition when given).

    Only the turns that can still reach the top are checked for low content
    (:func:`top_demoted`); with ``top_k`` at least the number of turns after the neighbours
    join, every turn is.
    """
    chat_of, near, content_of, speaker_of = _context(
        list(scores), top_anchors(scores), flt, user=user
    )
    boosted = boost_chats(add_neighbours(scores, flt, near), chat_of)
    weighed = speaker_weighed(boosted, speaker_of, query_text)
    return top_demoted(weighed, content_of, top_k)


def top_demoted(
    scores: dict[int, float], content_of: dict[int, str], top_k: int
) -> list[tuple[int, float]]:
    """Return the ``top_k`` best (id, :func:`demoted_score`) of ``scores``, best first (ties in
    the order of ``scores``), segmenting as few turns as that needs.

    A demoted score is below its undemoted one (scores are positive), so once ``top_k``
    final scores are above the next undemoted score no later turn can enter: the others are
    never segmented. Checking all of them segmented about 50 turns with jieba per hybrid
    search (2.4 ms of its CPU at 1M messages, issue 34) to return 10.
    """
    if top_k <= 0:
        return []
    order = {pk: i for i, pk in enumerate(scores)}
    final: list[tuple[float, int, int]] = []  # (-score, position, id): sorts as the answer
    for pk in sorted(scores, key=lambda pk: -scores[pk]):
        if len(final) >= top_k and -final[top_k - 1][0] > scores[pk]:
            break
        score = demoted_score(scores[pk], content_of.get(pk))
        bisect.insort(final, (-score, order[pk], pk))
    return [(pk, -negated) for negated, _, pk in final[:top_k]]


def demoted_score(score: float, text: str | None) -> float:
    """Return ``score`` weighed down by ``LOW_CONTENT_WEIGHT`` for a low-content turn
    (:func:`low_content`), unchanged otherwise."""
    return score * LOW_CONTENT_WEIGHT if low_content(text) else score


def low_content(text: str | None) -> bool:
    """Return whether a turn says nothing but an acknowledgement ("好的", "嗯嗯", "哈哈", "ok").

    Its words (jieba precise mode, punctuation and emoji dropped) are all acknowledgements or
    stopwords; a repeated laugh ("哈哈哈哈") counts as one. Unknown text (None) is not.
    """
    if not text:
        return False
    # all() stops at the first content word: a hundred candidate turns per search are not
    # segmented whole (it was 100 ms of a LoCoMo hybrid search; docs/BENCHMARKS.md).
    return all(
        w in ACK_WORDS or w in STOPWORDS or set(w) <= {"哈", "嗯", "呵", "h", "a"}
        for w in query_words(text)
    )


def boost_chats(
    scores: dict[int, float], chat_of: dict[int, str] | None = None
) -> dict[int, float]:
    """Return ``scores`` raised for the turns of chats whose best turns score high.

    A chat's score is the sum of its best ``CHAT_TOP`` scores; a turn gains ``CHAT_BOOST``
    times the best score times a third of its chat's z-score over the chats present (when
    positive). One chat alone (or none) changes nothing. ``chat_of``: the chat of each id
    when the caller has them (:func:`chat_context`).
    """
    if not scores:
        return scores
    if chat_of is None:
        chat_of = chat_context(list(scores), [], {})[0]
    per_chat: dict[str, list[float]] = defaultdict(list)
    for pk, score in scores.items():
        if pk in chat_of:
            per_chat[chat_of[pk]].append(score)
    by_chat = {chat: sum(sorted(v, reverse=True)[:CHAT_TOP]) for chat, v in per_chat.items()}
    if len(by_chat) < 2:
        return scores
    mean = statistics.fmean(by_chat.values())
    spread = statistics.pstdev(by_chat.values()) or 1e-9
    top = max(scores.values())
    out = {}
    for pk, score in scores.items():
        z = (by_chat[chat_of[pk]] - mean) / spread if pk in chat_of else 0.0
        out[pk] = score + CHAT_BOOST * top * max(0.0, z) / 3
    return out


# --- a third list: BM25 over the query's words, English words stemmed --------------------------

BM25_K1 = 1.2
BM25_B = 0.75
# Document frequencies and the mean length come from the user's latest this many turns, so the
# cost is bounded however long the history (as for the common-word rule of memory.search).
BM25_SAMPLE = 2000
MIN_STEM = 3
# The generated column holding to_tsvector('simple', search_text) (memory.models, migration
# 0008): memory.search reads it too.
TSV = "memory_chatmessage.search_tsv"


# The statement of term_stats. Each query word's BM25 term: an English word (ASCII letters) is
# matched by the part it shares with its PostgreSQL Snowball stem (``ts_lexize('english_stem')``;
# "pottery" stems to "potteri", which as a prefix would miss the word itself, "potter" matches
# both it and "potters") when that part has at least MIN_STEM letters, as ``'part':*``; any
# other word by itself (its quoted form, given). Then one scan of the sample (see
# sample_counts) counts the turns holding each word exactly and each term. The stems are asked
# in the same statement: a search makes one round trip for them and the counts, whatever words
# it has seen before (issue 34: a round trip cost 10-25 ms of wall time on the loaded 2-core
# machine, for 0.04 ms of execution). The part holds letters only: quoting it is wrapping it.
TERM_STATS_SQL = """
WITH queries AS MATERIALIZED (
  SELECT w.n, t.term, to_tsquery('simple', w.exact) AS exact_q,
    CASE WHEN t.term <> w.exact THEN to_tsquery('simple', t.term) END AS term_q
  FROM unnest(%s::text[], %s::text[]) WITH ORDINALITY AS w(lex, exact, n),
  LATERAL (SELECT CASE WHEN w.lex ~ '^[A-Za-z]+$'
    THEN (ts_lexize('english_stem', w.lex))[1] END AS stem) AS found,
  LATERAL (SELECT coalesce(max(i), 0) AS shared
    FROM generate_series(1, least(length(w.lex), length(found.stem))) AS i
    WHERE left(w.lex, i) = left(found.stem, i)) AS common,
  LATERAL (SELECT CASE WHEN common.shared >= %s
    THEN chr(39) || left(w.lex, common.shared) || chr(39) || ':*' ELSE w.exact END AS term) AS t
)
SELECT (SELECT array_agg(term ORDER BY n) FROM queries), count(*), avg(length(v)),
  array_agg(DISTINCT s) FILTER (WHERE s <> ''){counts}
FROM (SELECT {tsv} AS v, speaker AS s FROM memory_chatmessage
  WHERE user_id = %s AND kind = %s ORDER BY ts DESC LIMIT %s) AS sample
"""
# One word's two counts in TERM_STATS_SQL (each query read once, before the scan). A word that
# is its own term is counted once: its term_q is NULL, which matches no row without a test.
TERM_COUNTS_SQL = (
    ", count(*) FILTER (WHERE v @@ (SELECT exact_q FROM queries WHERE n = {n}))"
    ", count(*) FILTER (WHERE v @@ (SELECT term_q FROM queries WHERE n = {n}))"
)


def sample_counts(
    cursor, *, user, tsqueries: list[str]
) -> tuple[int, float, list[int], frozenset[str]]:
    """Return (rows, mean distinct words, rows matching each tsquery, speakers) of the user's
    latest turns.

    One scan of the stored tsvectors (and speakers) of the latest ``BM25_SAMPLE`` turns (kind
    message), so the cost is bounded however long the history. The speakers (blank ones left
    out) are those a question can name (:func:`memory.speakers.unnamed_query`).
    """
    counts = "".join(", count(*) FILTER (WHERE v @@ to_tsquery('simple', %s))" for _ in tsqueries)
    cursor.execute(
        "SELECT count(*), avg(length(v)), array_agg(DISTINCT s) FILTER (WHERE s <> '')"
        f"{counts} FROM (SELECT {TSV} AS v, speaker AS s"
        " FROM memory_chatmessage WHERE user_id = %s AND kind = %s"
        " ORDER BY ts DESC LIMIT %s) sample",
        [*tsqueries, user.pk, Kind.MESSAGE, BM25_SAMPLE],
    )
    total, mean_length, speakers, *found = cursor.fetchone()
    return total, float(mean_length or 0.0), found, frozenset(speakers or ())


@dataclass(frozen=True)
class TermStats:
    """What the lexical lists of one hybrid search need to know of the query's words.

    Read in one statement (:data:`TERM_STATS_SQL`: the words' stems and one scan of the
    sample): the common-word rule of ``memory.search`` and the BM25 weights count over the
    same turns.
    """

    total: int  # turns in the sample
    mean_length: float  # their mean number of distinct words
    lexeme_rows: dict[str, int]  # turns containing each word exactly (the common-word rule)
    terms: dict[str, str]  # each word's BM25 tsquery (stem:* or the word)
    term_rows: dict[str, int]  # turns matching each of those
    speakers: frozenset[str] = frozenset()  # the speakers of the sample's turns (not blank)

    def messages_at_most(self, flt: dict) -> int | None:
        """Return a bound on the user's turns passing ``flt`` (None when the sample does not
        give one): the sample's size when it holds every turn of the user (fewer than
        ``BM25_SAMPLE``) and ``flt`` keeps turns only (kind message), which it can only narrow.

        ``rag.search.vector_search`` then searches exactly without estimating the rows first.
        """
        if flt.get("kind") != Kind.MESSAGE or self.total >= BM25_SAMPLE:
            return None
        return self.total


def term_stats(*, user, lexemes: list[str]) -> TermStats:
    """Return the sample's counts for ``lexemes`` and for their BM25 terms (see TermStats), in
    one statement (:data:`TERM_STATS_SQL`)."""
    counts = "".join(TERM_COUNTS_SQL.format(n=n) for n in range(1, len(lexemes) + 1))
    with connections[read_alias()].cursor() as cursor:
        cursor.execute(
            TERM_STATS_SQL.format(counts=counts, tsv=TSV),
            [
                list(lexemes),
                [quote_lexeme(lexeme) for lexeme in lexemes],
                MIN_STEM,
                user.pk,
                Kind.MESSAGE,
                BM25_SAMPLE,
            ],
        )
        terms, total, mean_length, speakers, *found = cursor.fetchone()
    terms = dict(zip(lexemes, terms or (), strict=True))
    return TermStats(
        total=total,
        mean_length=float(mean_length or 0.0),
        lexeme_rows=dict(zip(lexemes, found[0::2], strict=True)),
        terms=terms,
        term_rows={
            terms[lexeme]: exact if terms[lexeme] == quote_lexeme(lexeme) else stemmed
            for lexeme, exact, stemmed in zip(lexemes, found[0::2], found[1::2], strict=True)
        },
        speakers=frozenset(speakers or ()),
    )


def bm25_ids(
    *,
    user,
    lexemes: list[str],
    flt: dict,
    limit: int,
    stats: TermStats | None = None,
) -> list[int]:
    """Return the ids of the user's turns best by BM25 over ``lexemes`` (matched or not).

    ``ts_rank_cd`` knows no inverse document frequency and ``simple`` no stemming: this list
    weighs each word by its rarity in the user's history and matches English words by stem
    ("researching" finds "research", "researched"). A word counts once per turn; the length is
    the turn's number of distinct words. Fused as a third list, it raised LoCoMo hybrid
    recall@10 (docs/BENCHMARKS.md). ``stats``: :func:`term_stats` of these words (or more),
    when the caller has read them already.
    """
    query = bm25_query(user=user, lexemes=lexemes, flt=flt, limit=limit, stats=stats)
    if query is None:
        return []
    with connections[read_alias()].cursor() as cursor:
        cursor.execute(*query)
        rows = cursor.fetchall()
    return [pk for pk, *_ in rows]


def matches_sql(*, few_rows: bool) -> str:
    """Return the SQL condition "the stored tsvector matches ``to_tsquery(%s::regconfig, %s)``"
    of a user's list.

    ``few_rows``: the user's rows under the filter are few and already read (the term counts'
    sample held every turn of the user: :meth:`TermStats.messages_at_most`). The condition is
    then ``@@``'s own function, which no index serves, so PostgreSQL reads those rows through
    the user's btree and tests each, instead of intersecting them with the full-text index's
    lists of the query's words, which span the partition: at 10M messages (625k rows a
    partition) the words of one LoCoMo question held 102,000 of its rows, 34 ms to read in the
    buffers for a user of 1,000 turns (issue 34). The same rows match either way.
    """
    match = "to_tsquery(%s::regconfig, %s)"
    return f"ts_match_vq({TSV}, {match})" if few_rows else f"{TSV} @@ {match}"


def bm25_query(
    *, user, lexemes: list[str], flt: dict, limit: int, stats: TermStats | None = None
) -> tuple[str, list] | None:
    """Return the SQL and parameters of :func:`bm25_ids`'s list, or None when it is empty
    without asking (no words, or no turns in the sample).

    Its rows have the columns of every list memory.search reads in one statement
    (``memory.search.LIST_COLUMNS``): ``id, rank`` (NULL)``, score`` (BM25, numeric: the
    weights are sent as numeric literals)``, content, ts, message_id``, best first. SQL
    written once: the ORM took about 2 ms of CPU per hybrid search to build it (issue 34, 1M
    messages), more than PostgreSQL took to answer. The user's turns are matched one by one
    when the sample held them all (:func:`matches_sql`).
    """
    if not lexemes:
        return None
    if stats is None:
        stats = term_stats(user=user, lexemes=lexemes)
    terms = list(dict.fromkeys(stats.terms[lexeme] for lexeme in lexemes))
    total, mean_length = stats.total, stats.mean_length
    found = [stats.term_rows[term] for term in terms]
    if not total:
        return None
    weights = [
        (term, math.log(1 + (total - n + 0.5) / (n + 0.5)))
        for term, n in zip(terms, found, strict=True)
    ]
    matched = " + ".join(
        f"(CASE WHEN {TSV} @@ to_tsquery('simple', %s) THEN %s ELSE 0 END)" for _ in weights
    )
    score = f"({matched}) * %s / (1 + %s * (1 - %s + %s * length({TSV}) / %s))"
    either = " | ".join(term for term, _ in weights)
    conditions, params = filter_sql(flt, "memory_chatmessage")
    sql = (
        f"SELECT id, NULL::float8 AS rank, {score} AS score, content, ts, message_id"
        f" FROM memory_chatmessage WHERE user_id = %s{conditions}"
        f" AND {matches_sql(few_rows=stats.messages_at_most(flt) is not None)}"
        " ORDER BY score DESC, ts DESC, message_id LIMIT %s"
    )
    return sql, [
        *(x for pair in weights for x in pair),
        BM25_K1 + 1,
        BM25_K1,
        BM25_B,
        BM25_B,
        mean_length or 1.0,
        user.pk,
        *params,
        TS_CONFIG,
        either,
        int(limit),
    ]


# --- how much of the query a lexical hit holds -------------------------------------------------

# A lexical hit counts in the fusion by the share of the query's word weight (inverse document
# frequency) it holds, to this power: a turn matching only a common word of the question
# ("有", "要", "搬家" in a chat about moving) no longer weighs as much as the dense list's best
# turn. Fitted on bench/memory_zh_set.json, split dev (bench/memory_zh_quality.py), fact
# questions, recall@5 / @10: power 0.5 0.886 / 0.964, 1 0.880 / 0.994, 2 0.886 / 0.994, 3 0.892
# / 0.988 (plain fusion 0.867 / 0.952).
COVERAGE_POWER = 2.0
# Query languages (rag.understand.language) whose lexical hits are weighed so. English keeps
# plain fusion: on LoCoMo dev (conv-26, conv-30; 231 questions, in-process) weighing moved
# hybrid recall@10 from 0.787 to 0.783 (recall@5 0.660 to 0.682), no gain on the target
# figure; its lexical lists match rarer words (names, objects) and were not the problem. (A run
# on the test conversation conv-44 was also read before this was settled: docs/memory.md.)
COVERAGE_LANGUAGES = frozenset({"zh"})
HAN_CHAR = re.compile(r"^[\u3400-\u9fff]$")


def word_weights(lexemes: list[str], stats: TermStats) -> dict[str, float]:
    """Return each query word's BM25 inverse document frequency over the sample."""
    total = stats.total
    out = {}
    for lexeme in lexemes:
        n = stats.term_rows.get(stats.terms.get(lexeme, ""), 0)
        out[lexeme] = math.log(1 + (total - n + 0.5) / (n + 0.5))
    return out


def coverage(text: str, weights: dict[str, float], terms: dict[str, str]) -> float:
    """Return the share of the query's word weight that ``text`` holds (0 to 1).

    A word is held when the turn's index words (jieba search mode) contain it, an English word
    when one of them starts with its stem (``terms``: BM25's ``stem:*``), and a one-character
    Chinese word when the text contains it anywhere ("猫" in "橘猫").
    """
    total = sum(weights.values())
    if not total:
        return 1.0
    words = index_words(text)
    lowered = text.lower()
    held = 0.0
    for lexeme, weight in weights.items():
        term = terms.get(lexeme, "")
        if term.endswith(":*"):
            stem = term[1:-3].replace("''", "'")
            found = any(w.startswith(stem) for w in words)
        else:
            found = lexeme in words or (bool(HAN_CHAR.match(lexeme)) and lexeme in lowered)
        held += weight if found else 0.0
    return held / total
