"""serving.E070-E072: the web server of ``manage.py serve`` can start and stop within bounds."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, register

from serving.bounds import STOP_MARGIN_SECONDS


@register("serving")
def check_serving(app_configs=None, **kwargs):
    """Refuse web settings gunicorn cannot run, or that would make a stop unbounded."""
    errors = []
    for name in ("WEB_PROCESSES", "WEB_THREADS"):
        value = getattr(settings, name, None)
        if not isinstance(value, int) or not 1 <= value <= 256:
            errors.append(
                Error(
                    f"{name} must be a whole number from 1 to 256 (it is {value!r}).",
                    hint="docs/SERVING.md: defaults 2 processes x 16 threads.",
                    id="serving.E070",
                )
            )
    age = getattr(settings, "WEB_CONN_MAX_AGE", None)
    if not isinstance(age, int) or age < 0:
        errors.append(
            Error(
                "WEB_CONN_MAX_AGE must be 0 (close after each request) or more seconds.",
                id="serving.E071",
            )
        )
    graceful = getattr(settings, "WEB_GRACEFUL_TIMEOUT", None)
    limit = settings.Q_STOP_TIMEOUT + STOP_MARGIN_SECONDS
    if not isinstance(graceful, int) or not 0 <= graceful <= limit:
        errors.append(
            Error(
                f"WEB_GRACEFUL_TIMEOUT must be between 0 and {limit:g} seconds: serve stops the "
                "worker clusters after gunicorn, so a stop takes up to both bounds.",
                id="serving.E072",
            )
        )
    return errors
