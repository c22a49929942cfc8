"""Live settings rows (config.live): one row per app, cached per process, dropped on save."""

from __future__ import annotations

import pytest
from django.apps import apps

from activities.models import ActivitySettings
from config import live
from memory.models import MemorySettings
from rag.models import RagSettings
from writing.models import WritingSettings

pytestmark = pytest.mark.django_db


def test_saving_keeps_a_single_row():
    WritingSettings(debounce_seconds=5.0).save()
    WritingSettings(debounce_seconds=7.0).save()
    assert list(WritingSettings.objects.values_list("pk", "debounce_seconds")) == [(1, 7.0)]


def test_a_read_before_the_first_save_gives_the_defaults_and_writes_nothing():
    row = live.read(MemorySettings)
    assert (row.pk, row.retention_days) == (1, 90)
    assert not MemorySettings.objects.exists()
    row.retention_days = 30
    row.save()
    assert list(MemorySettings.objects.values_list("pk", "retention_days")) == [(1, 30)]


def test_a_save_drops_only_its_own_models_cached_row(django_assert_num_queries):
    live.read(ActivitySettings), live.read(RagSettings)
    ActivitySettings(personal_boost_max=0.1).save()
    with django_assert_num_queries(1):  # the saved model's row; the engine's is still cached
        assert live.read(ActivitySettings).personal_boost_max == 0.1
        live.read(RagSettings)


def test_cached_row_expires_after_the_ttl(monkeypatch):
    RagSettings().save()
    assert live.read(RagSettings).ef_search == 200
    RagSettings.objects.filter(pk=1).update(ef_search=64)  # another process saved, no signal
    assert live.read(RagSettings).ef_search == 200
    now = live.time.monotonic()
    monkeypatch.setattr(live.time, "monotonic", lambda: now + live.TTL_SECONDS + 0.1)
    assert live.read(RagSettings).ef_search == 64


def test_copy_row_without_a_source_row_writes_nothing():
    live.copy_row(apps, "rag.RagSettings", "writing.WritingSettings", ["debounce_seconds"])
    assert not WritingSettings.objects.exists()
