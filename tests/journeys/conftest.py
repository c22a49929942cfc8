"""The journey service: one ``manage.py serve`` for every journey of the session.

Started once (its cost paid once): a fresh embedded PostgreSQL data dir, ``migrate``, users
with tokens, then ``manage.py serve`` as ``make run`` starts it, with gunicorn web processes,
the real django-q2 clusters (interactive, bulk, webhooks) and their schedules: tasks run in
the workers, never inside the request (no ``Q_SYNC``). Journeys drive it over real HTTP and
wait for what the workers do (``journey_service.wait_until``). At the end of the session it is
stopped as Ctrl-C stops it, and the embedded database must have stopped with it.

Each journey acts as users of its own (``JOURNEY_USERS``), so that what one journey writes
(preferences, ratings, months of chat) never changes what another one finds.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from tests.platform.live_service import ServeService, ServiceDatabase

# alice/bob: the writer and the returning user; carol/dave: shared contexts; erin/frank:
# feedback; gina/hank: recommendations; ivy: the REST and MCP consumer; june/kyle: recall
# after retention; lena/mike: preferences read back over REST and MCP; nora/owen: reminders;
# pia/quin: organisers; rosa: the dinners the returning users are offered; sami/tara: a chat
# user who changes plans, and the organiser of what they join.
JOURNEY_USERS = (
    "alice",
    "bob",
    "carol",
    "dave",
    "erin",
    "frank",
    "gina",
    "hank",
    "ivy",
    "june",
    "kyle",
    "lena",
    "mike",
    "nora",
    "owen",
    "pia",
    "quin",
    "rosa",
    "sami",
    "tara",
)
STAFF = "ops"  # a staff user: the service token, and a password for the staff pages
# The months of chat the returning-user journey inserts leave the workers busy for a while
# (unembedded rows): it runs last, so no other journey waits behind that work.
LAST = ("test_returning_user.py",)


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: item.path.name in LAST)


@pytest.fixture(scope="session")
def journey_service():
    """``manage.py serve`` on a database of its own; stopped (with its database) at the end.

    Not under pytest's tmp dir: another pytest session starting meanwhile resets that dir to
    0700, and the server runs as the ``pgserver`` user when tests run as root.
    """
    from config import embedded_db

    root = Path(tempfile.mkdtemp(prefix="semmem-journeys-"))
    data_dir = root / "pgdata"
    service = None
    try:
        db = ServiceDatabase(data_dir, users=JOURNEY_USERS, staff=(STAFF,)).create()
        env = {
            "SEARCH_TIME_BUDGET_SECONDS": "60",
            # Journeys run offline: a webhook the docs register (https://example.com/...) is
            # accepted without a name lookup (its deliveries fail, unresolved, in the worker).
            "WEBHOOK_ALLOW_PRIVATE_TARGETS": "1",
        }
        service = ServeService(db, env=env).start()
        yield service
        code = service.stop()
        service = None
        assert code == 0, "serve did not stop cleanly on SIGINT"
        # serve stops the embedded PostgreSQL it ran on: nothing is left to stop here.
        assert embedded_db.stop(data_dir) is False, "the embedded PostgreSQL outlived serve"
    finally:
        if service is not None:
            service.stop()
        embedded_db.stop(data_dir)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def service(journey_service):
    """The journey service (a journey module may override this to add its own data)."""
    return journey_service
