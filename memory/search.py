"""Lexical search over one user's messages, and what every memory search shares.

- Lexical: the rag query parser (quotes, AND/OR/NOT; bare words joined by OR, stopwords
  dropped, so a natural-language question matches on its content words), ``ts_rank_cd`` over
  the jieba-segmented ``search_text``, ordered by rank, ``ts desc``, ``message_id``; keyset
  paging on that triple, the cursor bound to a fingerprint of (user, query, filter).
- Semantic (memory/search_semantic.py): :func:`memory.search_semantic.nearest_messages`, the
  filtered nearest-neighbour search every app uses (``rag.search.vector_search``: the filter
  before the search, exact when few rows pass, and exact again when HNSW returns fewer than
  asked). Without an explicit ``min_score`` the relevance cut of rag/relevance.py decides
  (surface "memory": an off-topic query answers nothing; no absolute floor, so a short chat
  still fills top_k for an on-topic query).
- Hybrid (memory/search_hybrid.py): reciprocal-rank fusion (``memory.ranking.FUSION_K``) of
  both lists (the semantic list passes the same relevance cut first), then neighbour turns and
  whole chats re-ranked (memory/ranking.py), each item carrying both component scores and ranks.
- Summaries: every search returns chat turns, and with them the summaries standing in for
  turns retention deleted (memory/stand_ins.py; their provenance says ``summary``),
  unless the filter names a ``kind``.
- Degraded: when the query text cannot be embedded within ``SEARCH_TIME_BUDGET_SECONDS`` (the
  provider is down or slow), semantic search with a text and hybrid search answer from the
  lexical list alone and say so (``degraded``, ``degraded_reason``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVectorField
from django.db import connections
from django.db.models import FloatField, Q
from django.db.models.expressions import RawSQL
from django.db.models.functions import Cast

from config.replicas import read_alias
from memory import bm25
from memory.cursors import decode_cursor, encode_cursor, fingerprint
from memory.models import ChatMessage, Kind
from memory.stand_ins import (
    stand_in_summaries,
    with_stand_ins,
)
from memory.validation import apply_filter, filter_sql
from rag.highlight import mark
from rag.search import TS_CONFIG
from rag.text import (
    STOPWORDS,
    excludes,
    matching_words,
    parse_query,
    query_spans,
    quote_lexeme,
    segment_query,
)
from rag.understand import understand

MAX_TOP_K = 200
DEFAULT_TOP_K = 20
MAX_PAGE_SIZE = 200
DEFAULT_PAGE_SIZE = 20
SNIPPET_RADIUS = 30
# A bare word in more than this fraction of a user's messages is dropped from an OR query.
COMMON_TERM_FRACTION = 0.1
COMMON_TERM_MIN_ROWS = 50
EXPLICIT = re.compile(r'["“”()]|&&|\|\||(?:^|\s)(?:AND|OR|NOT)(?=\s|$)|(?:^|\s)-\S')
# The operators of an explicit query (EXPLICIT, literal_spans): upper case only, as lower-case
# "and", "or", "not" are words of a sentence ("what did we eat yesterday or the day before").
OPERATORS = frozenset({"AND", "OR", "NOT", "&&", "||"})
LEXEME = re.compile(r"'((?:[^']|'')*)'")
MAX_SNIPPETS = 3
# Words that ask about a memory rather than name its content ("上周说的猫", "你还记得我提过
# 的餐厅吗"): a plain query's lexical lists drop them with the stopwords, as they match a turn
# about anything ("他说数据不够" for "猫"). Fitted on bench/memory_zh_set.json, split dev.
_CHAT_STOPWORD_TEXT = """
    说 说过 聊 聊过 聊天 讲 讲过 谈 谈过 提 提过 提到 问 问过 告诉 记得 还记得 之前 以前
    上次 那次 啥 几 多少 哪天 哪些 哪儿 谁 为什么 怎么办 怎么样 咋 些 一下 没有 有没有
