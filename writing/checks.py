"""System checks of the writing app, one id per configuration rule."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, register


@register("writing")
def check_debounce_worker_wait(app_configs=None, **kwargs):
    """writing.E001: the in-worker debounce wait must be a number of seconds, 0 or more."""
    wait = getattr(settings, "WRITING_DEBOUNCE_WORKER_WAIT", None)
    if not isinstance(wait, int | float) or wait < 0:
        return [
            Error(
                f"WRITING_DEBOUNCE_WORKER_WAIT is {wait!r}; it must be 0 or more seconds.",
                hint="Set the WRITING_DEBOUNCE_WORKER_WAIT environment variable "
                "(0 leaves debounced chunking to the django-q2 scheduler).",
                id="writing.E001",
            )
        ]
    timeout = settings.Q_CLUSTER.get("timeout") or 0
    if timeout and wait >= timeout:
        return [
            Error(
                f"WRITING_DEBOUNCE_WORKER_WAIT ({wait}) must be shorter than Q_TIMEOUT "
                f"({timeout}): a waiting task would be killed.",
                hint="Lower WRITING_DEBOUNCE_WORKER_WAIT or raise Q_TIMEOUT.",
                id="writing.E002",
            )
        ]
    return []
