"""``rag.db.ensure_extensions`` with a role that is not a superuser."""

from __future__ import annotations

import uuid

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connections
from django.db.backends.postgresql.base import DatabaseWrapper

from rag.db import ensure_extensions
from tests.testapp.server import connect, fresh_database, manage


@pytest.fixture
def limited_role():
    """A LOGIN role that is not a superuser; dropped afterwards."""
    role = f"limited_{uuid.uuid4().hex[:8]}"
    with connect() as conn:
        conn.execute(f'CREATE ROLE "{role}" LOGIN NOSUPERUSER')
    yield role
    with connect() as conn:
        conn.execute(f'DROP ROLE IF EXISTS "{role}"')


@pytest.fixture
def limited_db(limited_role):
    """A fresh database without extensions, owned by ``limited_role``; yield its name."""
    with fresh_database("noext", owner=limited_role) as name:
        yield name


@pytest.fixture
def limited_connection(limited_role, limited_db, django_db_blocker):
    """A Django connection (not registered in ``connections``) to ``limited_db`` as the role."""
    settings_dict = {
        **connections["default"].settings_dict,
        "NAME": limited_db,
        "USER": limited_role,
        "PASSWORD": "",
    }
    wrapper = DatabaseWrapper(settings_dict, alias=f"limited-{limited_role}")
    with django_db_blocker.unblock():  # a database of its own, not the test database
        yield wrapper
        wrapper.close()


def test_missing_vector_extension_error_says_what_a_superuser_must_run(limited_connection):
    with pytest.raises(ImproperlyConfigured) as caught:
        ensure_extensions(limited_connection)
    assert "CREATE EXTENSION IF NOT EXISTS vector" in str(caught.value)


def test_missing_extension_error_names_the_database(limited_connection, limited_db):
    with pytest.raises(ImproperlyConfigured, match=limited_db):
        ensure_extensions(limited_connection)


def test_limited_role_passes_once_a_superuser_created_vector(limited_connection, limited_db):
    with connect(limited_db) as conn:
        conn.execute("CREATE EXTENSION vector")
    ensure_extensions(limited_connection)  # pg_trgm is trusted: the owner may create it
    with connect(limited_db) as conn:
        names = {row[0] for row in conn.execute("SELECT extname FROM pg_extension")}
    assert {"vector", "pg_trgm"} <= names


@pytest.mark.slow
def test_migrate_as_limited_role_stops_with_the_statement_to_run(limited_role, limited_db):
    result = manage(
        limited_db, "migrate", "--noinput", env={"DATABASE_URL": _url(limited_db, limited_role)}
    )
    assert result.returncode != 0
    assert "CREATE EXTENSION IF NOT EXISTS vector" in result.stderr


def _url(dbname: str, role: str) -> str:
    from tests.testapp.server import database_url

    return database_url(dbname, user=role)
