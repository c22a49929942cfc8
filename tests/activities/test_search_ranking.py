"""What the activity search reads of a query in the rows (activities/search_ranking.py)."""

from __future__ import annotations

import pytest
from django.utils import timezone


def _row(pk, title, *, type="其他", tags=(), vibes=()):
    from types import SimpleNamespace

    return SimpleNamespace(pk=pk, title=title, type=type, tags=list(tags), vibes=list(vibes))


def test_cue_ranking_puts_rows_of_the_asked_kind_and_mood_first():
    from activities.search_ranking import cue_ranking
    from activities.understanding import read_query

    understood = read_query("安静的读书会", now=timezone.now(), tz=None)
    rows = [
        _row(1, "夜跑", type="运动", vibes=["运动"]),
        _row(2, "拼图", type="桌游", vibes=["安静"]),
        _row(3, "读书分享", type="读书", vibes=["安静", "文艺"]),
    ]
    assert cue_ranking(rows, understood) == [3, 2]  # two cues, then one; none: left out


def test_few_rows_are_ordered_by_what_the_query_names_without_a_provider():
    from activities.search_ranking import evidence_order
    from activities.understanding import read_query

    understood = read_query("爵士现场", now=timezone.now(), tz=None)
    rows = [_row(1, "夜市吃喝"), _row(2, "游泳约练"), _row(3, "爵士酒吧现场", type="音乐")]
    assert [a.pk for a in evidence_order(rows, "爵士现场", understood)] == [3, 1, 2]


def test_query_evidence_needs_a_word_or_cue_the_rows_have():
    from activities.search_ranking import query_evidence
    from activities.understanding import read_query

    rows = [_row(1, "周日七人制足球约战", type="运动", vibes=["运动"])]
    for query, expected in (("踢足球", True), ("修理打印机", False)):
        understood = read_query(query, now=timezone.now(), tz=None)
        assert query_evidence(query, rows, understood) is expected, query


def _hits(rows, scores):
    from types import SimpleNamespace

    return [SimpleNamespace(obj=row, score=score) for row, score in zip(rows, scores, strict=True)]


def _crowd(start_pk, count, score):
    """Candidates naming nothing of the query, close to each other: the query's background."""
    return [_row(start_pk + i, f"其他活动{i}") for i in range(count)], [score] * count


def test_one_shared_everyday_word_does_not_put_a_row_above_the_dense_best():
    # "想找吃素的朋友一起吃饭": the vegetarian supper stands far above the other candidates but
    # holds none of the query's words; the newcomers' social holds only 朋友. With reciprocal
    # rank fusion the social came first; the learned order keeps the supper first.
    from activities.search_ranking import hybrid_scores

    query = "想找吃素的朋友一起吃饭"
    rows = [_row(1, "素食共享晚餐", type="美食"), _row(2, "城市新人交友｜刚来的朋友", type="社交")]
    crowd, crowd_scores = _crowd(10, 18, 0.80)
    candidates = _hits(rows + crowd, [0.90, 0.84, *crowd_scores])
    fused = hybrid_scores(candidates[:2], query, candidates=candidates)
    assert fused[1] > fused[2]
    assert set(fused) == {1, 2}  # scores the hits it is given, never adds a row


def test_a_row_holding_the_query_words_rises_above_a_close_one_holding_none():
    from activities.search_ranking import hybrid_scores

    query = "学做甜点"
    rows = [_row(1, "陶艺拉坯体验", type="手工"), _row(2, "甜点工作室｜学做提拉米苏", type="美食")]
    crowd, crowd_scores = _crowd(10, 18, 0.80)
    candidates = _hits(rows + crowd, [0.86, 0.85, *crowd_scores])
    fused = hybrid_scores(candidates, query, candidates=candidates)
    assert fused[2] > fused[1]
    assert all(0.0 < score < 1.0 for score in fused.values())


def test_a_row_holding_what_the_query_refuses_does_not_rise_for_it():
    # 「不要户外的，室内玩点什么」: the outdoor walk holds 户外 and is of the 户外 kind; before the
    # negation was read, both counted as naming the query and put the walk above the indoor
    # climbing night the query asks for.
    from activities.search_ranking import hybrid_scores
    from activities.understanding import read_query

    query = "不要户外的，室内玩点什么"
    understood = read_query(query, now=timezone.now(), tz=None)
    rows = [
        _row(1, "户外徒步｜郊野公园", type="户外", vibes=["户外", "运动"]),
        _row(2, "攀岩馆抱石入门", type="运动", vibes=["运动"]),
    ]
    crowd, crowd_scores = _crowd(10, 18, 0.80)
    candidates = _hits(rows + crowd, [0.86, 0.85, *crowd_scores])
    fused = hybrid_scores(candidates, query, candidates=candidates, understood=understood)
    assert fused[2] > fused[1]


