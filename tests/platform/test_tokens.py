"""API tokens: stored as a hash, expiring, revocable, rotated (config.services, config.auth)."""

from __future__ import annotations

import hashlib
import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.models import ApiToken
from config.selectors import token_digest
from config.services import token_issue, token_revoke, token_rotate

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.testapp.urls")]

WHOAMI = "/api/testapp/whoami"


def _status(key: str, scheme: str = "Token") -> int:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"{scheme} {key}")
    return client.get(WHOAMI).status_code


def test_only_the_digest_and_a_prefix_of_a_key_are_stored(user):
    issued = token_issue(user=user, name="laptop")
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM platform_apitoken WHERE id = %s", [issued.token.pk])
        row = [str(value) for value in cursor.fetchone()]
    assert issued.key not in row
    assert hashlib.sha256(issued.key.encode()).hexdigest() in row
    assert issued.key.startswith(issued.token.prefix) and len(issued.token.prefix) == 12


def test_a_key_differing_from_a_valid_one_is_refused(user):
    assert _status(user.api_key) == 200
    assert _status(user.api_key[:-1] + ("A" if user.api_key[-1] != "A" else "B")) == 401


@pytest.mark.parametrize("scheme", ["Token", "Bearer"])
def test_a_revoked_token_is_refused_under_either_scheme(user, scheme):
    token = ApiToken.objects.get(user=user)
    token_revoke(user=user, token_id=token.pk)
    response_status = _status(user.api_key, scheme)
    assert response_status == 401


def test_an_expired_token_is_refused_and_a_live_one_accepted(user, clock):
    issued = token_issue(user=user, expires_in_days=1)
    assert _status(issued.key) == 200
    clock.shift(timedelta(days=1, seconds=1))
    assert _status(issued.key) == 401
    assert _status(user.api_key) == 200  # no expiry


def test_an_expiry_outside_one_day_to_ten_years_is_refused(user):
    from config.errors import InvalidArgument

    with pytest.raises(InvalidArgument):
        token_issue(user=user, expires_in_days=0)


def test_rotation_issues_a_working_key_and_revokes_the_old_one(user):
    old = ApiToken.objects.get(user=user)
    issued = token_rotate(user=user, token_id=old.pk)
    assert _status(issued.key) == 200
    assert _status(user.api_key) == 401
    assert issued.token.name == old.name


def test_rotation_keeps_the_tokens_lifetime(user, clock):
    first = token_issue(user=user, name="ci", expires_in_days=30)
    clock.shift(timedelta(days=10))
    second = token_rotate(user=user, token_id=first.token.pk)
    assert second.token.expires_at - second.token.created_at == timedelta(days=30)


def test_another_users_token_cannot_be_revoked_or_rotated(user, other_user):
    from config.errors import NotFound

    theirs = ApiToken.objects.get(user=other_user)
    with pytest.raises(NotFound):
        token_revoke(user=user, token_id=theirs.pk)
    with pytest.raises(NotFound):
        token_rotate(user=user, token_id=theirs.pk)
    assert _status(other_user.api_key) == 200


def test_an_inactive_users_token_is_refused(user):
    user.is_active = False
    user.save()
    assert _status(user.api_key) == 401


def test_a_refused_key_is_never_echoed(anon_client):
    anon_client.credentials(HTTP_AUTHORIZATION="Token smk_not-a-real-key-0123456789abcdef")
    response = anon_client.get(WHOAMI)
    assert response.status_code == 401
    assert "smk_not-a-real-key" not in response.content.decode()


def test_the_legacy_migration_hashes_drfs_keys_which_keep_working(make_user):
    """What platform.0003 does to a deployment's DRF tokens: same key, now hashed; rows gone."""
    carol = make_user("carol")
    legacy = Token.objects.create(user=carol)  # DRF's plain-text row, as before the migration
    migration = importlib.import_module("config.migrations.0003_hash_legacy_tokens")

    with connection.schema_editor() as editor:
        migration.hash_legacy_tokens(apps, editor)

    assert not Token.objects.exists()
    stored = ApiToken.objects.get(digest=token_digest(legacy.key))
    assert stored.user == carol and stored.prefix == legacy.key[:8]
    assert _status(legacy.key) == 200
    assert _status(legacy.key, "Bearer") == 200


def test_the_admin_lists_prefixes_and_never_a_key_or_digest(admin_client, user):
    token = ApiToken.objects.get(user=user)
    listing = admin_client.get("/admin/platform/apitoken/").content.decode()
    page = admin_client.get(f"/admin/platform/apitoken/{token.pk}/change/").content.decode()
    assert token.prefix in listing
    for text in (listing, page):
        assert user.api_key not in text and token.digest not in text


def test_the_admin_revokes_selected_tokens(admin_client, user):
    token = ApiToken.objects.get(user=user)
    admin_client.post(
        "/admin/platform/apitoken/",
        {"action": "revoke", "_selected_action": [token.pk]},
    )
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert _status(user.api_key) == 401


def test_drfs_plain_text_token_admin_is_gone(admin_client):
    assert admin_client.get("/admin/authtoken/tokenproxy/").status_code == 404
