"""``config.env`` readers, the DATABASE_URL parsing, and importing the settings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psutil
import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_float, env_int, env_list, env_str, parse_database_url


@pytest.mark.parametrize(
    "reader, value",
    [(env_int, "twelve"), (env_float, "fast"), (env_bool, "maybe")],
    ids=["int", "float", "bool"],
)
def test_unparseable_variable_raises_improperly_configured_naming_it(monkeypatch, reader, value):
    monkeypatch.setenv("SEMMEM_TEST_VAR", value)
    with pytest.raises(ImproperlyConfigured, match="SEMMEM_TEST_VAR"):
        reader("SEMMEM_TEST_VAR")


@pytest.mark.parametrize("reader", [env_str, env_int, env_float, env_bool, env_list])
def test_empty_variable_gives_the_default(monkeypatch, reader):
    monkeypatch.setenv("SEMMEM_TEST_VAR", "")
    default = {env_list: ["x"], env_bool: True}.get(reader, "d" if reader is env_str else 7)
    assert reader("SEMMEM_TEST_VAR", default) == default


@pytest.mark.parametrize(
    "value, expected", [("1", True), ("Yes", True), ("on", True), ("0", False), ("OFF", False)]
)
def test_env_bool_reads_the_usual_spellings(monkeypatch, value, expected):
    monkeypatch.setenv("SEMMEM_TEST_VAR", value)
    assert env_bool("SEMMEM_TEST_VAR") is expected


def test_env_list_splits_on_commas_and_strips(monkeypatch):
    monkeypatch.setenv("SEMMEM_TEST_VAR", " a, b ,,c ")
    assert env_list("SEMMEM_TEST_VAR") == ["a", "b", "c"]


def test_socket_database_url_puts_the_socket_dir_in_host():
    config = parse_database_url("postgresql://postgres:@/postgres?host=/some/dir")
    assert config["HOST"] == "/some/dir"
    assert (config["NAME"], config["USER"]) == ("postgres", "postgres")
    assert "host" not in config.get("OPTIONS", {})


def test_tcp_database_url_keeps_host_and_port():
    config = parse_database_url("postgresql://u:p%40ss@db.example.com:5433/semmem")
    assert (config["HOST"], config["PORT"], config["PASSWORD"]) == ("db.example.com", 5433, "p@ss")


def test_database_url_sets_conn_max_age():
    assert parse_database_url("postgresql://u@h/db", conn_max_age=60)["CONN_MAX_AGE"] == 60


def test_settings_database_points_at_the_running_server(settings):
    # The test server is the embedded one (socket URL) unless DATABASE_URL is set.
    assert settings.DATABASES["default"]["HOST"]


ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.real_clock
def test_importing_the_settings_starts_no_database_and_writes_no_file(tmp_path):
    # Production settings with no DATABASE_URL: before, the import started the embedded server.
    data_dir = tmp_path / "pgdata"
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DATABASE_URL", "EMBEDDED_DB_", "DJANGO_", "XDG_", "SEMMEM_"))
    }
    env.update(
        EMBEDDED_DB_DIR=str(data_dir),
        DJANGO_SECRET_KEY="settings-import-test-key-" + "x" * 40,
        XDG_RUNTIME_DIR=str(tmp_path / "xdg"),
        SEMMEM_RUNTIME_DIR=str(tmp_path / "runtime"),
        PYTHONDONTWRITEBYTECODE="1",
    )
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import config.settings as s; print(s.DATABASES['default']['HOST'])",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(data_dir)  # where the server would listen
    assert list(tmp_path.iterdir()) == []
    assert not any(
        str(data_dir) in " ".join(p.info["cmdline"] or []) for p in psutil.process_iter(["cmdline"])
    )
