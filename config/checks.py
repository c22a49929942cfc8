"""System checks of the platform settings (rate limits, stream caps, queues, the bounded stop,
user data, input limits, replicas), one id per rule."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Info, Tags, Warning, register
from django_q import VERSION as DJANGO_Q2_VERSION
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from config.queues import QUEUES, cluster_config
from config.userdata import undeclared
from config.worker import CHECKED_DJANGO_Q2, bounded_stop_checked

PROCESS_LOCAL_CACHES = (
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
)


@register("platform")
def check_throttle_rates(app_configs=None, **kwargs):
    """platform.E001: every throttle scope has a rate DRF can read."""
    rates = api_settings.DEFAULT_THROTTLE_RATES
    scopes = {"user", "anon", *settings.API_THROTTLE_OPERATIONS.values()}
    errors = []
    for scope in sorted(scopes):
        rate = rates.get(scope)
        try:
            SimpleRateThrottle.parse_rate(None, rate)
            parsed = rate is not None
        except (ValueError, KeyError, IndexError):
            parsed = False
        if not parsed:
            errors.append(
                Error(
                    f"The throttle scope {scope!r} has no usable rate (got {rate!r}).",
                    hint=f"Set API_THROTTLE_{scope.upper()} to N/sec, N/min, N/hour or N/day.",
                    id="platform.E001",
                )
            )
    return errors


@register("platform")
def check_stream_caps(app_configs=None, **kwargs):
    """platform.E002: the caps on streaming responses allow at least one and end in time."""
    errors = []
    for name in ("STREAM_MAX_PER_USER", "STREAM_MAX_TOTAL"):
        if getattr(settings, name) < 1:
            errors.append(
                Error(f"{name} must be at least 1.", hint=f"Set {name}.", id="platform.E002")
            )
    for name in ("EXPORT_MAX_SECONDS", "CHAT_STREAM_MAX_SECONDS"):
        if not getattr(settings, name) > 0:
            errors.append(
                Error(f"{name} must be above 0.", hint=f"Set {name}.", id="platform.E002")
            )
    return errors


@register("platform", Tags.security, deploy=True)
def check_shared_cache(app_configs=None, **kwargs):
    """platform.W001: throttle counts live in a cache every process shares."""
    backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    if backend in PROCESS_LOCAL_CACHES:
        return [
            Warning(
                f"The default cache ({backend}) is per process: rate limits reset with each "
                "process and do not add up across processes.",
                hint="Leave CACHES to the settings (database cache) or set CACHE_URL (Redis).",
                id="platform.W001",
            )
        ]
    return []


@register("platform", Tags.security, deploy=True)
def check_trusted_proxies(app_configs=None, **kwargs):
    """platform.I001: behind a proxy without DJANGO_TRUSTED_PROXIES, clients share its bucket."""
    if settings.BEHIND_TLS and not settings.TRUSTED_PROXIES:
        return [
            Info(
                "DJANGO_BEHIND_TLS is on but DJANGO_TRUSTED_PROXIES is empty: anonymous rate "
                "limits count the proxy's address, so every anonymous client shares one bucket.",
                hint="Set DJANGO_TRUSTED_PROXIES to the proxy's address or network.",
                id="platform.I001",
            )
        ]
    return []


@register("platform")
def check_user_data_declared(app_configs=None, model_list=None, **kwargs):
    """platform.E010: every model holding a user's data is declared in ``config.userdata``."""
    return [
        Error(
            f"{model._meta.label} holds a user's data (through {', '.join(lookups[:3])}) but no "
            "app declares it, so erasing a user would leave it behind.",
            hint="Add a config.userdata.Kind for it to the app's UserData declaration (registered "
            "in AppConfig.ready), or config.userdata.keep() it with the reason.",
            obj=model,
            id="platform.E010",
        )
        for model, lookups in undeclared(model_list).items()
    ]


@register("platform")
def check_task_settings(app_configs=None, **kwargs):
    """platform.E007: the queue redelivers only after a task can have ended; lost rows re-queue.

    ``Q_RETRY`` must exceed ``Q_TIMEOUT`` (else a running task is handed to a second worker),
    and ``TASKS_PENDING_STALE_SECONDS`` must be positive (the reconciler's wait, config.work).
    """
    cluster = getattr(settings, "Q_CLUSTER", {}) or {}
    timeout, retry = cluster.get("timeout"), cluster.get("retry")
    errors = []
    if timeout and retry and retry <= timeout:
        errors.append(
            Error(
                f"Q_RETRY ({retry}) must exceed Q_TIMEOUT ({timeout}).",
                hint="A task still running when its lock expires is delivered to a second worker.",
                id="platform.E007",
            )
        )
    stale = getattr(settings, "TASKS_PENDING_STALE_SECONDS", None)
    if not isinstance(stale, int) or stale <= 0:
        errors.append(
            Error(
                f"TASKS_PENDING_STALE_SECONDS is {stale!r}; it must be a positive number "
                "of seconds.",
                hint="Set the TASKS_PENDING_STALE_SECONDS environment variable.",
                id="platform.E007",
            )
        )
    return errors


