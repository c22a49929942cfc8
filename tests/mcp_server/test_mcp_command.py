"""Where ``manage.py mcp`` (stdio) reads the caller's key: MCP_TOKEN, --token-file, --token."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from mcp_server.management.commands import mcp as command

pytestmark = pytest.mark.django_db

UNKNOWN = "smk_" + "x" * 43


def run_mcp(*args: str) -> str:
    """Run the command in this process; return what it wrote to stderr (it raises first)."""
    err = StringIO()
    call_command("mcp", *args, stdout=StringIO(), stderr=err)
    return err.getvalue()


def _secret_file(tmp_path, text: str, mode: int):
    path = tmp_path / "token"
    path.write_text(text + "\n")
    path.chmod(mode)
    return path


def test_the_key_is_read_from_a_file_only_its_owner_can_read(tmp_path):
    path = _secret_file(tmp_path, UNKNOWN, 0o600)
    with pytest.raises(CommandError, match="not valid"):  # read, looked up, refused
        run_mcp("--token-file", str(path))


def test_a_token_file_others_can_read_is_refused(tmp_path):
    path = _secret_file(tmp_path, UNKNOWN, 0o644)
    with pytest.raises(CommandError, match="chmod 600"):
        run_mcp("--token-file", str(path))


def test_the_key_is_read_from_mcp_token(monkeypatch):
    monkeypatch.setenv("MCP_TOKEN", UNKNOWN)
    with pytest.raises(CommandError, match="not valid"):
        run_mcp()


def test_without_a_key_the_command_names_where_to_put_it(monkeypatch):
    monkeypatch.delenv("MCP_TOKEN", raising=False)
    with pytest.raises(CommandError, match="MCP_TOKEN"):
        run_mcp()


def test_the_token_flag_still_works_but_warns():
    """Deprecated, not removed: client configurations written for it keep starting."""
    err = StringIO()
    with pytest.raises(CommandError, match="not valid"):
        call_command("mcp", "--token", UNKNOWN, stdout=StringIO(), stderr=err)
    assert command.TOKEN_FLAG_DEPRECATED in err.getvalue()


def test_a_key_is_not_taken_for_http():
    with pytest.raises(CommandError, match="over HTTP"):
        run_mcp("--http", "--token", UNKNOWN)
