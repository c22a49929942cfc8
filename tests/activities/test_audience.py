"""Who a query is for and whom a listing says it is for (activities.audience)."""

from types import SimpleNamespace

from activities.audience import asked, audience_counts, outing_for, refused, stated


def row(title, type_, tags=(), description=""):
    return SimpleNamespace(title=title, type=type_, tags=list(tags), description=description)


def test_asked_reads_older_people_children_and_pets_in_both_languages():
    assert asked("带奶奶出去转转") == {"older"}
    assert asked("stuff for my 80 year old grandad") == {"older"}
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
