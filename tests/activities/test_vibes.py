"""The vibe lexicon's English half (issue 30, session 41): English listings get vibes, an
English query reads its moods to the same labels, and rows stored without vibes get them."""

from __future__ import annotations

import io
import zoneinfo
from datetime import datetime

import pytest
from django.core.management import call_command

from activities.models import Activity, IndexState
from activities.search_ranking import cue_counts
from activities.services import activity_vibes_fill
from activities.understanding import read_query
from activities.vibes import lexicon_vibes
from activities.vibes_en import english_type_vibes, english_vibes

LONDON = zoneinfo.ZoneInfo("Europe/London")
NOW = datetime(2026, 11, 25, 10, tzinfo=LONDON)


def test_an_english_type_gives_the_vibes_of_its_chinese_twin():
    assert lexicon_vibes(type="Arts & Crafts") == lexicon_vibes(type="手作")
    assert english_type_vibes("arts and crafts") == english_type_vibes("Arts  &  Crafts")
    assert lexicon_vibes(type="Outdoors") == lexicon_vibes(type="户外")
    assert lexicon_vibes(type="Wellbeing") == ["安静"]
    assert lexicon_vibes(type="Pets") == []


def test_english_words_give_vibes_as_whole_words_only():
    assert english_vibes("Candlelit meditation and a quiet tea") == ["安静"]
    # "art" is not in "party", "bar" not in "barbecue", "sup" not in "supper".
    assert "文艺" not in english_vibes("a rooftop party")
    assert "热闹" not in english_vibes("barbecue by the lake")
    assert "玩水" not in english_vibes("a long supper")
    found = lexicon_vibes(
        type="Water",
        title="Sunrise SUP on the harbour",
        description="A small group paddle for beginners.",
        tags=["paddleboarding"],
    )
    assert found[:2] == ["玩水", "运动"]
    assert {"户外", "小局"} <= set(found)


def test_chinese_listings_keep_their_vibes():
    assert lexicon_vibes(type="读书", title="周末读书会", description="安静地读一本书") == [
        "安静",
        "文艺",
    ]
    assert lexicon_vibes(type="Nightlife", title="Jazz night at the bar") == ["热闹", "文艺"]


@pytest.mark.parametrize(
    ("query", "listing"),
    [
        ("a quiet pottery class", {"type": "Arts & Crafts", "title": "Quiet pottery class"}),
        ("somewhere for the kids to swim", {"type": "Family", "title": "Kids swimming session"}),
        ("a lively night out", {"type": "Nightlife", "title": "Live music at the pub"}),
        ("something sporty and outdoorsy", {"type": "Outdoors", "title": "Trail running"}),
    ],
)
def test_an_english_query_reads_the_labels_the_listing_has(query, listing):
    moods = set(read_query(query, now=NOW, tz=LONDON).mood_labels())
    assert moods
    assert moods <= set(lexicon_vibes(**listing))


@pytest.mark.parametrize("query", ["running club", "coffee tasting", "go kayaking"])
def test_the_name_of_one_activity_reads_no_mood(query):
    # Read as a mood it would vouch for every sporty (arty, ...) row past the precision gate.
    assert read_query(query, now=NOW, tz=LONDON).mood_labels() == []


def test_an_english_mood_query_names_an_english_listing():
    quiet = Activity(type="Wellbeing", title="Gentle yoga", description="A calm, slow class.")
    loud = Activity(type="Nightlife", title="Club night", description="DJs till late.")
    for activity in (quiet, loud):
        activity.vibes = lexicon_vibes(
            type=activity.type, title=activity.title, description=activity.description
        )
    understood = read_query("somewhere quiet and calm", now=NOW, tz=LONDON)
    counts = cue_counts([quiet, loud], understood)
    assert counts[0] > 0
    assert counts[1] == 0


SHANGHAI = zoneinfo.ZoneInfo("Asia/Shanghai")


@pytest.mark.parametrize("query", ["一个人在南京好孤单", "feeling a bit lonely lately"])
def test_loneliness_asks_for_company_in_both_languages(query):
    # The Chinese of "lonely" reads as the English always did: a lonely person asks for people.
    assert "社交" in read_query(query, now=NOW, tz=SHANGHAI).mood_labels()


def test_alone_and_wanting_no_talk_still_reads_quiet():
    # 一个人 is the "solo" of the English side: without loneliness it still asks for quiet.
    assert read_query("一个人也能参加、不用跟人聊天", now=NOW, tz=SHANGHAI).mood_labels() == [
        "安静"
    ]


@pytest.mark.django_db
def test_fill_gives_vibes_to_rows_stored_without_any(make_activity):
    english = make_activity(
        title="Sunday park run", description="5k around the park.", type="Sports", tags=[]
    )
    chosen = make_activity(title="Board games", description="Catan.", type="Games", tags=[])
    nothing = make_activity(title="Dog walkers", description="Bring a lead.", type="Pets", tags=[])
    # As stored before the English lexicon (and one set by hand, which stays).
    Activity.objects.filter(pk__in=[english.pk, nothing.pk]).update(
        vibes=[], index_state=IndexState.INDEXED
    )
    Activity.objects.filter(pk=chosen.pk).update(vibes=["安静"])

    assert activity_vibes_fill(dry_run=True) == 1
    assert Activity.objects.get(pk=english.pk).vibes == []

    assert activity_vibes_fill() == 1
    english.refresh_from_db()
    assert english.vibes == lexicon_vibes(
        type="Sports", title="Sunday park run", description="5k around the park."
    )
    assert english.index_state == IndexState.PENDING  # the vibes are part of the embedded text
    assert Activity.objects.get(pk=chosen.pk).vibes == ["安静"]
    assert Activity.objects.get(pk=nothing.pk).vibes == []
    assert activity_vibes_fill() == 0  # safe to run twice


@pytest.mark.django_db
def test_fill_command_reports_what_it_did(make_activity):
    row = make_activity(title="Quiet reading hour", description="Bring a book.", type="Learning")
    Activity.objects.filter(pk=row.pk).update(vibes=[])
    out = io.StringIO()
    call_command("activities_fill_vibes", "--dry-run", stdout=out)
    assert "would give vibes to 1 activities" in out.getvalue()
    out = io.StringIO()
    call_command("activities_fill_vibes", stdout=out)
    assert "gave vibes to 1 activities" in out.getvalue()
    assert Activity.objects.get(pk=row.pk).vibes


@pytest.mark.parametrize(
    "query", ["天一冷人就蔫巴了 想提提神", "下午犯困 没精神", "feeling sluggish, need to perk up"]
)
def test_low_energy_asks_for_something_active(query):
    # Session 44: listless or drowsy wants waking up, not the quiet rows tiredness reads near.
    assert "运动" in read_query(query, now=NOW, tz=SHANGHAI).mood_labels()
