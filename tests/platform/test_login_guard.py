"""Password logins lock out after repeated failures (issue 31 item 4: admin brute force)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-staff-password-42"


@pytest.fixture
def admin_account(settings):
    """A staff account with a known password; the shared cache emptied; a limit of 3."""
    cache.clear()
    settings.LOGIN_FAILURE_LIMIT = 3
    return get_user_model().objects.create_user("warden", password=PASSWORD, is_staff=True)


def _login(client: Client, username: str, password: str) -> bool:
    """Post the admin login form; return whether the session is now logged in."""
    client.post("/admin/login/", {"username": username, "password": password})
    return "_auth_user_id" in client.session


def test_the_right_password_logs_in(admin_account):
    assert _login(Client(), "warden", PASSWORD)


def test_after_the_limit_even_the_right_password_is_refused(admin_account):
    client = Client()
    for _ in range(3):
        assert not _login(client, "warden", "wrong-guess")
    assert not _login(client, "warden", PASSWORD)


def test_the_lockout_ends_after_its_window(admin_account, clock, settings):
    client = Client()
    for _ in range(3):
        _login(client, "warden", "wrong-guess")
    clock.shift(timedelta(seconds=settings.LOGIN_LOCKOUT_SECONDS + 1))
    assert _login(client, "warden", PASSWORD)


def test_a_success_before_the_limit_forgets_the_failures(admin_account):
    client = Client()
    for _ in range(2):
        _login(client, "warden", "wrong-guess")
    assert _login(client, "warden", PASSWORD)
    client.logout()
    for _ in range(2):
        _login(client, "warden", "wrong-guess")
    assert _login(client, "warden", PASSWORD)


def test_guessing_many_names_from_one_address_locks_the_address(admin_account):
    client = Client()
    for n in range(12):  # 4 x the limit, spread over names that are not locked themselves
        _login(client, f"guess{n}", "wrong-guess")
    assert not _login(client, "warden", PASSWORD)