def _embedded(row, vector):
    row.embedding = vector
    return row


def test_a_row_like_what_the_query_refuses_falls_below_one_that_is_not():
    # "exercise but no running": the 5K holds no word of the query ("run", not "running"), so
    # only its meaning tells it is what the query refuses: its vector close to the refused
    # phrase's. Vectors here stand for the model's (two axes: running, climbing).
    from activities.search_ranking import hybrid_scores

    query = "exercise but no running"
    rows = [
        _embedded(_row(1, "Social 5K round the park", type="运动"), [1.0, 0.1]),
        _embedded(_row(2, "Beginners' bouldering night", type="运动"), [0.1, 1.0]),
    ]
    crowd, crowd_scores = _crowd(10, 18, 0.80)
    for row in crowd:
        _embedded(row, [0.5, 0.5])
    candidates = _hits(rows + crowd, [0.86, 0.86, *crowd_scores])
    plain = hybrid_scores(candidates, query, candidates=candidates)
    refusing = hybrid_scores(candidates, query, candidates=candidates, refused=[[1.0, 0.0]])
    assert refusing[2] > refusing[1]
    assert refusing[1] < plain[1]  # only the refusal moved it


def test_refusing_one_dish_does_not_refuse_every_food_row():
    # 「除了火锅还有什么好吃的」: 火锅 is a food word of the vibe lexicon, and the refused 美食
    # cue used to count against every food row, putting the street-food walk under rows that
    # were no food at all. What is refused is the hotpot, read by word and by meaning.
    from activities.search_ranking import hybrid_scores
    from activities.understanding import read_query

    query = "除了火锅还有什么好吃的"
    understood = read_query(query, now=timezone.now(), tz=None)
    rows = [
        _row(1, "老街小吃扫街", type="美食", vibes=["美食", "社交"]),
        _row(2, "科技馆亲子实验日", type="亲子", vibes=["亲子"]),
        _row(3, "火锅底料手炒课", type="美食", vibes=["美食"]),
    ]
    crowd, crowd_scores = _crowd(10, 17, 0.80)
    candidates = _hits(rows + crowd, [0.86, 0.86, 0.86, *crowd_scores])
    fused = hybrid_scores(candidates, query, candidates=candidates, understood=understood)
    assert fused[1] >= fused[2] > fused[3]  # not under the non-food row; the hotpot last


@pytest.mark.django_db
@pytest.mark.real_model
def test_a_search_refusing_something_embeds_it_with_the_query_in_one_call(
    demo_activities, counting_provider
):
    # The refused phrase is embedded in the query's own provider call: no call is added.
    from activities.search import activities_search

    # Load what a process embeds once (the gate's samples, the intent examples) with a query that
    # names no kind (a named kind skips the intent examples), so only the search's call is counted.
    activities_search(semantic_query="周末想出去放松一下", limit=10)
    counting_provider.calls, counting_provider.texts = 0, []
    outcome = activities_search(semantic_query="不想去户外，室内玩点什么", limit=10)
    assert outcome["meta"]["path"] == "semantic"
    assert counting_provider.calls == 1
    assert any("户外" in text and "不想" not in text for text in counting_provider.texts)


def test_cues_are_read_once_and_a_refused_cue_is_not_asked_for():
    from activities.search_ranking import candidate_cues
    from activities.understanding import read_query

    rows = [
        _row(1, "酒吧驻唱夜", type="社交", vibes=["热闹"]),
        _row(2, "江边夜跑", type="运动", vibes=["运动"]),
    ]
    plain = candidate_cues(rows, read_query("晚上想出去跑跑步", now=timezone.now(), tz=None))
    assert plain.asked == plain.named  # nothing refused: the same counts, read once
    query = "晚上想出去跑跑步 不去酒吧夜店"
    refusing = candidate_cues(rows, read_query(query, now=timezone.now(), tz=None))
    assert refusing.named[0] > refusing.asked[0]  # the bar names the query, is not asked for
    assert refusing.named[1] == refusing.asked[1]


def test_an_english_cue_under_a_negation_names_nothing():
    from activities.search_ranking import candidate_cues
    from activities.understanding import read_query

    rows = [_row(1, "Family farm day", type="亲子", vibes=["亲子", "户外"])]
    query = "something outdoors, no kids"
    refusing = candidate_cues(rows, read_query(query, now=timezone.now(), tz=None))
    # Only its 户外 vibe counts: the English readers read what is asked ("no kids" names no 亲子).
    assert refusing.named == refusing.asked == (1,)


