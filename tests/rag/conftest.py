"""Fixtures of the rag tests: real worker processes on the test database."""

from __future__ import annotations

import os

import pytest

from rag.providers.local import OPENMP_SPIN_COUNT


@pytest.fixture
def worker_env(transactional_db, settings, monkeypatch):
    """Environment for a real ``qcluster``/``serve`` child on this test's database.

    Committed rows are visible to the child (``transactional_db``), django-q2 in this process
    really enqueues instead of running tasks inline, and the child signs with the same key.
    """
    from django.db import connection
    from django_q.conf import Conf

    monkeypatch.setattr(Conf, "SYNC", False)
    db = connection.settings_dict
    url = f"postgresql://{db['USER']}:{db['PASSWORD'] or ''}@/{db['NAME']}?host={db['HOST']}"
    if db.get("PORT"):
        url += f"&port={db['PORT']}"
    env = {k: v for k, v in os.environ.items() if k not in {"EMBEDDED_DB_CLEANUP"}}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=url,
        DJANGO_SECRET_KEY=settings.SECRET_KEY,
        DJANGO_LANGUAGE_CODE="en-us",
        PYTHONUNBUFFERED="1",
        Q_POLL="0.2",
        GOMP_SPINCOUNT=OPENMP_SPIN_COUNT,
    )
    return env
