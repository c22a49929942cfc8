"""The stated-preferences registry: readers registered by apps, read by personalisation."""

from __future__ import annotations

import pytest

from rag import preferences
from rag.preferences import StatedPreference, stated_preferences

pytestmark = pytest.mark.django_db


@pytest.fixture
def extra_reader():
    """Register a reader under a test name; unregister it afterwards."""
    added = []

    def add(reader):
        preferences.register_reader("test", reader)
        added.append("test")

    yield add
    for name in added:
        preferences._readers.pop(name, None)


def test_memory_registers_the_users_newest_preferences_first(user, other_user):
    from memory.services import preference_upsert

    # Two that do not contradict each other (安静 would retire 热闹: memory.stance).
    preference_upsert(user=user, category="food", value="火锅")
    preference_upsert(user=user, category="vibe", value="安静")
    preference_upsert(user=other_user, category="food", value="不吃辣")
    assert stated_preferences(user) == [
        StatedPreference("vibe", "安静"),
        StatedPreference("food", "火锅"),
    ]


def test_a_failing_reader_is_skipped(user, extra_reader):
    from memory.services import preference_upsert

    preference_upsert(user=user, category="vibe", value="安静")

    def broken(user, limit):
        raise RuntimeError("store down")

    extra_reader(broken)
    assert stated_preferences(user) == [StatedPreference("vibe", "安静")]


def test_anonymous_users_have_no_stated_preferences():
    from django.contrib.auth.models import AnonymousUser

    assert stated_preferences(AnonymousUser()) == []
