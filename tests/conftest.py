"""Fixtures shared by every test: the clock, users, API clients, live settings."""

from __future__ import annotations

import json
import subprocess
import warnings
import zoneinfo
from datetime import datetime
from pathlib import Path

import pytest
import time_machine
from django.test import override_settings
from rest_framework.test import APIClient

from tests import schema_cache, vector_cache
from tests.shared_rows import create_user

# Every test runs at this instant (a Wednesday morning in the service's time zone), the clock
# ticking from there: what a search, a retention sweep or a demo load does depends on the day
# of the week and the date, and a suite must pass whatever day CI runs it. A test about another
# day moves the clock itself (``clock.move_to(...)``) or passes ``now=``.
FIXED_NOW = datetime(2026, 11, 25, 10, 0, tzinfo=zoneinfo.ZoneInfo("Asia/Shanghai"))


# What django_db_keepdb below did with the saved schema, for django_db_setup below: the dump
# (None when the cache is not used), whether the test database was restored from it, and the
# database's own name before the test database took its place.
SAVED_SCHEMA = pytest.StashKey[tuple[Path | None, bool, str]]()


@pytest.fixture(scope="session")
def django_db_keepdb(
    request,
    django_db_keepdb,
    django_db_createdb,
    django_db_use_migrations,
    django_db_modify_db_settings,
    django_db_blocker,
):
    """Keep the test database pytest-django keeps, and one restored from the saved schema.

    Restore it here, before pytest-django's ``django_db_setup`` (which asks this fixture) sets
    up the databases: told to keep the database, Django's ``create_test_db`` then finds it and
    runs ``migrate``, which has nothing to apply and still sends ``post_migrate``. Without a
    dump (tests/schema_cache.py) the database is migrated as usual and ``django_db_setup``
    below saves it. ``--reuse-db``, ``--create-db``, ``--nomigrations`` and ``TEST_DB_CACHE=off``
    leave pytest-django's own behaviour alone.
    """
    from django.db import connection

    cached = (
        django_db_use_migrations
        and not django_db_keepdb
        and not django_db_createdb
        and schema_cache.enabled()
    )
    dump = schema_cache.path() if cached else None
    restored = False
    if dump is not None and dump.exists():
        with django_db_blocker.unblock():
            try:
                schema_cache.restore(connection, dump)
                restored = True
            except (OSError, subprocess.CalledProcessError) as exc:
                # A broken or vanished dump: migrate as without one.
                request.node.warn(pytest.PytestWarning(f"schema cache not restored: {exc!r}"))
    request.config.stash[SAVED_SCHEMA] = (dump, restored, connection.settings_dict["NAME"])
    return django_db_keepdb or restored


@pytest.fixture(scope="session")
def django_db_setup(request, django_db_setup, django_db_keepdb, django_db_blocker):
    """Set up the test databases as pytest-django does, and save a migrated schema for later.

    pytest-django's fixture creates (or, restored by ``django_db_keepdb`` above, keeps) and
    migrates the test database; a database it migrated is dumped for the next session, and a
    restored one is dropped at the end, as pytest-django drops those it does not keep.
    """
    from django.db import connection

    dump, restored, name = request.config.stash[SAVED_SCHEMA]
    if dump is not None and not restored:
        with django_db_blocker.unblock():
            try:
                schema_cache.save(connection, dump)
            except (OSError, subprocess.CalledProcessError) as exc:
                # Only the next run's speed depends on it.
                request.node.warn(pytest.PytestWarning(f"schema cache not saved: {exc!r}"))
    yield
    if restored:
        with django_db_blocker.unblock():
            try:
                connection.creation.destroy_test_db(
                    name, verbosity=request.config.getoption("verbose")
                )
            except Exception as exc:  # noqa: BLE001 - as pytest-django's own teardown: warn
                request.node.warn(
                    pytest.PytestWarning(f"Error when trying to teardown test databases: {exc!r}")
                )


@pytest.fixture(autouse=True)
def clock(request):
    """Run the test at :data:`FIXED_NOW` (ticking); yield the traveller, or None.

    Tests marked ``real_clock`` keep the machine's clock: they start the service in other
    processes (web servers, workers, a replica), whose clock a test process cannot move, and
    must not depend on the day themselves.
    """
    if request.node.get_closest_marker("real_clock"):
        yield None
        return
    with time_machine.travel(FIXED_NOW, tick=True) as traveller:
        yield traveller


