"""Brute-force protection for password logins (the admin and the staff pages).

After ``LOGIN_FAILURE_LIMIT`` failed logins for one account name, or four times as many from
one client address (``config.throttling.client_ip``, so forwarded headers count only from
trusted proxies), every password login for that name or address fails for
``LOGIN_LOCKOUT_SECONDS``, the right password included. The counts live in the shared cache
(CACHES), so every process sees them. The login form keeps its one generic message, so a
lockout tells an attacker nothing about the account. API tokens are not passwords and are not
counted here (they are throttled per scope, config/throttling.py).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver

from config.throttling import client_ip

# A shared address (an office, a NAT) gets this many times an account's allowance.
ADDRESS_FACTOR = 4


def _name_key(username: str) -> str:
    """Return the cache key counting one account name's failures (case and spaces ignored)."""
    return f"login-failures:name:{username.strip().lower()}"


def _keys(request, username: str | None) -> list[tuple[str, int]]:
    """Return the cache keys counting failures for this login, each with its limit."""
    limit = settings.LOGIN_FAILURE_LIMIT
    keys = [(f"login-failures:address:{client_ip(request)}", limit * ADDRESS_FACTOR)]
    if username:
        keys.append((_name_key(username), limit))
    return keys


def login_locked(request, username: str | None) -> bool:
    """Return whether password logins for ``username`` from this request are locked out."""
    return any((cache.get(key) or 0) >= limit for key, limit in _keys(request, username))


class LockoutModelBackend(ModelBackend):
    """Django's model backend, refusing every password while the name or address is locked."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        name = username or kwargs.get("username")
        if request is not None and login_locked(request, name):
            # PermissionDenied stops authenticate() here and sends user_login_failed.
            raise PermissionDenied
        return super().authenticate(request, username=username, password=password, **kwargs)


@receiver(user_login_failed)
def count_login_failure(sender, credentials, request=None, **kwargs):
    """Count one failed password login for its name and address (the lockout window restarts)."""
    if request is None:
        return
    for key, _limit in _keys(request, credentials.get("username")):
        cache.set(key, (cache.get(key) or 0) + 1, timeout=settings.LOGIN_LOCKOUT_SECONDS)


@receiver(user_logged_in)
def forget_login_failures(sender, request, user, **kwargs):
    """Clear an account name's failures once its owner logs in (the address keeps its count)."""
    if request is not None:
        cache.delete(_name_key(user.get_username()))
