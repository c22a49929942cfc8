"""A specific activity asked for by name that no candidate offers: nothing of that kind here."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.db.models import F

from activities.models import Activity
from activities.named_kinds import NAMED_KINDS, absent_kind, kinds_named, names, offering
from activities.search import activities_search
from activities.search_relevance import ABSENT_NOTE, ABSENT_REASON
from activities.selectors import activities_naming_kinds


def _row(title: str, description: str = "", tags=(), type_: str = "") -> SimpleNamespace:
    return SimpleNamespace(
        title=title,
        description=description,
        tags=list(tags),
        type=type_,
        vibes=[],
        location_name="",
    )


SWIM = _row("Beginner swim lessons at the lido", "Learn front crawl in the outdoor pool.")
SNOW = _row("Snowshoe walk in the pass", "Rent shoes at the lodge.")


def test_a_query_naming_a_kind_no_candidate_offers_is_read_as_absent():
    assert absent_kind("surfing lessons", [SWIM, SNOW]) == "surfing"
    assert absent_kind("哪里可以滑雪", [SWIM, SNOW]) == "skiing"


def test_a_kind_said_as_a_verb_of_doing_it_names_the_kind():
    # Session 47: "paintballing" had named nothing (every form had to be listed).
    assert [k.label for k in kinds_named("paintballing with the lads")] == ["paintball"]
    assert absent_kind("paintballing with the lads", [SWIM, SNOW]) == "paintball"


def test_a_naming_word_whose_doing_form_is_another_verb_names_nothing():
    assert kinds_named("improving my english") == ()


def test_a_candidate_saying_the_doing_form_offers_the_kind():
    assert absent_kind("paintball", [_row("Paintballing in the woods")]) is None


def test_a_food_outing_named_in_english_is_offered_by_a_chinese_tea_house():
    # Eating out is a kind: "dim sum" asks for one, and a 早茶 listing is one.
    tea_house = _row("西关早茶局｜一盅两件", "老茶楼里饮早茶，虾饺烧卖")
    assert [k.label for k in kinds_named("dim sum breakfast this sunday")] == ["eating out"]
    assert absent_kind("dim sum breakfast this sunday", [SWIM, tea_house]) is None
    assert absent_kind("dim sum", [SWIM, SNOW]) == "eating out"
    assert not kinds_named("recipe for shepherd's pie")


def test_a_spirits_tasting_asked_in_chinese_is_offered_by_an_english_distillery():
    # 威士忌 names a kind (session 44): the request is for something to do, and an English
    # whisky tasting or gin distillery offers it.
    whisky = _row("Whisky tasting on the Royal Mile", "Five drams, with a guide.")
    gin = _row("Gin distillery tour in Leith")
    assert [k.label for k in kinds_named("爱丁堡有没有威士忌品鉴")] == ["spirits tasting"]
    assert absent_kind("爱丁堡有没有威士忌品鉴", [SWIM, whisky]) is None
    assert absent_kind("有没有金酒酒厂参观", [SWIM, gin]) is None
    assert absent_kind("威士忌品鉴", [SWIM, SNOW]) == "spirits tasting"
    # The English names only offer it: an English query naming whisky keeps the beer and
    # cocktail rows beside it (no kind asked, nothing of another kind dropped).
    assert not kinds_named("whiskey tasting")


def test_skiing_towed_on_water_is_no_skiing():
    # A cable ski park offers wakeboarding, not the snow skiing asked for (session 42).
    cable = _row("Wakeboarding taster at the cable ski park", "Get pulled round the lake.")
    assert absent_kind("where got snow skiing in singapore this december", [cable]) == "skiing"
    assert absent_kind("wakeboarding", [cable]) is None
    assert absent_kind("ski trip", [_row("Ski trip to the mountains")]) is None


def test_skiing_towed_on_water_is_no_skiing_however_it_is_spelt():
    # Hyphenated (session 42 audit): "cable-ski", "water-skiing", "jet-ski" are water sports,
    # in a candidate and in a query.
    skiing = next(k for k in NAMED_KINDS if k.label == "skiing")
    assert not names("cable-ski park", skiing, also_held=True)
    assert not names("water-skiing lessons", skiing, also_held=True)
    assert names("ski-resort weekend", skiing, also_held=True)
    cable = _row("Wakeboarding at the cable-ski park", "Get pulled round the lake.")
    assert absent_kind("where got snow skiing in singapore this december", [cable]) == "skiing"
    assert [k.label for k in kinds_named("water-skiing lessons")] == ["water skiing"]
    assert [k.label for k in kinds_named("jet-ski hire")] == ["water skiing"]


def test_a_water_park_slide_asks_for_no_water_skiing():
    # 滑水道 / 滑水梯 are slides; 滑水 alone is still water skiing (session 42 audit).
    assert not kinds_named("水上乐园滑水道")
    assert not kinds_named("滑水梯")
    assert [k.label for k in kinds_named("想去滑水")] == ["water skiing"]
    assert absent_kind("水上乐园滑水道", [SWIM, SNOW]) is None


def test_a_kind_any_candidate_offers_is_left_to_the_ranking():
    ski = _row("Cross-country ski intro", tags=["snow"])
    assert absent_kind("where can I go skiing", [SWIM, ski]) is None


def test_a_kind_is_found_in_the_candidates_in_the_other_language():
    ski = _row("Weekend ski trip for beginners")
    assert absent_kind("周末想去滑雪", [SWIM, ski]) is None
    assert absent_kind("skiing this weekend", [_row("滑雪初体验", "室内雪场")]) is None


def test_one_named_kind_offered_is_enough_to_answer():
    assert absent_kind("skiing or swimming", [SWIM, SNOW]) is None


def test_a_query_naming_no_kind_is_never_absent():
    assert absent_kind("something chill this weekend", [SWIM]) is None
    assert not kinds_named("周末放松一下")


def test_a_refused_kind_is_not_asked_for():
    assert [k.label for k in kinds_named("不想游泳，想去冲浪")] == ["surfing"]
    assert not kinds_named("not skiing, something indoors")


def test_a_hot_air_balloon_flight_names_its_kind_and_balloons_alone_do_not():
    # Session 56: the craft names the flight; a parade's balloons or balloon twisting do not.
    assert [k.label for k in kinds_named("hot air balloon ride over the valley")] == [
        "hot-air ballooning"
    ]
    assert not kinds_named("balloon twisting for kids")
    assert not kinds_named("the parade with the giant balloons")


def test_a_listing_with_balloons_keeps_a_balloon_flight_answered():
    fiesta = _row("Balloon fiesta at dawn", "Watch the balloons go up over the river.")
    assert absent_kind("hot air balloon ride", [SWIM, fiesta]) is None
    assert absent_kind("hot air balloon ride", [SWIM, SNOW]) == "hot-air ballooning"


def test_words_with_an_everyday_meaning_do_not_name_a_kind():
    assert not kinds_named("are the trains running on boxing day")
    assert not kinds_named("a dive bar with a pool table")


@pytest.mark.django_db
@pytest.mark.real_model
@pytest.mark.parametrize("query", ["想去滑雪", "where can I go skiing", "archery lessons"])
def test_a_search_for_a_kind_no_listing_is_answers_nothing_and_says_so(demo_activities, query):
    # Nobody lists the kind at all (session 44): the city has none, and the closest rows are
    # something else entirely.
    outcome = activities_search(semantic_query=query, limit=10)
    assert outcome["results"] == []
    assert outcome["meta"]["reason"] == ABSENT_REASON
    assert outcome["meta"]["relevance"]["offTopic"] is True
    assert outcome["meta"]["relevance"]["absent"]


@pytest.mark.django_db
@pytest.mark.real_model
@pytest.mark.parametrize("query", ["想去滑雪", "where can I go skiing"])
def test_a_kind_listed_but_not_joinable_shows_the_closest_and_says_so(demo_activities, query):
    # Not off-topic: the city lists skiing (this one is full), so the person asked for
    # something to do that is there at other times, and the closest rows may serve; the answer
    # says that none of them is the kind asked for.
    full = Activity.objects.order_by("pk").first()
    Activity.objects.filter(pk=full.pk).update(
        title="Ski trip for beginners", current_participants=F("max_participants")
    )
    outcome = activities_search(semantic_query=query, limit=10)
    assert outcome["results"]
    assert outcome["meta"]["reason"] == ABSENT_NOTE
    assert outcome["meta"]["relevance"]["offTopic"] is False
    assert outcome["meta"]["relevance"]["absent"] == "skiing"


@pytest.mark.django_db
def test_the_listings_naming_a_kind_are_found_however_its_words_are_joined(demo_activities):
    skiing = next(k for k in NAMED_KINDS if k.label == "skiing")
    first = Activity.objects.order_by("pk").first()
    assert not activities_naming_kinds(kinds=[skiing])
    Activity.objects.filter(pk=first.pk).update(description="Cross-country ski-resort weekend")
    assert [a.pk for a in activities_naming_kinds(kinds=[skiing])] == [first.pk]


@pytest.mark.django_db
@pytest.mark.real_model
@pytest.mark.parametrize("query", ["去划船", "攀岩", "yoga and meditation"])
def test_a_search_for_a_kind_the_city_has_is_answered(demo_activities, query):
    outcome = activities_search(semantic_query=query, limit=10)
    assert outcome["results"]
    assert outcome["meta"]["reason"] is None
    assert outcome["meta"]["relevance"]["absent"] is None


def test_an_alternative_naming_no_kind_leaves_the_request_open():
    # Hot springs *or* a forest: the forest rows answer it, whatever the hot springs.
    assert absent_kind("泡温泉或者去森林里放松", [_row("森林步道徒步")]) is None
    assert absent_kind("hot springs or a walk in the woods", [SWIM]) is None
    assert absent_kind("skiing or snowboarding", [SWIM]) == "skiing"


@pytest.mark.django_db
@pytest.mark.real_model
@pytest.mark.parametrize("query", ["攀岩", "rock climbing", "surfing lessons"])
def test_after_the_first_hit_a_search_for_a_kind_shows_that_kind_or_a_cue_of_the_query(
    demo_activities, query
):
    from django.utils import timezone

    from activities.named_kinds import offering
    from activities.search_ranking import cue_counts
    from activities.understanding import read_query, user_zone

    outcome = activities_search(semantic_query=query, limit=10)
    rows = [demo_activities[r["title"]] for r in outcome["results"]]
    understood = read_query(query, now=timezone.now(), tz=user_zone(None))
    of_kind = offering(query, rows)
    cues = cue_counts(rows, understood, negated=False)
    assert rows and any(of_kind)
    assert all(kind or cue for kind, cue in zip(of_kind[1:], cues[1:], strict=True))


@pytest.mark.django_db
@pytest.mark.real_model
@pytest.mark.parametrize("query", ["hey how are you", "你叫什么名字呀"])
def test_small_talk_answers_nothing(demo_activities, query):
    from rag.relevance import QUESTION_REASON

    outcome = activities_search(semantic_query=query, limit=10)
    assert outcome["results"] == []
    assert outcome["meta"]["reason"] == QUESTION_REASON


@pytest.mark.django_db
@pytest.mark.real_model
def test_a_chinese_query_is_told_in_chinese_that_nothing_shown_is_of_its_kind(
    api_client, demo_activities
):
    from django.utils import translation
    from django.utils.translation import gettext

    full = Activity.objects.order_by("pk").first()
    Activity.objects.filter(pk=full.pk).update(
        title="滑雪初体验", current_participants=F("max_participants")
    )
    response = api_client.post(
        "/rag/search", {"semanticQuery": "想去滑雪", "limit": 10}, format="json"
    )
    body = response.json()
    assert response.status_code == 200 and body["results"]
    with translation.override("zh-hans"):
        assert body["meta"]["reason"] == gettext(ABSENT_NOTE) != ABSENT_NOTE


@pytest.mark.django_db
@pytest.mark.real_model
def test_a_chinese_query_is_told_in_chinese_that_nobody_lists_its_kind(api_client, demo_activities):
    from django.utils import translation
    from django.utils.translation import gettext

    response = api_client.post(
        "/rag/search", {"semanticQuery": "想去滑雪", "limit": 10}, format="json"
    )
    body = response.json()
    assert response.status_code == 200 and body["results"] == []
    with translation.override("zh-hans"):
        assert body["meta"]["reason"] == gettext(ABSENT_REASON) != ABSENT_REASON


def test_a_setting_named_and_offered_by_no_candidate_is_absent_whatever_else_is():
    # A water park tags its wave machine 冲浪: surfing is offered, the seaside is not, and the
    # request is for surfing at the seaside (session 43).
    wave_machine = _row(
        "冬天玩水｜融创水世界冲浪机", "玩冲浪机、漂流河和滑道", ["水上乐园", "冲浪"]
    )
    assert absent_kind("哈尔滨能赶海吗 想去海边冲浪", [wave_machine, SWIM]) == "beach"
    assert absent_kind("想去冲浪", [wave_machine, SWIM]) is None
    assert absent_kind("赶海", [SWIM, SNOW]) == "beach"
    shore = _row("Rock pooling at low tide", "Look for crabs on the beach.")
    assert absent_kind("beach this weekend, keen for a swim", [shore, SWIM]) is None
    # Two kinds side by side that are no setting still need only one offered.
    assert absent_kind("hot springs n sauna", [_row("Sauna night", "wood-fired sauna")]) is None


# A verb and its object said apart (separable words, session 48): 「钓鲫鱼」 offers 钓鱼.
RESERVOIR = _row("水库边坐一上午", "带上小马扎，在水库边钓鲫鱼，饵料自带。")
COMEDY = _row("北京路喜剧之夜", "开放麦，五个新人每人十分钟。")


def test_a_candidate_saying_a_chinese_kind_with_its_object_qualified_offers_it():
    assert absent_kind("周末想去钓鱼", [RESERVOIR, SWIM]) is None
    assert offering("周末想去钓鱼", [RESERVOIR, SWIM]) == (True, False)


def test_a_kind_s_two_characters_further_apart_do_not_name_it():
    # 「北京路喜剧」 holds 京 and 剧 two characters apart: a comedy night, no Peking opera.
    assert absent_kind("想看京剧", [COMEDY, SWIM]) == "theatre"


def test_a_query_does_not_read_a_kind_said_apart():
    # Only a candidate's text reads a kind apart; the query names what it names.
    assert kinds_named("去水库钓鲫鱼") == ()


@pytest.mark.django_db
def test_a_listing_saying_a_kind_apart_is_found_among_the_city_s_listings(demo_activities):
    fishing = next(k for k in NAMED_KINDS if k.label == "fishing")
    first = Activity.objects.order_by("pk").first()
    assert not activities_naming_kinds(kinds=[fishing])
    Activity.objects.filter(pk=first.pk).update(description=RESERVOIR.description)
    assert [a.pk for a in activities_naming_kinds(kinds=[fishing])] == [first.pk]
