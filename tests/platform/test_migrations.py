"""Migrations from an empty database, repeated, and rolled back (subprocesses, fresh databases)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tests.testapp.server import connect, fresh_database, manage

pytestmark = [pytest.mark.real_clock, pytest.mark.slow]


@pytest.fixture(scope="module")
def migrated_db():
    """A fresh database on the test server, migrated once; yield (name, first migrate result)."""
    with fresh_database("migrated") as name:
        yield name, manage(name, "migrate", "--noinput")


def _extensions(dbname: str) -> set[str]:
    with connect(dbname) as conn:
        return {row[0] for row in conn.execute("SELECT extname FROM pg_extension")}


def test_migrate_on_an_empty_database_succeeds(migrated_db):
    _name, result = migrated_db
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Applying rag.0001_initial... OK" in result.stdout


def test_migrate_creates_the_vector_and_trgm_extensions(migrated_db):
    name, _result = migrated_db
    assert {"vector", "pg_trgm"} <= _extensions(name)


def test_migrate_twice_is_a_no_op(migrated_db):
    name, _result = migrated_db
    again = manage(name, "migrate", "--noinput")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "No migrations to apply." in again.stdout, again.stdout
    assert "Applying" not in again.stdout


@pytest.mark.django_db
@pytest.mark.parametrize("app_label", ["rag", "activities", "memory", "writing", "agent"])
def test_project_models_have_no_pending_migrations(app_label):
    call_command("makemigrations", app_label, "--check", "--dry-run", stdout=StringIO())


def test_migrate_rag_zero_then_migrate_restores_every_table(migrated_db):
    name, _result = migrated_db
    down = manage(name, "migrate", "rag", "zero", "--noinput")
    assert down.returncode == 0, down.stdout + down.stderr
    assert _rag_tables(name) == set()
    up = manage(name, "migrate", "--noinput")
    assert up.returncode == 0, up.stdout + up.stderr
    assert _rag_tables(name) == {
        "rag_ragsettings",
        "rag_embeddingcache",
        "rag_workerheartbeat",
        "rag_write_mark",  # raw SQL (config.replicas)
    }


def _rag_tables(dbname: str) -> set[str]:
    with connect(dbname) as conn:
        rows = conn.execute("SELECT tablename FROM pg_tables WHERE tablename LIKE 'rag\\_%'")
        return {row[0] for row in rows}
