"""``manage.py issue_token USERNAME [--staff]``."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def issue_token(*args: str) -> str:
    """Run the command and return the last line it printed."""
    out = StringIO()
    call_command("issue_token", *args, stdout=out, stderr=StringIO())
    return out.getvalue().strip().splitlines()[-1]


def test_issue_token_creates_a_missing_user():
    issue_token("carol")
    assert get_user_model().objects.filter(username="carol").exists()


def test_issue_token_prints_the_users_key_as_the_last_line():
    key = issue_token("carol")
    assert key == Token.objects.get(user__username="carol").key


def test_issue_token_gives_an_existing_user_the_same_key(user):
    assert issue_token(user.username) == user.auth_token.key
    assert get_user_model().objects.filter(username=user.username).count() == 1


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
