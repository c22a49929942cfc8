"""``config.env`` readers and the DATABASE_URL parsing."""

from __future__ import annotations

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
