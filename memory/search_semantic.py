"""Semantic search over one user's messages, and the query vector every memory search uses.

:func:`nearest_messages` is the filtered nearest-neighbour search (``rag.search.vector_search``);
without an explicit ``min_score`` the relevance cut of rag/relevance.py decides which hits stay
(:func:`relevant_pairs`). :func:`load_rows` reads the rows a search returns, with their
similarities, in one query. When the query text cannot be embedded in time, a semantic search
answers with the lexical hits (:func:`lexical_fallback`). memory/search.py has the overview.
"""

from __future__ import annotations

import logging
import math

from django.db import connections
from django.utils.translation import gettext

from config.errors import InvalidArgument
from config.replicas import read_alias
from memory.models import ChatMessage
from memory.search import Scored, lexical_search, scoped
from memory.stand_ins import (
    stand_in_summaries,
    summary_similarities,
    with_stand_ins,
)
from memory.validation import apply_filter, filter_sql
from rag import relevance
from rag.embeddings import ProviderError, degraded_reason, embed_query
from rag.fields import configured_dimensions, vector_literal
from rag.search import similarity_expression, vector_search

logger = logging.getLogger(__name__)


def check_embedding(vector) -> list[float]:
    """Return a query embedding as floats; INVALID_ARGUMENT for wrong dimensions or values."""
    dims = configured_dimensions()
    if not isinstance(vector, list) or len(vector) != dims:
        raise InvalidArgument(
            gettext(
                "query_embedding: send a list of %(dims)d numbers (the active model's dimensions)."
            )
            % {"dims": dims},
            details={"field": "query_embedding", "dimensions": dims},
        )
    try:
        out = [float(x) for x in vector]
    except (TypeError, ValueError):
        raise InvalidArgument(gettext("query_embedding: every element must be a number."))
    if not all(math.isfinite(x) for x in out) or not any(out):
        raise InvalidArgument(gettext("query_embedding: use finite numbers, not all zero."))
    return out


def relevant_pairs(pairs: list[tuple], vector: list[float], report: dict | None = None) -> list:
    """Return the (id, similarity) pairs that pass the memory relevance cut.

    ``report`` (when given) receives ``relevance`` (the decision) and ``reason`` (set when the
    query is off-topic). When the reference sample cannot be embedded, every pair is kept.
    """
    try:
        decision = relevance.judge(vector, [float(sim) for _, sim in pairs], "memory")
    except ProviderError as exc:
        logger.warning("relevance cut skipped, reference sample not embedded: %s", exc)
        return pairs
    if report is not None:
        report["relevance"] = decision.meta()
        report["reason"] = decision.reason
    return [pair for pair, keep in zip(pairs, decision.keep, strict=True) if keep]


def nearest_messages(
    vector: list[float], count: int, *, user, flt: dict, rows_at_most: int | None = None
) -> list[tuple]:
    """Return (id, similarity) of the ``count`` messages of ``user`` passing ``flt`` nearest to
    ``vector``, best first (ties: newest, then by message_id).

    ``rows_at_most``: a bound on the rows passing ``flt`` the caller has counted
    (``rag.search.vector_search``: exact without estimating them when small).
    """
    queryset = apply_filter(ChatMessage.objects.filter(user=user), flt)
    queryset = queryset.only("id", "ts", "message_id")  # what the tie-break reads
    hits, _ = vector_search(
        queryset, vector, k=count, tiebreak=("-ts", "message_id"), rows_at_most=rows_at_most
    )
    return [(hit.obj.pk, hit.score) for hit in hits]


def exact_nearest_query(vector: list[float], count: int, *, user, flt: dict) -> tuple[str, list]:
    """Return the SQL and parameters of :func:`nearest_messages` on its exact path, for a
    caller that knows the rows passing ``flt`` are few (``rag.search.exact_by_bound``) and
    reads it with other lists in one statement (``memory.search.read_lists``).

    Its rows have ``memory.search.LIST_COLUMNS``: ``id``, ``rank`` minus the cosine distance
    (the similarity is ``1 - distance``, as vector_search computes it), ``score`` and
    ``content`` NULL, ``ts, message_id``; best first, ties newest then by message_id, as
    nearest_messages orders them. The distance plus 0, as vector_search's exact path: it hides
    the ordering from the HNSW index, so the user's rows are read and all compared.
    """
    conditions, params = filter_sql(flt, "memory_chatmessage")
    # Ordered by rank, the negated distance (exactly its opposite): the vector is sent once.
    sql = (
        "SELECT id, -((embedding <=> %s) + 0.0) AS rank, NULL::numeric AS score,"
        " NULL::text AS content, ts, message_id FROM memory_chatmessage"
        f" WHERE user_id = %s{conditions} AND embedding IS NOT NULL"
        " ORDER BY rank DESC, ts DESC, message_id LIMIT %s"
    )
    return sql, [vector_literal(vector), user.pk, *params, int(count)]


