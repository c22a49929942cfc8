"""Who a tool call acts for: the user of the API token, never a tool argument.

The token is the REST API's own (``config.models.ApiToken``, ``manage.py issue_token``),
checked exactly as the REST API checks it (``config.auth.TokenAuthentication``: hashed,
revocable, expiring). A staff token may name another user
with the ``user_id`` argument, resolved by :func:`memory.identity.resolve_user` exactly as the
REST API resolves it: for anybody else, naming another user answers NOT_FOUND.
"""

from __future__ import annotations

from django.db import close_old_connections
from rest_framework.exceptions import AuthenticationFailed

from config.auth import TokenAuthentication


def user_for_token(key: str | None):
    """Return the active user of API token ``key``, or None (unknown, revoked, expired,
    inactive, malformed)."""
    if not isinstance(key, str) or not key or len(key) > 128:
        return None
    try:
        user, _ = TokenAuthentication().authenticate_credentials(key)
    except AuthenticationFailed:
        return None
    finally:
        close_old_connections()  # a thread outside any request: honour CONN_MAX_AGE
    return user
