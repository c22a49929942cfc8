"""Writes of the platform's tables: issue, revoke and rotate API tokens."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from config.errors import InvalidArgument, NotFound
from config.models import ApiToken
from config.selectors import MAX_KEY_LENGTH, token_digest

# Marks the service's keys (secret scanners can match ``smk_`` + 43 characters).
KEY_TAG = "smk_"
# Characters of a key shown in the admin and the API: the tag and 8 random characters (48
# bits of 256); of a legacy 40-hex key, 8 hex digits (32 of 160).
PREFIX_LENGTH = 12
LEGACY_PREFIX_LENGTH = 8
MIN_KEY_LENGTH = 32
MAX_EXPIRY_DAYS = 3650


@dataclass(frozen=True)
class IssuedToken:
    """A token just issued, with its key: the only time the key is known."""

    token: ApiToken
    key: str


def token_prefix(key: str) -> str:
    """Return the part of ``key`` that is shown (the admin, the API, logs)."""
    return key[: PREFIX_LENGTH if key.startswith(KEY_TAG) else LEGACY_PREFIX_LENGTH]


def token_issue(
    *, user, name: str = "", expires_in_days: int | None = None, key: str | None = None
) -> IssuedToken:
    """Issue a new token of ``user``; return it with its key (stored only as a digest).

    ``key`` restores a key the caller already holds (a legacy key, a test suite's fixed
    credentials); it must be long enough to be unguessable. Otherwise a random one is made.
    """
    if key is None:
        key = KEY_TAG + secrets.token_urlsafe(32)
    elif not MIN_KEY_LENGTH <= len(key) <= MAX_KEY_LENGTH or any(c.isspace() for c in key):
        raise InvalidArgument(gettext("The key must be 32 to 128 characters without spaces."))
    now = timezone.now()
    expires_at = None
    if expires_in_days is not None:
        if not 1 <= expires_in_days <= MAX_EXPIRY_DAYS:
            raise InvalidArgument(
                gettext("expires_in_days must be between 1 and %(most)d.")
                % {"most": MAX_EXPIRY_DAYS},
                details={"field": "expires_in_days"},
            )
        expires_at = now + timedelta(days=expires_in_days)
    token = ApiToken.objects.create(
        user=user,
        name=name,
        prefix=token_prefix(key),
        digest=token_digest(key),
        created_at=now,
        expires_at=expires_at,
    )
    return IssuedToken(token=token, key=key)


def token_revoke(*, user, token_id: int) -> ApiToken:
    """Revoke ``user``'s token ``token_id`` (idempotent); another user's answers NOT_FOUND."""
    with transaction.atomic():
        token = ApiToken.objects.select_for_update().filter(user=user, pk=token_id).first()
        if token is None:
            raise NotFound(gettext("No such token."))
        if token.revoked_at is None:
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
    return token


def token_rotate(*, user, token_id: int) -> IssuedToken:
    """Issue a token like ``user``'s ``token_id`` (name, lifetime) and revoke that one.

    Both in one transaction: the old key stops working exactly when the new one exists. A
    revoked or expired token cannot be rotated (issue a new one).
    """
    with transaction.atomic():
        old = ApiToken.objects.select_for_update().filter(user=user, pk=token_id).first()
        if old is None:
            raise NotFound(gettext("No such token."))
        if not old.is_valid():
            raise InvalidArgument(gettext("Only a valid token can be rotated; issue a new one."))
        days = None
        if old.expires_at is not None:
            days = max(1, round((old.expires_at - old.created_at) / timedelta(days=1)))
        issued = token_issue(user=user, name=old.name, expires_in_days=days)
        old.revoked_at = timezone.now()
        old.save(update_fields=["revoked_at"])
    return issued


def tokens_revoke_all(*, user) -> int:
    """Revoke every valid token of ``user``; return how many."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
