"""The BM25 list of memory hybrid search, and how much of the query a lexical hit holds.

BM25 over the query's words (English words matched by their stem's shared part), its document
frequencies read from the user's latest turns in one statement with the words' stems
(:func:`term_stats`); the share of the query's word weight a lexical hit holds
(:func:`coverage`), which weighs it in the fusion of ``memory.search_hybrid``. Moved out of
``memory.ranking`` (the context re-ranking) to keep each module under about 500 lines.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from django.db import connections

from config.replicas import read_alias
from memory.models import Kind
from memory.validation import filter_sql
from rag.search import TS_CONFIG
from rag.text import index_words, quote_lexeme

# --- BM25 over the query's words, English words stemmed ----------------------------------------

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
# A word whose stem ends in an e it drops ("coming": "come", "moving": "move") shares only the
# stem less its e ("com", "mov"), a prefix of unrelated words ("company", "movie"): it is
# matched as its whole stem's prefix or itself, ``('come':* | 'coming')``.
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
  LATERAL (SELECT CASE
    WHEN common.shared >= %s AND right(found.stem, 1) = 'e'
      AND common.shared = length(found.stem) - 1
    THEN '(' || chr(39) || found.stem || chr(39) || ':* | ' || w.exact || ')'
    WHEN common.shared >= %s
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
# The stem of a BM25 term, "'stem':*" or "('stem':* | 'word')" (TERM_STATS_SQL; letters only).
_PREFIX_TERM = re.compile(r"^\(?'([a-z]+)':\*")


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
        prefix = _PREFIX_TERM.match(terms.get(lexeme, ""))
        found = lexeme in words or (bool(HAN_CHAR.match(lexeme)) and lexeme in lowered)
        if prefix:
            found = found or any(w.startswith(prefix.group(1)) for w in words)
        held += weight if found else 0.0
    return held / total
