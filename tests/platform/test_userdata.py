"""``config.userdata``: finding every model that holds user data, the registry, platform.E010."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import models
from django.test.utils import isolate_apps

from config.checks import check_user_data_declared
from config.userdata import (
    CACHE_KIND,
    Kind,
    UserData,
    covered_models,
    declarations,
    kept,
    register,
    report_keys,
    unregister,
    user_data_count,
    user_data_erase,
    user_data_paths,
)

# Django's and third-party apps hold no user data of ours except these, kept on purpose.
FRAMEWORK_KEPT = {"authtoken.token", "platform.apitoken", "admin.logentry"}


class Isolated(models.Model):
    """Base of the models the tests define in an isolated registry (no table)."""

    class Meta:
        abstract = True
        app_label = "testapp"

    def __str__(self):
        return str(self.pk)


@isolate_apps("tests.testapp")
def test_paths_follow_relations_user_id_columns_and_foreign_key_chains():
    user = settings.AUTH_USER_MODEL

    class Note(Isolated):
        author = models.ForeignKey(user, on_delete=models.CASCADE)

    class Line(Isolated):
        note = models.ForeignKey(Note, on_delete=models.CASCADE)

    class Word(Isolated):
        line = models.ForeignKey(Line, on_delete=models.CASCADE)

    class Ticket(Isolated):
        owner_id = models.IntegerField()  # a user id without a foreign key

    class Room(Isolated):
        members = models.ManyToManyField(user)

    class Plain(Isolated):
        title = models.CharField(max_length=10)
        score = models.IntegerField()

    paths = user_data_paths([Note, Line, Word, Ticket, Room, Plain])

    assert paths == {
        Note: ["author"],
        Line: ["note__author"],
        Word: ["line__note__author"],
        Ticket: ["owner_id"],
        Room: ["members"],
    }


def test_every_installed_model_holding_user_data_is_declared_or_kept():
    paths = user_data_paths()
    labels = {m._meta.label for m in paths}
    # The finder sees the chains, or this test would pass for nothing.
    assert {"writing.ChildChunk", "writing.ParentSegment", "memory.ContextEntry"} <= labels
    covered = covered_models()
    missing = [
        m._meta.label
        for m in apps.get_models()
        if m in paths and m not in covered and m._meta.label_lower not in kept()
    ]
    assert missing == []


def test_only_the_frameworks_models_are_kept():
    assert set(kept()) == FRAMEWORK_KEPT
    project_apps = {d.app_label for d in declarations()}
    assert project_apps == {"activities", "writing", "memory", "agent"}


@isolate_apps("tests.testapp")
def test_e010_names_a_model_with_user_data_that_no_app_declares():
    class Diary(Isolated):
        writer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)

    errors = check_user_data_declared(model_list=[Diary])

    assert [e.id for e in errors] == ["platform.E010"]
    assert errors[0].obj is Diary and "writer" in errors[0].msg


def test_the_installed_apps_pass_e010():
    assert check_user_data_declared() == []


def test_a_kind_name_belongs_to_one_app():
    from memory.models import Preference

    clash = UserData("elsewhere", kinds=(Kind("messages", Preference, Preference.objects.filter),))
    with pytest.raises(ImproperlyConfigured, match="memory"):
        register(clash)
    assert "elsewhere" not in {d.app_label for d in declarations()}


def test_erased_with_must_name_a_kind_of_the_same_app():
    from memory.models import Preference

    bad = UserData(
        "elsewhere",
        kinds=(Kind("notes_x", Preference, Preference.objects.filter, erased_with="nope"),),
    )
    with pytest.raises(ImproperlyConfigured, match="erased_with"):
        register(bad)
    unregister("elsewhere")


@pytest.mark.django_db
def test_a_user_without_data_gets_every_declared_kind_as_zero(user):
    counts = user_data_erase(user=user)

    assert list(counts) == report_keys()
    assert report_keys()[-4:] == [CACHE_KIND, "admin_log_entries", "task_rows", "account"]
    assert {k: n for k, n in counts.items() if n} == {"account": 1}


@pytest.mark.django_db
def test_count_reports_what_erase_removes_and_writes_nothing(user):
    from memory.services import preference_upsert
    from writing.services import book_create

    book_create(user=user, title="计数之书")
    preference_upsert(user=user, category="food", value="不吃辣")

    counted = user_data_count(user=user)

    assert (counted["books"], counted["preferences"]) == (1, 1)
    assert user_data_count(user=user) == counted
    assert user_data_erase(user=user) == counted
