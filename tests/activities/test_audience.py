"""Who a query is for and whom a listing says it is for (activities.audience)."""

from types import SimpleNamespace

import pytest

from activities.audience import (
    asked,
    audience_counts,
    interest_stated,
    outing_for,
    refused,
    serves_others,
    stated,
    stated_for,
)


def row(title, type_, tags=(), description=""):
    return SimpleNamespace(title=title, type=type_, tags=list(tags), description=description)


def test_asked_reads_older_people_children_and_pets_in_both_languages():
    assert asked("带奶奶出去转转") == {"older"}
    assert asked("stuff for my 80 year old grandad") == {"older"}
    assert asked("my gran is 80 and likes company") == {"older"}
    assert asked("她七十多了，有什么能去的") == {"older"}
    assert asked("带四岁的娃去哪") == {"children"}
    assert asked("anything for a 3 year old") == {"children"}
    assert asked("能带狗狗一起去的") == {"pets"}
    assert asked("想学陶艺") == frozenset()


def test_words_that_only_look_like_an_audience_name_none():
    assert asked("played guitar for 10 years, want a jam") == frozenset()
    assert asked("a table for over 10 people") == frozenset()
    assert asked("公司附近午休能去的") == frozenset()
    assert asked("想找个特别适合老人的") == {"older"}  # 特别 is no negation
    assert stated("Gluten-free bakes, feel free to bring a friend") == frozenset()
    assert stated("大熊猫科普讲座") == frozenset()
    assert "beginners" in stated("No experience needed")
    assert "beginners" in asked("never tried climbing")


def test_an_audience_under_a_negation_is_refused_not_asked():
    assert asked("volunteering without kids") == frozenset()
    assert refused("volunteering without kids") == {"children"}


def test_stated_reads_type_tags_and_description_and_an_adults_only_exclusion():
    tai_chi = row("晨练太极", "长者", ["太极", "老年人"])
    story = row("Story time", "Family", ["books"], "Picture books for 3- to 5-year-olds.")
    bar = row("Cocktail crawl", "Nightlife", ["bar"], "Four bars, one drink each. 18+, no kids.")
    assert "older" in stated(f"{tai_chi.title} {tai_chi.type} {' '.join(tai_chi.tags)}")
    assert audience_counts([tai_chi, story, bar], "带我妈出去走走") == [1, 0, 0]
    assert audience_counts([tai_chi, story, bar], "something for a 4 year old") == [0, 1, 0]


def test_where_someone_of_an_age_or_body_can_go_is_an_outing_for_them():
    # Age and legs say who the person is; 能去啥 asks where they can go (session 44).
    assert outing_for("我妈六十多了 腿脚不利索 能去啥") == {"older", "accessible"}
    assert outing_for("things to do with an 8 year old") == {"children"}
    assert outing_for("where can I take my grandad, he's in a wheelchair") == {
        "older",
        "accessible",
    }


def test_health_talk_or_shopping_naming_someone_is_no_outing():
    # Naming the person is not enough: the query must ask where to go or what to do.
    assert outing_for("我妈腿脚不利索 吃什么药好") == frozenset()
    assert outing_for("小孩发烧38度要去医院吗") == frozenset()
    assert outing_for("我爸腿脚不好 去哪个医院看") == frozenset()  # where to go, for care
    assert outing_for("where can I take my mum to see a doctor") == frozenset()
    # A budget is not who one is ("cheap" shops as often as it goes out).
    assert outing_for("哪儿能去买便宜的羽绒服") == frozenset()


def test_a_volunteering_listing_is_not_for_whom_it_serves():
    # The older neighbour visited and the families packed for are who it serves (session 45).
    visit = row(
        "Befriending volunteers", "Volunteering", ["older people"], "Visit an older person."
    )
    pack = row("食物银行分拣志愿", "公益", ["分拣"], "分拣打包，送给有需要的家庭。")
    tea = row("Tea dance", "Seniors", ["older people"], "Helped by patient volunteers.")
    assert serves_others(visit) and serves_others(pack) and not serves_others(tea)
    assert stated_for(visit) == frozenset() and stated_for(pack) == frozenset()
    assert stated_for(tea) == {"older"}
    assert audience_counts([visit, tea], "things for retired people") == [0, 1]
    assert audience_counts([pack], "带孩子去哪玩") == [0]


def test_a_volunteering_listing_still_involves_whom_it_serves_when_refused():
    tutor = row("Tutor kids with reading", "Volunteering", ["kids"], "Read with children.")
    assert audience_counts([tutor], "volunteering that doesnt involve kids", negated=True) == [1]


