"""``manage.py issue_token USERNAME [--staff] [--name] [--expires-in-days N] [--rotate]``."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.test import APIClient

from config.models import ApiToken
from config.selectors import token_digest

pytestmark = pytest.mark.django_db


def issue_token(*args: str) -> str:
    """Run the command and return the last line it printed."""
    out = StringIO()
    call_command("issue_token", *args, stdout=out, stderr=StringIO())
    return out.getvalue().strip().splitlines()[-1]


def test_issue_token_creates_a_missing_user():
    issue_token("carol")
    assert get_user_model().objects.filter(username="carol").exists()


def test_issue_token_stores_only_a_digest_and_a_prefix_of_the_printed_key():
    key = issue_token("carol")
    token = ApiToken.objects.get(user__username="carol")
    assert token.digest == token_digest(key) and key.startswith(token.prefix)
    stored = {f.attname: getattr(token, f.attname) for f in ApiToken._meta.concrete_fields}
    assert key not in [str(v) for v in stored.values()]


def test_issue_token_for_an_existing_user_issues_a_new_key_and_keeps_the_old(user):
    key = issue_token(user.username)
    assert key != user.api_key
    assert get_user_model().objects.filter(username=user.username).count() == 1
    assert ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() == 2


def test_issue_token_rotate_revokes_the_users_other_keys(user):
    key = issue_token(user.username, "--rotate")
    valid = ApiToken.objects.filter(user=user, revoked_at__isnull=True)
    assert list(valid.values_list("digest", flat=True)) == [token_digest(key)]


def test_issue_token_expiry_sets_the_tokens_lifetime(clock):
    issue_token("carol", "--expires-in-days", "30")
    token = ApiToken.objects.get(user__username="carol")
    assert (token.expires_at - token.created_at).days == 30


def test_issue_token_normalises_the_name_as_the_api_does():
    issue_token("ﬁona")  # the "ﬁ" ligature: NFKC makes it "fi", as the API's user_id does
    assert get_user_model().objects.filter(username="fiona").exists()
    assert not get_user_model().objects.filter(username="ﬁona").exists()


def test_issue_token_without_staff_makes_a_normal_user():
    issue_token("carol")
    assert not get_user_model().objects.get(username="carol").is_staff


def test_issue_token_staff_flag_makes_the_user_staff(user):
    issue_token(user.username, "--staff")
    user.refresh_from_db()
    assert user.is_staff


@pytest.mark.urls("tests.testapp.urls")
def test_issued_key_authenticates_an_api_call():
    key = issue_token("carol")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = client.get("/api/testapp/whoami")
    assert response.status_code == 200
    assert response.json()["username"] == "carol"


def test_issue_token_staff_flag_lets_the_user_act_for_any_user(user):
    issue_token(user.username, "--staff")
    user = get_user_model().objects.get(pk=user.pk)  # a fresh permission cache
    assert user.has_perm("memory.act_for_any_user")


def test_issue_token_without_staff_grants_no_permission():
    issue_token("carol")
    assert not get_user_model().objects.get(username="carol").has_perm("memory.act_for_any_user")