def test_a_row_holding_only_what_the_query_refuses_does_not_name_it():
    # "night out that isnt a club": the club night holds only the refused word; for the cut
    # and the gate it names nothing of the query, the rows of the wanted outing do.
    from activities.search_ranking import naming_pks
    from activities.understanding import read_query

    query = "night out that isnt a club"
    understood = read_query(query, now=timezone.now(), tz=None)
    rows = [
        _row(1, "Club night with resident DJs", type="nightlife"),
        _row(2, "Comedy night out in the basement", type="comedy"),
    ]
    assert naming_pks(query, rows, understood) == {2}
    understood = read_query("club night out", now=timezone.now(), tz=None)
    assert naming_pks("club night out", rows, understood) == {1, 2}


def test_a_listing_in_the_other_language_than_the_query_is_unread_not_unnamed():
    from activities.search_ranking import other_language_pks, unread_pks
    from activities.understanding import read_query

    rows = [
        _row(1, "Sushi rolling class for beginners", type="Food"),
        _row(2, "周六寿司手作课", type="美食"),
        _row(3, "Livehouse本地乐队专场", type="音乐"),  # Chinese holding Latin
    ]
    assert unread_pks("想学做寿司", rows) == {1}
    # A Latin word could be in a Chinese listing holding Latin: only the one holding none.
    assert unread_pks("sushi class", rows) == {2}
    # A query of no script (digits only) or of no content word reads every listing as usual.
    assert unread_pks("2026", rows) == set()
    assert unread_pks("有什么", rows) == set()
    # The margin's lift still follows the title's language (rag.relevance.CROSS_LIFT).
    chinese = read_query("想学做寿司", now=timezone.now(), tz=None)
    english = read_query("sushi class", now=timezone.now(), tz=None)
    assert other_language_pks(rows, chinese) == {1}
    assert other_language_pks(rows, english) == {2, 3}


def _chinese_catalogue():
    return [
        _row(1, "KTV 欢唱夜", type="娱乐", tags=["唱歌"]),
        _row(2, "周末烘焙课", type="美食", tags=["烘焙"], vibes=["美食"]),
        _row(3, "汉服 cosplay 外拍", type="摄影"),
        _row(4, "温泉spa放松日", type="休闲"),
        _row(5, "老城citywalk｜骑楼", type="户外"),
    ]


@pytest.mark.parametrize("query", ["ktv", "spa", "citywalk", "cosplay"])
def test_a_latin_word_a_chinese_listing_of_the_pool_holds_leaves_none_unread(query):
    # Audit, session 42: a Latin loanword reads as English, and every Chinese listing not
    # naming it was unread. A Chinese listing of the pool holds it: the catalogue writes it,
    # so a Chinese listing without it is beside the point, not unread.
    from activities.search_ranking import unread_pks

    assert unread_pks(query, _chinese_catalogue()) == set()


def test_a_latin_word_no_listing_holds_leaves_only_the_listings_without_latin_unread():
    # "diy": 「KTV 欢唱夜」 holds Latin, so "diy" could be in it (not unread); 「周末烘焙课」
    # holds none, and no Chinese listing of the pool holds the word.
    from activities.search_ranking import unread_pks

    assert unread_pks("diy", _chinese_catalogue()) == {2}


def test_a_chinese_query_reads_an_english_listing_by_its_own_words_not_its_vibes():
    # Audit, session 42: 「脱口秀」 and "Open Mic Night". The lexical evidence reads title, tags
    # and type (not the description): with Chinese tags the listing could hold the word (not
    # unread); with English ones it could not, whatever its description or its vibes (labels
    # of the Chinese lexicon on every listing).
    from activities.search_ranking import unread_pks

    rows = [
        _row(1, "Open Mic Night", type="Comedy", tags=["开放麦"]),
        _row(2, "Open Mic Night", type="Comedy", tags=["comedy"], vibes=["热闹"]),
    ]
    assert unread_pks("脱口秀", rows) == {2}
    # An English-titled listing of the pool holding the word (in its tags) shows that the
    # catalogue writes it: none is unread then.
    rows.append(_row(3, "Stand-up showcase", type="Comedy", tags=["脱口秀", "comedy"]))
    assert unread_pks("脱口秀", rows) == set()


