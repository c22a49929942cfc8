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
"Memory"); the figures of each step are there. The BM25 list and the coverage weight of a
lexical hit are in :mod:`memory.bm25`.
"""

from __future__ import annotations

import bisect
import statistics
from collections import defaultdict

from django.db import connections

from config.replicas import read_alias
from memory.speakers import speaker_weighed
from memory.validation import filter_sql
from rag.text import STOPWORDS, query_words

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