@pytest.fixture(autouse=True)
def _fresh_live_settings():
    """Forget the process-wide cached live settings between tests (each test has its own DB)."""
    from config import live

    live.invalidate()
    yield
    live.invalidate()


@pytest.fixture(scope="session")
def real_embedding_provider():
    """Return the configured real embedding provider, built once a session (loaded at first use)."""
    from django.conf import settings as django_settings

    from rag.providers.embedding import build_embedding_provider

    provider = build_embedding_provider(django_settings.REAL_RAG_EMBEDDING)
    yield provider
    provider.close()


@pytest.fixture(scope="session")
def cached_embedding_provider(real_embedding_provider):
    """Return the real provider behind the vectors it gave in earlier runs (tests/vector_cache.py).

    The real provider itself when the cache is off (under CI, or ``TEST_VECTOR_CACHE=off``).
    """
    if not vector_cache.enabled():
        yield real_embedding_provider
        return
    provider = vector_cache.CachedEmbeddingProvider(
        real_embedding_provider, vector_cache.path(real_embedding_provider)
    )
    yield provider
    try:
        provider.save()
    except OSError as exc:
        # Only the next run's speed depends on it.
        warnings.warn(f"vector cache not saved: {exc!r}", stacklevel=1)


@pytest.fixture(autouse=True)
def _embedding_model(request, monkeypatch):
    """Give tests marked ``real_model`` the real embedding model; others keep the stand-in.

    ``config.settings_test`` selects a deterministic stand-in (tests/fakes/hashing_embedder.py)
    for tests that need some vector but no meaning; relevance and quality tests are marked.
    The real provider is built once a session, and swapped in without a settings change: that
    would empty the process's vector LRU, and every test would embed its fixtures again. Its
    vectors of earlier runs answer from tests/vector_cache.py (not under CI); a test marked
    ``real_model(cache=False)`` gets the provider itself, the model run in this process.
    """
    marker = request.node.get_closest_marker("real_model")
    if marker:
        from rag import embeddings

        fixture = (
            "cached_embedding_provider"
            if marker.kwargs.get("cache", True)
            else "real_embedding_provider"
        )
        monkeypatch.setattr(embeddings, "_provider", request.getfixturevalue(fixture))
    yield


@pytest.fixture(autouse=True)
def _fresh_embedding_breaker():
    """Start every test with a closed embedding circuit breaker (its state is per process)."""
    from rag import embeddings

    embeddings._breaker = None
    yield
    embeddings._breaker = None


@pytest.fixture
def make_user(db):
    """Return a factory that creates a user (optionally staff) with an API token.

    The token's key is only stored hashed: the user carries it as ``user.api_key``.

    A staff user is a service user unless ``act_for_any_user=False``: it holds the
    ``memory.act_for_any_user`` permission, as ``manage.py issue_token NAME --staff`` grants
    (tests/shared_rows.py, ``create_user``).
    """
    return create_user


@pytest.fixture
def user(make_user):
    """A normal user with a token."""
    return make_user("alice")


@pytest.fixture
def other_user(make_user):
    """A second normal user, to check that data stays private."""
    return make_user("bob")


@pytest.fixture
def staff_user(make_user):
    """A staff (service) user with a token, allowed to act for any user."""
    return make_user("service", staff=True)