def test_a_mood_read_from_one_activitys_name_names_the_query_but_vouches_for_no_row():
    from activities.search_ranking import candidate_cues, query_evidence
    from activities.understanding import read_query

    rows = [_row(1, "周末飞盘新手局", type="户外", vibes=["运动"])]
    # 攀岩 (one sport) reads the mood 运动: still evidence for the cut and the hybrid's order,
    # but not what the precision gate's exemption reads.
    understood = read_query("攀岩抱石", now=timezone.now(), tz=None)
    cues = candidate_cues(rows, understood)
    assert (cues.named, cues.vouching) == ((1,), (0,))
    assert query_evidence("攀岩抱石", rows, understood)
    # 运动 itself (the field) vouches.
    understood = read_query("想运动一下出出汗", now=timezone.now(), tz=None)
    cues = candidate_cues(rows, understood)
    assert cues.vouching == cues.named == (1,)


def test_the_gate_reads_the_vouching_cues():
    from types import SimpleNamespace

    from activities.search_ranker import asked_cues, pool_of, unlikely, vouching_cues
    from activities.understanding import read_query

    rows = [_row(1, "攀岩体验课"), _row(2, "周末飞盘新手局", type="户外", vibes=["运动"])]
    for row in rows:
        row.description = ""
    hits = [SimpleNamespace(obj=row, score=0.8) for row in rows]
    understood = read_query("攀岩抱石", now=timezone.now(), tz=None)
    pool = pool_of(hits, [0.2, 0.1], named={1, 2}, understood=understood, query="攀岩抱石")
    assert asked_cues(pool) == (0.0, 1.0)  # the cue features read it, as fitted
    assert vouching_cues(pool) == (0.0, 0.0)  # it does not exempt the frisbee row
    assert unlikely(pool, [0, 1], threshold=1.0) == {1}


def test_the_name_of_one_activity_vouches_for_a_row_naming_that_activity():
    from activities.search_ranking import candidate_cues
    from activities.understanding import read_query

    rows = [
        _row(1, "重庆火锅局｜能吃辣的来", type="美食", vibes=["美食"]),
        _row(2, "周末烘焙课", type="美食", vibes=["美食"]),
    ]
    understood = read_query("想吃火锅", now=timezone.now(), tz=None)
    # 火锅 reads the mood 美食: it vouches for the hotpot row, not for every food row.
    assert candidate_cues(rows, understood).vouching == (1, 0)


def test_a_single_character_of_the_lexicon_vouches_for_no_row_holding_it():
    from activities.search_ranking import candidate_cues
    from activities.understanding import read_query

    rows = [_row(1, "沙滩排球约局", type="户外", vibes=["运动"])]
    understood = read_query("打篮球", now=timezone.now(), tz=None)
    assert candidate_cues(rows, understood).vouching == (0,)  # 球 is not 篮球


def _kinded(row, like):
    """Return ``row`` with the cosine of its kind vector to the query, as the search reads it
    (activities.search_kind.read_meta_like)."""
    row.meta_like = like
    return row


def test_a_row_whose_kind_is_like_the_query_rises_above_an_equal_one():
    # Two rows the dense score cannot tell apart, naming nothing of the query: the one whose
    # type and tags (embedded apart) stand close to the query comes first. Cosines as two-axis
    # vectors would give them (the query [1, 0]; kinds [0, 1], [1, 0], the crowd [.5, .5]).
    from activities.search_ranking import hybrid_scores

    query = "something to calm down"
    rows = [
        _kinded(_row(1, "Evening session"), 0.0),
        _kinded(_row(2, "Morning session"), 1.0),
    ]
    crowd, crowd_scores = _crowd(10, 18, 0.80)
    for row in crowd:
        _kinded(row, 0.7071)
    candidates = _hits(rows + crowd, [0.86, 0.86, *crowd_scores])
    fused = hybrid_scores(candidates, query, candidates=candidates, vector=[1.0, 0.0])
    assert fused[2] > fused[1]


def test_a_candidate_without_a_kind_vector_still_ranks_by_the_rest():
    # A row not indexed again since the kind vector was added reads 0 for the feature (the
    # candidates' mean), so it keeps its place by the other features and is never dropped.
    from activities.search_ranking import hybrid_scores

    query = "something to calm down"
    rows = [_row(1, "Evening session"), _kinded(_row(2, "Morning session"), 0.0)]
    crowd, crowd_scores = _crowd(10, 18, 0.80)
    for row in crowd:
        _kinded(row, 0.7071)
    candidates = _hits(rows + crowd, [0.90, 0.80, *crowd_scores])
    with_kinds = hybrid_scores(candidates, query, candidates=candidates, vector=[1.0, 0.0])
    without = hybrid_scores(candidates, query, candidates=candidates)
    assert set(with_kinds) == {hit.obj.pk for hit in candidates}
    assert with_kinds[1] == without[1]  # its own feature is 0: only the others' moved
    assert with_kinds[1] > with_kinds[2]
