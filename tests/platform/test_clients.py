"""The typed clients in clients/: equal to what the current schema generates, and working.

``make sdk`` regenerates them (clients/generate.py); these tests fail when a change to the API
was not followed by ``make sdk``, and run each client's example against a live server over
real HTTP. The TypeScript checks need node and ``npm ci`` in clients/typescript (``make test``
runs it when npm exists); without them they skip and say why.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = pytest.mark.real_clock

ROOT = Path(__file__).resolve().parents[2]
TS_DIR = ROOT / "clients" / "typescript"
TS_READY = shutil.which("node") is not None and (TS_DIR / "node_modules" / ".bin").is_dir()
TS_SKIP = "node or clients/typescript/node_modules is missing (run `make clients-deps`)"


def _env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    return {**env, "DJANGO_SETTINGS_MODULE": "config.settings", **extra}


def test_the_committed_clients_are_what_the_schema_generates():
    args = [sys.executable, str(ROOT / "clients" / "generate.py"), "--check"]
    if TS_READY:
        args.append("--require-typescript")
    result = subprocess.run(args, capture_output=True, text=True, env=_env(), timeout=300)

    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture
def live_token(live_server, user):
    """``(base_url, token, username)`` of a live server and a user's token."""
    return live_server.url, user.api_key, user.username


# The examples find the cat's turn by meaning ("宠物猫"): the real model.
@pytest.mark.real_model
@pytest.mark.django_db(transaction=True)
def test_the_python_client_example_runs_against_a_live_server(live_token):
    base_url, token, username = live_token
    result = subprocess.run(
        [sys.executable, str(ROOT / "clients" / "examples" / "example.py")],
        capture_output=True,
        text=True,
        timeout=300,
        env=_env(BASE_URL=base_url, TOKEN=token, USER_ID=username),
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "written: 2 created" in result.stdout
    assert result.stdout.splitlines()[1].startswith("py-1 ")


@pytest.mark.real_model
@pytest.mark.skipif(not TS_READY, reason=TS_SKIP)
@pytest.mark.django_db(transaction=True)
def test_the_typescript_client_example_compiles_and_runs_against_a_live_server(live_token):
    base_url, token, username = live_token
    tsc = subprocess.run(
        [str(TS_DIR / "node_modules" / ".bin" / "tsc"), "-p", "."],
        cwd=TS_DIR,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert tsc.returncode == 0, tsc.stdout + tsc.stderr

    result = subprocess.run(
        ["node", "dist/example.js"],
        cwd=TS_DIR,
        capture_output=True,
        text=True,
        timeout=300,
        env=_env(BASE_URL=base_url, TOKEN=token, USER_ID=username),
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "written: 2 created" in result.stdout
    assert result.stdout.splitlines()[1].startswith("ts-1 ")
