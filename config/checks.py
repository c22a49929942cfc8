"""System checks of the platform settings (rate limits, stream caps), one id per rule."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Info, Tags, Warning, register
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

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
