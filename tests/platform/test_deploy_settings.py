"""Production settings: the secret key rule; behind TLS, `check --deploy` passes."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from config.env import env_secret_file
from config.secret_key import ensure_secret_key_file
from tests.testapp.server import ROOT, database_url

DEPLOY_KEY = "k3y-" + "a1B2c3D4e5F6g7H8i9J0" * 3


def run_settings(env: dict, *args: str) -> subprocess.CompletedProcess:
    """Run ``manage.py ARGS`` with production settings on the test database and ``env``."""
    child = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "EMBEDDED_DB"))}
    child.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database_url(connection.settings_dict["NAME"]),
        PYTHONUNBUFFERED="1",
        **env,
    )
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=child,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.real_clock
@pytest.mark.django_db
def test_a_deployment_behind_tls_passes_check_deploy_at_warning_level():
    result = run_settings(
        {
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": DEPLOY_KEY,
            "DJANGO_BEHIND_TLS": "1",
            "DJANGO_ALLOWED_HOSTS": "memory.example.com",
        },
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.real_clock
@pytest.mark.django_db
def test_production_settings_without_a_secret_key_refuse_to_start():
    result = run_settings({"DJANGO_DEBUG": "0"}, "check")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_a_secret_key_file_is_created_readable_by_its_owner_only(tmp_path):
    path = tmp_path / "runtime" / "secret_key"
    assert ensure_secret_key_file(path) is True
    assert path.stat().st_mode & 0o777 == 0o600
    assert len(path.read_text().strip()) >= 50


def test_an_existing_key_file_keeps_its_key_and_loses_other_readers(tmp_path):
    path = tmp_path / "secret_key"
    path.write_text("the-old-key\n")
    path.chmod(0o644)
    assert ensure_secret_key_file(path) is False
    assert path.read_text() == "the-old-key\n"
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_key_file_others_can_read_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "secret_key"
    path.write_text("a-key")
    path.chmod(0o644)
    monkeypatch.setenv("DJANGO_SECRET_KEY_FILE", str(path))
    with pytest.raises(ImproperlyConfigured, match="chmod 600"):
        env_secret_file("DJANGO_SECRET_KEY_FILE")


def test_a_key_file_of_its_owner_only_gives_its_key(tmp_path, monkeypatch):
    path = tmp_path / "secret_key"
    path.write_text("a-key\n")
    path.chmod(0o600)
    monkeypatch.setenv("DJANGO_SECRET_KEY_FILE", str(path))
    assert env_secret_file("DJANGO_SECRET_KEY_FILE") == "a-key"


@pytest.mark.real_clock
@pytest.mark.django_db
def test_without_the_tls_switch_check_deploy_names_what_is_missing():
    result = run_settings(
        {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": DEPLOY_KEY}, "check", "--deploy"
    )
    for check_id in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert check_id in result.stderr + result.stdout