"""
CHAT_STOPWORDS = frozenset(_CHAT_STOPWORD_TEXT.split())
# 来着 closing a question asks to be reminded (我对什么过敏来着, 他叫啥来着): the segmenter splits
# it into 来 + 着, and 来 alone would match every turn where someone comes.
REMINDER_PARTICLE = re.compile(r"来着(?=[\s？?。！!～~啊呀呢]*$)")
# The instant a time phrase is read at only to find where it is in the query (fixed: its
# span does not depend on it, and a fixed instant keeps the lexical query clock-independent).
PHRASE_NOW = datetime(2025, 1, 1, tzinfo=UTC)


@dataclass
class Scored:
    """A message with its score (and, in hybrid results, the component scores and ranks)."""

    row: ChatMessage
    score: float
    extra: dict


def scoped(flt: dict) -> dict:
    """Search chat turns unless the filter asks for summaries (``kind``) explicitly.

    Summaries repeat the words and the gist of many turns, so they would crowd the turns
    themselves out of every result list; only those standing in for turns retention deleted
    join the turns (:func:`memory.stand_ins.with_stand_ins`).
    """
    return {**flt, "kind": flt.get("kind") or Kind.MESSAGE}


# --- lexical --------------------------------------------------------------------------------


def lexical_tsquery(query_text: str, default_operator: str = "or", user=None) -> str:
    """Return the tsquery text for a user's query (stopwords dropped).

    For a plain OR query (no quotes, operators or parentheses), words found in more than
    ``COMMON_TERM_FRACTION`` of the user's messages are dropped while a rarer word remains
    (:func:`drop_common_words`).
    """
    tsquery = parse_query(query_text, default_operator=default_operator, drop_stopwords=True)
    if user is None or not tsquery or default_operator != "or" or EXPLICIT.search(query_text):
        return tsquery
    return drop_common_words(tsquery, user=user)


def literal_spans(query_text: str) -> list[tuple[int, int]]:
    """Return the spans of a query that its syntax asks for word for word, in order.

    A quoted phrase, an exclusion ("-昨天", "NOT 昨天"), a word either side of AND or OR (and
    the operator), a group in parentheses: a time phrase there is a word the caller searches
    for ("火锅 -昨天" excludes 昨天), not a time to filter by (``memory.understanding``). Spans
    with only whitespace between them are one.
    """
    items: list[list] = []  # [literal, start, end, value] of each top-level token or group
    depth = 0
    for kind, value, start, end in query_spans(query_text):
        if depth:  # inside a group, which runs to its ")" (or the end of the query)
            depth += {"(": 1, ")": -1}.get(kind, 0)
            items[-1][2] = end
        elif kind == "(":
            depth = 1
            items.append([True, start, end, value])
        elif kind != ")":  # a stray ")" is no operand
            literal = kind == "PHRASE" or value in OPERATORS or excludes(value)
            items.append([literal, start, end, value])
    for i, (*_, value) in enumerate(items):
        if value in OPERATORS:
            after = items[i + 1 : i + 2]
            before = items[max(i - 1, 0) : i] if value != "NOT" else []
            for item in before + after:
                item[0] = True
    spans: list[tuple[int, int]] = []
    for literal, start, end, _ in items:
        if not literal:
            continue
        if spans and not query_text[spans[-1][1] : start].strip():
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def content_tsquery(query_text: str) -> str:
    """Return the OR tsquery of a plain query's content words (bare words only).

    Without the stopwords, the words that ask about a memory (``CHAT_STOPWORDS``,
    ``REMINDER_PARTICLE``) and a time phrase ("上周", "last May": a turn rarely says when it
    was said, and ``understand`` reads it as a window). When nothing is left,
    :func:`rag.text.parse_query`'s query stands.
    """
    fallback = parse_query(query_text, default_operator="or", drop_stopwords=True)
    if not fallback or EXPLICIT.search(query_text):
        return fallback
    text = query_text
    # The phrase's position does not depend on the instant: any ``now`` finds the same span.
    phrase = understand(query_text, now=PHRASE_NOW, tz=UTC, direction="past").time
    if phrase is not None:
        text = query_text[: phrase.span[0]] + " " + query_text[phrase.span[1] :]
    text = REMINDER_PARTICLE.sub(" ", text)
    words = [w for w in matching_words(text) if w not in STOPWORDS and w not in CHAT_STOPWORDS]
    return " | ".join(quote_lexeme(w) for w in words) or fallback


def single_han(tsquery: str) -> list[str]:
    """Return the one-character Chinese words of a tsquery ("猫", "琴", "花")."""
    return [lex for lex in tsquery_lexemes(tsquery) if bm25.HAN_CHAR.match(lex)]


def drop_common_words(tsquery: str, *, user, stats=None) -> str:
    """Return a plain OR tsquery without its words common in the user's messages.

    ``ts_rank_cd`` has no inverse document frequency, so a name that appears in half the chat
    would otherwise outrank the one rare word that identifies the answer. A word stays when
    all are common. ``stats``: the :func:`memory.bm25.term_stats` of the query's words, when
    the caller has them (else they are counted here).
    """
    lexemes = tsquery_lexemes(tsquery)
    if len(lexemes) < 2:
        return tsquery
    if stats is None:
        common = _common_lexemes(user, lexemes)
    else:
        common = _common(stats.total, [stats.lexeme_rows[lex] for lex in lexemes], lexemes)
    kept = [lex for lex in lexemes if lex not in common]
    if not kept or len(kept) == len(lexemes):
        return tsquery
    return " | ".join(quote_lexeme(lex) for lex in kept)


def tsquery_lexemes(tsquery: str) -> list[str]:
    """Return the distinct lexemes of a tsquery text, unquoted, in order."""
    return list(
        dict.fromkeys(
            m.group(1).replace("''", "'").replace("\\\\", "\\") for m in LEXEME.finditer(tsquery)
        )
    )


def stored_tsvector() -> RawSQL:
    """Return the stored ``to_tsvector('simple', search_text)`` of a row (migration 0008)."""
    return RawSQL(bm25.TSV, [], output_field=SearchVectorField())


def _common(total: int, rows: list[int], lexemes: list[str]) -> set[str]:
    """Return the lexemes in more than COMMON_TERM_FRACTION of ``total`` sampled turns."""
    if total < COMMON_TERM_MIN_ROWS:
        return set()
    return {lex for lex, n in zip(lexemes, rows, strict=True) if n > total * COMMON_TERM_FRACTION}


def _common_lexemes(user, lexemes: list[str]) -> set[str]:
    """Return the lexemes found in more than COMMON_TERM_FRACTION of the user's messages.

    One query over the stored tsvectors of the user's latest messages (the sample of
    :func:`memory.bm25.sample_counts`, which BM25 counts over too), so the cost is bounded
    however long the user's history is.
    """
    with connections[read_alias()].cursor() as cursor:
        total, _, found, _ = bm25.sample_counts(
            cursor, user=user, tsqueries=[quote_lexeme(lex) for lex in lexemes]
        )
    return _common(total, found, lexemes)


# The order of lexical hits: rank, then the newer message, then its id (the cursor's keyset).
LEXICAL_ORDER = ("-_rank", "-ts", "message_id")


def lexical_queryset(*, user, flt: dict, tsquery: str, proximity=None, also=()):
    """Return the user's messages matching ``tsquery`` under ``flt``, annotated ``_rank``.

    ``also``: ids of rows taken whatever the filter's ``kind`` (the stand-in summaries).
    """
    query = SearchQuery(tsquery, search_type="raw", config=TS_CONFIG)
    # float8, not ts_rank_cd's float4: the cursor's rank must round-trip exactly.
    rank_expr = Cast(SearchRank(stored_tsvector(), query, cover_density=True), FloatField())
    if proximity is not None:
        rank_expr = rank_expr * ts_closeness(proximity)
    rows = ChatMessage.objects.filter(user=user)
    if also:
        rows = apply_filter(rows, {**flt, "kind": None}).filter(
            Q(kind=flt["kind"]) | Q(pk__in=list(also))
        )
    else:
        rows = apply_filter(rows, flt)
    return rows.alias(_vector=stored_tsvector()).filter(_vector=query).annotate(_rank=rank_expr)


def with_inside_words(found: list, *, user, flt: dict, chars, limit: int) -> list:
    """Return the lexical list ``found`` ((id, rank, content) triples) followed by
    :func:`inside_words` (one-character words of ``chars`` inside longer ones) while it is
    shorter than ``limit``."""
    if chars and len(found) < limit:
        found += inside_words(user=user, flt=flt, chars=chars, limit=limit, skip=found)
    return found


def lexical_query(
    *, user, flt: dict, tsquery: str, limit: int, few_rows: bool = False
) -> tuple[str, list]:
    """Return the SQL and parameters of hybrid search's lexical list: the best ``limit`` word
    matches among the turns under ``flt``, in lexical_search's order, in the columns of
    :data:`LIST_COLUMNS` (``score`` NULL; the content for :func:`memory.bm25.coverage`).

    Hybrid search fuses ids and loads only the rows it returns: half the time of loading the
    whole page (a LoCoMo question: 1.6 ms against 3.1 at p50). lexical_queryset's rank and
    LEXICAL_ORDER, in SQL written once: the ORM took about 2 ms of CPU per hybrid search to
    build this query (issue 34, 1M messages). ``few_rows``: the user's turns under ``flt`` are
    few and already read, matched one by one (:func:`memory.bm25.matches_sql`).
    """
    conditions, params = filter_sql(scoped(flt), "memory_chatmessage")
    sql = (
        f"SELECT id, ts_rank_cd({bm25.TSV}, to_tsquery(%s::regconfig, %s))::float8 AS rank,"
        " NULL::numeric AS score, content, ts, message_id FROM memory_chatmessage"
        f" WHERE user_id = %s{conditions} AND {bm25.matches_sql(few_rows=few_rows)}"
        " ORDER BY rank DESC, ts DESC, message_id LIMIT %s"
    )
    return sql, [TS_CONFIG, tsquery, user.pk, *params, TS_CONFIG, tsquery, int(limit)]


# The columns of a list read with others in one statement (:func:`read_lists`): the lexical
# rank (float8) or the BM25 score (numeric), NULL in the other lists; each list is ordered by
# them, then the newer turn, then its id, as its own query orders it.
LIST_COLUMNS = "id, rank, score, content, ts, message_id"
# What read_lists returns of them: the order's last two columns only place a row in its list
# (parsing about 150 timestamps a search that nothing read took about 1 ms of its CPU; issue 34).
READ_COLUMNS = "id, rank, score, content"


def read_lists(queries: dict[str, tuple[str, list] | None]) -> dict[str, list[tuple]]:
    """Return the rows of each query (in :data:`READ_COLUMNS`), in its order, in one round trip.

    A hybrid search reads its lexical list, its BM25 list, the stand-in summaries of the user
    and its nearest neighbours: independent reads of one user's partition, once as many round
    trips (each a wait for the server on a loaded machine). A None query reads nothing.
    """
    asked = [(name, query) for name, query in queries.items() if query is not None]
    out: dict[str, list[tuple]] = {name: [] for name in queries}
    if not asked:
        return out
    order = "rank DESC, score DESC, ts DESC, message_id"
    sql = " UNION ALL ".join(
        f"(SELECT {i} AS list, row_number() OVER (ORDER BY {order}) AS position,"
        f" {READ_COLUMNS} FROM ({query[0]}) AS list{i})"
        for i, (_, query) in enumerate(asked)
    )
    params = [param for _, query in asked for param in query[1]]
    with connections[read_alias()].cursor() as cursor:
        cursor.execute(f"{sql} ORDER BY list, position", params)
        for index, _, *row in cursor.fetchall():
            out[asked[index][0]].append(tuple(row))
    return out


def inside_words(*, user, flt: dict, chars: list[str], limit: int, skip) -> list:
    """Return (id, 0.0, content) of the turns holding a query's one-character word inside a
    longer one.

    jieba keeps "橘猫" and "吉他琴" whole, so the lexeme "猫" never matches them; a turn whose
    text contains the character does. Ranked after the word matches (``skip``), newest first.
    A scan of the user's turns under the filter (``strpos``): one-character words are rare in
    a query and the user's rows are read through the ``(user, ts)`` index.
    """
    holds = Q()
    for ch in chars:
        holds |= Q(content__contains=ch)
    seen = [pk for pk, *_ in skip]
    qs = apply_filter(ChatMessage.objects.filter(user=user), scoped(flt)).filter(holds)
    rows = qs.exclude(pk__in=seen).order_by("-ts", "message_id").values_list("pk", "content")
    return [(pk, 0.0, text) for pk, text in rows[: limit - len(seen)]]


def lexical_search(
    *,
    user,
    query_text: str,
    flt: dict,
    page_size: int = DEFAULT_PAGE_SIZE,
    cursor: str | None = None,
    default_operator: str = "or",
    binding: tuple | None = None,
    proximity=None,
    tsquery: str | None = None,
) -> tuple[list[Scored], str | None]:
    """Return one page of lexical hits and the cursor of the next page (or None).

    ``binding`` (the request as sent) replaces the query and filter in the cursor's fingerprint
    when a caller derives them from it (memory.understanding); ``proximity`` (a Window) scales
    each rank by the closeness of the message's ts to it; ``tsquery``: the
    :func:`lexical_tsquery` of the query when the caller already has it. The stand-in
    summaries are ranked with the turns (:func:`with_stand_ins`).
    """
    also = stand_in_summaries(user=user, flt=flt) if with_stand_ins(flt) else []
    flt = scoped(flt)
    fp = fingerprint("lexical", user.pk, *(binding or (query_text, default_operator, flt)))
    if tsquery is None:
        tsquery = lexical_tsquery(query_text, default_operator, user=user)
    position = decode_cursor("lexical", fp, cursor, (float, str, str)) if cursor else None
    if not tsquery:
        return [], None
    qs = lexical_queryset(user=user, flt=flt, tsquery=tsquery, proximity=proximity, also=also)
    if position:
        rank, ts, mid = position
        # Keyset on (rank desc, ts desc, message_id asc): strictly after the last row sent.
        qs = qs.filter(
            Q(_rank__lt=rank) | Q(_rank=rank, ts__lt=ts) | Q(_rank=rank, ts=ts, message_id__gt=mid)
        )
    qs = qs.select_related("user").defer("embedding").order_by(*LEXICAL_ORDER)
    rows = list(qs[: page_size + 1])
    more = len(rows) > page_size
    rows = rows[:page_size]
    next_cursor = None
    if more and rows:
        last = rows[-1]
        next_cursor = encode_cursor(
            "lexical", fp, [float(last._rank), last.ts.isoformat(), last.message_id]
        )
    return [Scored(row=r, score=float(r._rank), extra={}) for r in rows], next_cursor


def ts_closeness(window):
    """Return the SQL of ``rag.understand.apply.closeness`` of each row's ts to ``window``."""
    start, end = window.start.timestamp(), window.end.timestamp()
    scale = max(end - start, 86400.0)
    return RawSQL(
        "1.0 / (1.0 + GREATEST(%s - extract(epoch FROM memory_chatmessage.ts),"
        " extract(epoch FROM memory_chatmessage.ts) - %s, 0) / %s)::float8",
        [start, end, scale],
        output_field=FloatField(),
    )


def snippets(content: str, query_text: str) -> list[str]:
    """Return up to three snippets of ``content`` around the query's words, marked."""
    words = [w for w in segment_query(query_text) if len(w) > 1 or not w.isascii()]
    words = [w for w in dict.fromkeys(words) if w.upper() not in ("AND", "OR", "NOT")]
    if not words:
        return []
    pattern = re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)), re.I)
    out, last_end = [], -1
    for match in pattern.finditer(content):
        if match.start() < last_end:
            continue
        start = max(0, match.start() - SNIPPET_RADIUS)
        end = min(len(content), match.end() + SNIPPET_RADIUS)
        piece = content[start:end]
        piece = mark(piece, pattern)  # HTML: the text escaped, only the marks are markup
        out.append(("…" if start else "") + piece + ("…" if end < len(content) else ""))
        last_end = end
        if len(out) >= MAX_SNIPPETS:
            break
    return out