def test_a_pupil_is_a_child_not_a_student_on_a_budget():
    # 学生 inside 小学生 is the longer word's (session 45, fresh11).
    assert asked("适合小学生的科普活动") == {"children"}
    assert asked("给初中生找点课外活动") == {"children"}
    assert asked("穷学生周末去哪") == {"students"}


def test_a_bored_or_restless_pet_or_child_asks_for_an_outing():
    assert outing_for("my dog is bored lol") == {"pets"}
    assert outing_for("有狗狗友好的活动吗 我家柯基闲不住") == {"pets"}
    assert outing_for("my dog is bored, which vet is open") == frozenset()
    # Boredom alone names nobody to take out.
    assert outing_for("bored at home, want to get out") == frozenset()


@pytest.mark.parametrize(
    ("query", "persons"),
    [
        ("train mad 6 year old", {"children"}),
        ("horse-mad daughter", {"children"}),
        ("my 12 yr old is crazy about dinosaurs", {"children"}),
        ("我儿子是个火车迷 六岁", {"children"}),
        ("我爸就爱听戏", {"older"}),
    ],
)
def test_what_someone_loves_said_of_them_asks_for_an_outing(query, persons):
    # Session 54: fresh24's "train mad 6 year old" read past the intent gate, answered empty.
    assert outing_for(query) == persons


@pytest.mark.parametrize(
    "query",
    [
        "my son is so mad at me",
        "my kid drives me mad",
        "my son ran into a wall",
        "孩子迷路了",
        "宝宝很可爱",
        "孩子沉迷手机",
    ],
)
def test_anger_a_collision_or_a_worry_states_no_interest(query):
    assert not interest_stated(query)


@pytest.mark.parametrize(
    "query",
    [
        "my toddler loves bananas, how many a day",
        "my dog loves chewing shoes how to stop him",
        "my son likes to bite other kids, what do i do",
        "孩子喜欢咬人怎么办",
        "my son likes to bite other kids, any tips",
        "女儿爱哭有什么办法",
    ],
)
def test_advice_asked_beside_what_someone_loves_is_no_outing(query):
    assert outing_for(query) == frozenset()


def test_what_to_do_with_someone_who_loves_a_thing_is_still_an_outing():
    assert outing_for("what do i do with a train-mad 6 year old this weekend") == {"children"}


def test_a_loved_thing_with_care_asked_is_no_outing():
    assert outing_for("my dog loves the vet, which one is open sunday") == frozenset()


def test_a_condition_named_like_restlessness_asks_for_no_outing():
    from activities.audience import outing_for

    assert not outing_for("my mum has restless legs at night")
    assert outing_for("my mum is restless at home")


def test_a_teenager_is_read_apart_from_a_child():
    assert asked("something for my teenager") == {"teens"}
    assert asked("my 15 year old likes coding") == {"teens"}
    assert asked("my daughter is 13 and bored") == {"teens"}
    assert asked("my daughter is 7 and bored") == {"children"}
    assert asked("the venue is 10 minutes from the station") == frozenset()
    assert "teens" in stated("Coding club for teens, ages 13+")
    assert "teens" not in stated("Toddler music, for under-fives")


def test_queer_people_are_an_audience_a_listing_states():
    assert asked("gay friendly bar") == {"queer"}
    assert "queer" in stated("LGBTQ+ picnic in the park")
    assert stated("Learn the Gay Gordons at a ceilidh") == frozenset()


def test_a_newcomer_is_read_from_knowing_nobody_or_being_new_to_the_city():
    assert asked("new to the city, looking to meet ppl") == {"newcomers"}
    assert asked("dont know anyone here") == {"newcomers"}


def test_a_walking_aid_names_access_needs():
    assert "accessible" in asked("my uncle uses a walking stick")


@pytest.mark.parametrize("query", ["we are 4 adults looking for dinner", "I'm a keen walker"])
def test_a_group_size_or_a_walker_of_trails_asks_for_no_audience(query):
    assert asked(query) == frozenset()


def test_free_ones_ask_for_no_charge_and_a_bare_free_does_not():
    assert asked("周六 带孩子 free ones") == {"children", "students"}
    assert asked("anything free this weekend") == {"students"}
    assert asked("gluten free bakery class") == frozenset()
    assert asked("I'm free this weekend") == frozenset()


@pytest.mark.parametrize("query", ["孩子不喜欢出门", "my son doesn't like crowds, he loves trains"])
def test_a_liking_denied_states_no_interest(query):
    assert not interest_stated(query)


@pytest.mark.parametrize(
    "query",
    [
        "what should we do with our dinosaur mad 5yo this weekend",
        "my daughter loves horses how far is the nearest pony club",
        "kids love bugs, why not a bug walk",
    ],
)
def test_a_fact_of_the_outing_asked_is_no_advice(query):
    assert interest_stated(query)