@register("platform")
def check_queues(app_configs=None, **kwargs):
    """platform.E012-E013: each queue has workers; a worker can stop within the 10 s bound."""
    errors = []
    for queue in QUEUES:
        workers = cluster_config(queue).get("workers")
        if not isinstance(workers, int) or workers < 1:
            errors.append(
                Error(
                    f"The {queue!r} queue has no workers ({workers!r}).",
                    hint=f"Set Q_WORKERS_{queue.upper()} to 1 or more.",
                    id="platform.E012",
                )
            )
    stop = settings.Q_STOP_TIMEOUT
    if not 2 <= stop <= 8:
        errors.append(
            Error(
                f"Q_STOP_TIMEOUT is {stop}; a worker must stop within 10 s of SIGTERM.",
                hint="Set Q_STOP_TIMEOUT between 2 and 8 seconds (serve adds 2 s before it kills).",
                id="platform.E013",
            )
        )
    return errors


@register("platform")
def check_bounded_stop(app_configs=None, **kwargs):
    """platform.W003: the installed django-q2 is a release config/worker.py's stop fits."""
    if bounded_stop_checked():
        return []
    checked = ", ".join(".".join(map(str, v)) for v in sorted(CHECKED_DJANGO_Q2))
    installed = ".".join(map(str, DJANGO_Q2_VERSION))
    return [
        Warning(
            f"django-q2 {installed} is not a release the bounded stop was "
            f"checked against ({checked}): workers stop with django-q2's own sequence, which "
            "waits without a bound for prefetched and running tasks.",
            hint="Read config/worker.py against the new django_q/cluster.py Sentinel, run "
            "tests/rag/test_worker.py and tests/platform/test_worker_faults.py, then add the "
            "release to config.worker.CHECKED_DJANGO_Q2.",
            id="platform.W003",
        )
    ]


@register("platform")
def check_input_limits(app_configs=None, **kwargs):
    """platform.E020-E021: the input limits (README, "Input limits") are usable numbers."""
    errors = []
    query_max = getattr(settings, "RAG_QUERY_MAX_CHARS", None)
    if not isinstance(query_max, int) or query_max < 1:
        errors.append(
            Error(
                "RAG_QUERY_MAX_CHARS must be a positive whole number (the longest query text).",
                hint="Unset it for the default, 2000.",
                id="platform.E020",
            )
        )
    body_max = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if body_max is None or not isinstance(body_max, int) or body_max < 1024:
        errors.append(
            Error(
                "DATA_UPLOAD_MAX_MEMORY_SIZE must be a whole number of bytes >= 1024: every "
                "request body is bounded (413 PAYLOAD_TOO_LARGE above it).",
                hint="Unset it for Django's default, 2621440 (2.5 MB).",
                id="platform.E021",
            )
        )
    return errors


@register("platform")
def check_replicas(app_configs=None, **kwargs):
    """platform.E080-E082: read replicas are PostgreSQL, not the primary, with usable timeouts."""
    errors = []
    primary = settings.DATABASES["default"]
    where = (primary.get("HOST"), primary.get("PORT"), primary.get("NAME"))
    for alias in getattr(settings, "REPLICA_DATABASES", []):
        replica = settings.DATABASES.get(alias, {})
        if replica.get("ENGINE") != "django.db.backends.postgresql":
            errors.append(
                Error(
                    f"{alias} is not a PostgreSQL database.",
                    hint="Set DATABASE_REPLICA_URLS to postgresql:// URLs of streaming "
                    "replicas of DATABASE_URL.",
                    id="platform.E080",
                )
            )
        elif (replica.get("HOST"), replica.get("PORT"), replica.get("NAME")) == where:
            errors.append(
                Error(
                    f"{alias} is the primary itself.",
                    hint="DATABASE_REPLICA_URLS lists replicas only; the primary is DATABASE_URL.",
                    id="platform.E081",
                )
            )
    timeout = settings.REPLICA_CONNECT_TIMEOUT
    retry = settings.REPLICA_RETRY_SECONDS
    if not isinstance(timeout, int) or not 1 <= timeout <= 60 or not 0 <= retry <= 3600:
        errors.append(
            Error(
                "REPLICA_CONNECT_TIMEOUT must be 1-60 seconds and REPLICA_RETRY_SECONDS 0-3600.",
                hint="Unset them for the defaults, 2 and 30.",
                id="platform.E082",
            )
        )
    return errors
