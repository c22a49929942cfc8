"""Test settings: a private embedded PostgreSQL per test run unless DATABASE_URL is set."""

import os
import tempfile

from config import embedded_db

# The local embedding model's OpenMP threads spin while they wait; on a CPU shared by several
# test processes that makes it several times slower. libgomp reads this once, at model load.
os.environ.setdefault("GOMP_SPINCOUNT", "10000")

if not os.environ.get("DATABASE_URL"):
    # A throw-away server per pytest process keeps concurrent runs (and CI) apart.
    # Made only when none is given (setdefault would make one and leave it empty).
    if not os.environ.get("EMBEDDED_DB_DIR"):
        os.environ["EMBEDDED_DB_DIR"] = tempfile.mkdtemp(prefix="semmem-test-pg-")
    os.environ.setdefault("EMBEDDED_DB_CLEANUP", "delete")
    # PostgreSQL's own default: a throw-away server needs no restart for a bigger cache.
    os.environ.setdefault("EMBEDDED_DB_SHARED_BUFFERS", "128MB")

# Production settings require a key; the tests sign with this one (children inherit it).
os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-key-" + "x" * 50)
# The test session's explicit start of its server (pytest-django loads these settings before any
# conftest runs); config.settings itself starts nothing.
embedded_db.ensure_started()

from config.settings import *  # noqa: E402,F403
from config.settings import Q_CLUSTER, REST_FRAMEWORK  # noqa: E402

Q_CLUSTER = {**Q_CLUSTER, "sync": True}
REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    # Limits no test reaches but those of the limits themselves (tests/platform/test_throttling.py).
    "DEFAULT_THROTTLE_RATES": dict.fromkeys(REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "100000/min"),
}
# The suite shares two cores with other processes: a query embedding that is merely slow there
# must not turn a test's search into a degraded one. Tests of the budget set their own.
SEARCH_TIME_BUDGET_SECONDS = float(os.environ.get("TEST_SEARCH_TIME_BUDGET_SECONDS", "60"))
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# A test-only app (a model extending rag.models.Embedded, test views); no migrations: syncdb.
INSTALLED_APPS = [*INSTALLED_APPS, "tests.testapp"]  # noqa: F405
# An events stream holds its connection this long at most: the fuzzer calls it many times.
EVENTS_STREAM_MAX_SECONDS = float(os.environ.get("TEST_EVENTS_STREAM_MAX_SECONDS", "1"))
# WhiteNoise warns on every test client when STATIC_ROOT is missing (a fresh clone has not run
# collectstatic yet): 678 warnings a run that hid the ones that matter. It is gitignored.
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # noqa: F405
# Webhook receivers of the tests listen on 127.0.0.1 over plain http; the SSRF tests turn these
# off again.
WEBHOOK_ALLOW_HTTP = True
WEBHOOK_ALLOW_PRIVATE_TARGETS = True
# Tests leave many streaming responses unread (their slots held until the connection closes):
# the caps are tested on their own (tests/platform/test_stream_caps.py).
STREAM_MAX_PER_USER = 10_000
STREAM_MAX_TOTAL = 10_000
# Tests that only need some vector (API, validation, admin, tasks) get a deterministic stand-in
# that loads no model (tests/fakes/hashing_embedder.py); tests marked `real_model` (relevance,
# quality, the provider itself) get the configured real model back (tests/conftest.py).
# TEST_EMBEDDING=real runs every test with the real model.
REAL_RAG_EMBEDDING = RAG_EMBEDDING  # noqa: F405
if os.environ.get("TEST_EMBEDDING", "stand-in") == "stand-in":
    RAG_EMBEDDING = {
        **REAL_RAG_EMBEDDING,
        "PROVIDER": "tests.fakes.hashing_embedder.HashingEmbeddingProvider",
        "MODEL": None,
    }