def load_rows(
    ids: list[int], vector: list[float] | None = None, *, user=None
) -> dict[int, ChatMessage]:
    """Return the rows of ``ids`` by id; with ``vector``, each with its ``similarity`` to it.

    ``similarity`` is None for a row without an embedding. In the same query as the rows, so
    the similarities of lexical-only hits cost no round trip of their own. ``user``: the rows'
    owner, which prunes the read to that user's partition (memory.models.ChatMessage).
    """
    if user is None:
        rows = ChatMessage.objects.filter(pk__in=ids).select_related("user").defer("embedding")
        if vector is not None:
            rows = rows.annotate(similarity=similarity_expression("embedding", vector))
        return {r.pk: r for r in rows}
    if not ids:
        return {}
    # The search path (the owner known): SQL written once, not joined to the user and not
    # built by the ORM per search (about 1.5 ms of CPU of a hybrid search at 1M messages,
    # issue 34). The similarity is similarity_expression's, so the same float.
    similarity = "NULL::float8"
    params: list = []
    if vector is not None:
        similarity = "%s - (embedding <=> %s)"
        params = [1.0, vector_literal(vector)]
    alias = read_alias()
    with connections[alias].cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(_LOADED_COLUMNS)}, {similarity} AS similarity"
            " FROM memory_chatmessage WHERE id = ANY(%s) AND user_id = %s",
            [*params, list(ids), user.pk],
        )
        rows = cursor.fetchall()
    # Built as the ORM builds a row it read (from_db; the vector deferred), without a raw
    # queryset's column matching per search (about 1 ms of CPU of a hybrid search at 10M,
    # issue 34): the columns are the fields' own and none has a converter from the database.
    found = {}
    for *values, similarity in rows:
        row = ChatMessage.from_db(alias, _LOADED_COLUMNS, values)
        row.similarity = similarity
        row.user = user
        found[row.pk] = row
    return found


# Every column of a message but its vector (the rows a search returns: load_rows); each is its
# field's attname too (no db_column differs).
_LOADED_COLUMNS = [f.column for f in ChatMessage._meta.concrete_fields if f.name != "embedding"]


def order_key(item: Scored):
    # score desc, then ts desc, then message_id asc
    return (-item.score, -item.row.ts.timestamp(), item.row.message_id)


def semantic_search(
    *,
    user,
    flt: dict,
    top_k: int,
    vector: list[float],
    min_score: float | None,
    report: dict | None = None,
) -> list[Scored]:
    """Return up to ``top_k`` messages nearest to ``vector`` at or above ``min_score``.

    Without ``min_score`` the relevance cut decides (:func:`relevant_pairs`, into ``report``).
    The stand-in summaries are ranked with the turns (:func:`with_stand_ins`).
    """
    pairs = nearest_messages(vector, top_k, user=user, flt=scoped(flt))
    if with_stand_ins(flt):
        summaries = summary_similarities(stand_in_summaries(user=user, flt=flt), vector, user=user)
        pairs = sorted([*pairs, *summaries.items()], key=lambda pair: -pair[1])[:top_k]
    if min_score is None:
        pairs = relevant_pairs(pairs, vector, report)
    rows = load_rows([pk for pk, _ in pairs], user=user)
    items = [
        Scored(row=rows[pk], score=float(sim), extra={"semantic_score": float(sim)})
        for pk, sim in pairs
        if pk in rows and (min_score is None or sim >= min_score)
    ]
    items.sort(key=order_key)
    return items


def query_vector(query_text: str | None, query_embedding) -> list[float]:
    """Return the query vector: the given embedding, or the query-role embedding of the text."""
    if query_embedding is not None:
        return check_embedding(query_embedding)
    return embed_uncached_query(query_text)


def embed_uncached_query(text: str) -> list[float]:
    """Return the query-role vector of a user's text without storing it in the shared cache.

    A query is the user's own text but is stored nowhere, so ``user_erase`` could not find
    its cache row by hash; it is embedded afresh each time instead (docs/memory.md, deletion).
    Within the search time budget; raises ``ProviderError`` (or a subclass) when it cannot.
    """
    return embed_query(text, use_cache=False)


def try_query_vector(
    query_text: str | None, query_embedding
) -> tuple[list[float] | None, str | None]:
    """Return ``(vector, None)``, or ``(None, reason)`` when the text cannot be embedded in time."""
    try:
        return query_vector(query_text, query_embedding), None
    except ProviderError as exc:
        logger.warning("query embedding failed, answering lexically: %s", exc)
        return None, degraded_reason(exc)


def lexical_fallback(*, user, query_text: str, flt: dict, top_k: int) -> list[Scored]:
    """Return the lexical hits a degraded semantic search answers with (no semantic score)."""
    hits, _ = lexical_search(user=user, query_text=query_text, flt=flt, page_size=top_k)
    for hit in hits:
        hit.extra = {"semantic_score": None, "lexical_score": hit.score}
    return hits