def _client_for(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {user.api_key}")
    return client


@pytest.fixture
def api_client(user):
    """An API client authenticated as ``user`` by token."""
    return _client_for(user)


@pytest.fixture
def other_client(other_user):
    """An API client authenticated as ``other_user``."""
    return _client_for(other_user)


@pytest.fixture
def staff_client(staff_user):
    """An API client authenticated as the staff user."""
    return _client_for(staff_user)


@pytest.fixture
def anon_client():
    """An API client with no credentials."""
    return APIClient()


@pytest.fixture
def live_settings(db):
    """The engine's live settings row; change fields and call ``.save()`` in a test."""
    from rag.selectors import rag_settings_get

    row = rag_settings_get()
    row.save()  # a read never writes: the row, with its defaults
    return row


@pytest.fixture
def post_live_settings(admin_client):
    """Return ``post(row, **changes)``: save a live settings row through its admin page.

    Every field of the page is sent with the row's values, ``changes`` applied; the response is
    returned (a redirect when saved, the page with its errors when not).
    """
    from django.contrib import admin
    from django.contrib.admin.utils import flatten_fieldsets
    from django.urls import reverse

    def post(row, **changes):
        model_admin = admin.site.get_model_admin(type(row))
        data = {"_save": "Save"}
        for name in flatten_fieldsets(model_admin.get_fieldsets(None, row)):
            value = changes.get(name, getattr(row, name))
            if isinstance(value, dict | list):  # JSON fields
                data[name] = json.dumps(value)
            elif value is True:
                data[name] = "on"
            elif value is not False:  # an unchecked box is not sent
                data[name] = str(value)
        opts = row._meta
        url = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[row.pk])
        return admin_client.post(url, data)

    return post


@pytest.fixture
def activity_settings(db):
    """The activities app's live settings row; change fields and call ``.save()`` in a test."""
    from activities.selectors import activity_settings_get

    row = activity_settings_get()
    row.save()  # a read never writes: the row, with its defaults
    return row


@pytest.fixture
def memory_settings(db):
    """The memory app's live settings row; change fields and call ``.save()`` in a test."""
    from memory.selectors import memory_settings_get

    row = memory_settings_get()
    row.save()  # a read never writes: the row, with its defaults
    return row


@pytest.fixture
def writing_settings(db):
    """The writing app's live settings row; change fields and call ``.save()`` in a test."""
    from writing.selectors import writing_settings_get

    row = writing_settings_get()
    row.save()  # a read never writes: the row, with its defaults
    return row


@pytest.fixture
def agent_settings(db):
    """The agent's live settings row (its triggers); change fields and ``.save()`` in a test."""
    from agent.selectors import agent_settings_get

    row = agent_settings_get()
    row.save()  # a read never writes: the row, with its defaults
    return row


@pytest.fixture
def fake_llm():
    """A fake OpenAI-protocol server that ``rag.llm.get_llm()`` talks to during the test.

    Script answers with ``fake_llm.chat_script.append({"content": ...})``; the cached LLM
    provider is reset on entry and exit so no other test sees it.
    """
    from rag.llm import reset_llm
    from tests.fakes.openai_server import FakeOpenAIServer

    with FakeOpenAIServer() as server:
        config = {
            "PROVIDER": "openai",
            "BASE_URL": server.base_url,
            "API_KEY": "sk-test",
            "MODEL": "fake",
            "TIMEOUT": 5,
            "MAX_RETRIES": 0,
        }
        reset_llm()
        with override_settings(RAG_LLM=config):
            yield server
        reset_llm()


@pytest.fixture
def cold_lru():
    """Empty the process-wide embedding LRU, as in a fresh process.

    Texts embedded by earlier tests stay in that LRU while their database cache rows were
    rolled back; a hit in it never writes a row, so tests about cache rows start cold.
    """
    from rag import embeddings

    embeddings._lru.clear()
    yield


@pytest.fixture
def provider_outage(monkeypatch):
    """Return ``start()``: from then on the embedding provider fails, like a hosted one down.

    The failing provider keeps the real model's name and size, so stored vectors still count;
    the process LRU is emptied so no query is answered from it. ``start()`` returns the list
    of texts the provider was asked for.
    """
    from rag import embeddings
    from rag.providers.embedding import EmbeddingProvider, ProviderError

    def start() -> list[str]:
        real = embeddings.get_provider()
        asked: list[str] = []

        class DownProvider(EmbeddingProvider):
            name = "down"
            model = real.model
            dimensions = real.dimensions

            def embed(self, texts, role="passage"):
                asked.extend(texts)
                raise ProviderError("down: connection refused", provider="down", retryable=True)

        monkeypatch.setattr(embeddings, "_provider", DownProvider())
        embeddings._lru.clear()
        return asked

    yield start
    embeddings._lru.clear()
