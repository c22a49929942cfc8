"""Rate limits of the API, counted in the shared cache (docs/SECURITY.md, "Rate limits").

Three throttles run on every API view (``DEFAULT_THROTTLE_CLASSES``): a user's requests in all
(``user``), an anonymous client's (``anon``, by address), and the expensive operations each on
its own scope (``search``, ``chat``, ``stream``, ``export``; ``API_THROTTLE_OPERATIONS`` names
the views). The counts live in Django's default cache, which every process shares (the
database, or Redis with ``CACHE_URL``), so a limit holds across processes and restarts.

An anonymous client is its address: ``REMOTE_ADDR``, or what ``X-Forwarded-For`` says only
when the request came from a proxy listed in ``DJANGO_TRUSTED_PROXIES``.
"""

from __future__ import annotations

import ipaddress
import logging

from django.conf import settings
from django.db import DatabaseError
from redis.exceptions import RedisError
from rest_framework import throttling
from rest_framework.settings import api_settings

logger = logging.getLogger(__name__)

# What a cache that cannot be reached raises: the request is then not throttled (and fails on
# its own if it needs the same database).
CACHE_FAULTS = (DatabaseError, RedisError, OSError)


def _address(value: str):
    try:
        return ipaddress.ip_address(value.strip())
    except ValueError:
        return None


def _trusted(address) -> bool:
    return address is not None and any(address in net for net in settings.TRUSTED_PROXIES)


def client_ip(request) -> str:
    """Return the client's address: the peer, or the last hop before the trusted proxies.

    Walk ``X-Forwarded-For`` from the right, starting at the peer (``REMOTE_ADDR``): while the
    address at hand is a trusted proxy, the hop it appended is believed. The first address not
    trusted is the client; what a client wrote further left is never read.
    """
    peer = request.META.get("REMOTE_ADDR", "") or ""
    current = _address(peer)
    if not _trusted(current):
        return peer
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    for hop in reversed([h for h in forwarded.split(",") if h.strip()]):
        previous = _address(hop)
        if previous is None:  # garbage a proxy passed on: stop at the last good address
            break
        current = previous
        if not _trusted(current):
            break
    return str(current)


class SharedCacheThrottle(throttling.SimpleRateThrottle):
    """Read rates when asked (tests and settings overrides), identify clients by client_ip."""

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_ident(self, request):
        return client_ip(request)

    def allow_request(self, request, view):
        try:
            return super().allow_request(request, view)
        except CACHE_FAULTS as exc:
            logger.warning("throttle cache unavailable, request not throttled: %s", exc)
            return True


class UserRateThrottle(SharedCacheThrottle, throttling.UserRateThrottle):
    """All requests of a user (``user``); anonymous ones by client address."""


class AnonRateThrottle(SharedCacheThrottle, throttling.AnonRateThrottle):
    """All requests of an anonymous client address (``anon``)."""


def operation_scope(request, view) -> str | None:
    """Return the view's ``throttle_scope``, or its URL name's in ``API_THROTTLE_OPERATIONS``."""
    scope = getattr(view, "throttle_scope", None)
    if scope:
        return scope
    match = getattr(request, "resolver_match", None)
    return settings.API_THROTTLE_OPERATIONS.get(match.url_name) if match else None


class OperationRateThrottle(SharedCacheThrottle):
    """One expensive operation's requests per user (or client address), on its own scope."""

    def __init__(self):
        pass  # the scope is the view's: known in allow_request

    def allow_request(self, request, view):
        self.scope = operation_scope(request, view)
        if not self.scope:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_cache_key(self, request, view):
        user = request.user
        ident = user.pk if user and user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}
