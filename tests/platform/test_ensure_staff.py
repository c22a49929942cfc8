"""``manage.py ensure_staff``: the staff account of ``make run``, never a fixed password."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db


def run(**options) -> str:
    out = io.StringIO()
    call_command("ensure_staff", stdout=out, **options)
    return out.getvalue()


def test_generated_password_is_printed_once_and_logs_in(settings):
    settings.STAFF_PASSWORD = None
    output = run(username="boss")
    password = output.split("password: ", 1)[1].split()[0]
    user = authenticate(username="boss", password=password)
    assert user is not None and user.is_staff and user.is_superuser
    assert password not in run(username="boss")


def test_two_fresh_accounts_get_different_passwords(settings):
    settings.STAFF_PASSWORD = None
    first = run(username="one").split("password: ", 1)[1].split()[0]
    second = run(username="two").split("password: ", 1)[1].split()[0]
    assert first != second


def test_staff_password_setting_is_used_and_not_printed(settings):
    settings.STAFF_PASSWORD = "from-the-environment-123"
    output = run(username="ops")
    assert "from-the-environment-123" not in output
    assert authenticate(username="ops", password="from-the-environment-123") is not None


def test_existing_account_keeps_its_password(settings):
    get_user_model().objects.create_user(username="admin", password="mine-already-1")
    settings.STAFF_PASSWORD = "other-password-2"
    output = run()
    assert "unchanged" in output
    assert authenticate(username="admin", password="mine-already-1") is not None


def test_username_defaults_to_the_setting(settings):
    settings.STAFF_USERNAME = "chief"
    settings.STAFF_PASSWORD = "chief-password-3"
    run()
    assert get_user_model().objects.filter(username="chief", is_staff=True).exists()


@pytest.mark.parametrize("weak", ["short-1", "123456789012345", "password1234", "boss-boss-boss"])
def test_a_weak_staff_password_is_refused_and_creates_nobody(settings, weak):
    settings.STAFF_PASSWORD = weak
    with pytest.raises(CommandError, match="STAFF_PASSWORD is too weak"):
        run(username="boss-boss-boss")
    assert not get_user_model().objects.filter(username="boss-boss-boss").exists()
