"""Every documented example, sent to the running service as a reader of the docs sends it.

On the journey service (``manage.py serve`` over real HTTP, tests/journeys/conftest.py).

The docs' examples (``README.md``, ``docs/*.md``, ``docs/users/*.md``): every fenced ``sh``
block with a ``curl`` in it runs, as written, in ``bash`` with the real ``curl`` and ``jq``,
one shell per page, its blocks in the page's order (so a variable one block sets, ``BOOK=$(curl
... | jq .id)``, is there for the next). The convention the pages follow (README, "One call per
surface"), and what this test puts in:

- ``$KEY`` is the reader's token and ``$H`` its header: each page starts with the README's
  ``KEY=$(.venv/bin/python manage.py issue_token alice)`` and ``H="Authorization: Token $KEY"``,
  run for real on the service's database;
- ``alice`` stands for the reader's username: each page gets a fresh user of its own
  (``reader-<page>``), so that one page's erasure or book is not another's;
- ``http://127.0.0.1:8000`` is the service, ``http://127.0.0.1:8765/mcp`` the MCP server
  (``manage.py mcp --http`` beside it): the test's addresses are put in their place;
- an id is never spelt out: a page keeps the one an earlier call answered in a variable
  (``BOOK``, ``CHAPTER``, ``EVENT``). A proactive event is the one thing no documented call
  makes (the triggers write them): each reader starts with one unread event.

Every call must answer 2xx (``curl`` is wrapped to report each status; an MCP tool call must
not be a tool error), the shell must exit 0 (a failed ``jq``, an unset variable), and each
page's expected output (:data:`EXPECTED_OUTPUT`) must be printed.

The schema's examples: every operation's example request (path and query parameters, each
example body) from the ``GET /api/schema/`` the service serves, sent over HTTP in the reader's
order of ``tests/platform/test_api_examples.py`` (which sends them in-process, and holds the
order and the ids each create answers), as a fresh user in ``alice``'s place.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.mcp_server.conftest import HttpServer
from tests.platform.live_service import ROOT, base_env, manage
from tests.platform.test_api_examples import (
    BODY_IDS,
    CAPTURE,
    ERASE,
    ORDER,
    STREAMS,
    _dig,
    _json_examples,
    _operations,
    example_path,
)

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = [pytest.mark.slow, pytest.mark.real_clock]

PAGES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "docs" / "users").glob("*.md")),
]
SH_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.S | re.M)
CURL = re.compile(r"(?<![\w-])curl\s")
CALL_REPORT = re.compile(r"@@ (\d{3}) (\S+) (\S+)")
DOCUMENTED_USER = re.compile(r"\balice\b")
DOCUMENTED_BASE = "http://127.0.0.1:8000"
DOCUMENTED_MCP = "http://127.0.0.1:8765/mcp"
# What a page's output ends with when its own check holds (INTEGRATION.md: export = erasure).
EXPECTED_OUTPUT = {"INTEGRATION.md": "same"}
# The events stream stays open (that is its point): a reader stops it, here after this long.
STREAM_SECONDS = 5
# What each page's shell starts with: stop at the first failure, report every call's status
# (on stderr, so that pipes to jq see the answer alone), then the README's token lines.
PROLOGUE = f"""\
set -euo pipefail
curl() {{
  local limit=120 arg
  for arg in "$@"; do
    case "$arg" in */events/stream*) limit={STREAM_SECONDS} ;; esac
  done
  local rc=0
  command curl --max-time "$limit" \\
    -w '%{{stderr}}@@ %{{http_code}} %{{method}} %{{url_effective}}\\n' "$@" || rc=$?
  # An open stream cut by the time limit (28) after it answered: what a reader's Ctrl-C does.
  if [ "$rc" = 28 ] && [ "$limit" = {STREAM_SECONDS} ]; then rc=0; fi
  return "$rc"
}}
KEY=$(.venv/bin/python manage.py issue_token alice)
H="Authorization: Token $KEY"
"""
# A fresh reader: the user and one unread proactive event (no documented call makes one).
SEED = """
from django.contrib.auth import get_user_model
from agent.models import EventKind, SystemEvent
for name in {names!r}:
    user, _ = get_user_model().objects.get_or_create(username=name)
    SystemEvent.objects.get_or_create(
        user=user, kind=EventKind.DAILY_DIGEST, period_key="2026-11-25",
        defaults={{"payload": {{"title": "今日推荐", "items": []}}}},
    )
    print("@@", name, SystemEvent.objects.filter(user=user).first().pk)
"""
TOKEN = """
from django.contrib.auth import get_user_model
from config.services import token_issue
for name in {names!r}:
    user, _ = get_user_model().objects.get_or_create(username=name)
    print("@@", name, token_issue(user=user, name="docs").key)
"""


def page_examples(page: Path) -> str:
    """Return the ``sh`` blocks of ``page`` that call the API, in order ("" when none)."""
    blocks = [b for b in SH_BLOCK.findall(page.read_text(encoding="utf-8")) if CURL.search(b)]
    return "\n".join(blocks)


def reader(page: Path) -> str:
    """Return the username of the reader of ``page`` (``reader-readme``, ``reader-writer``)."""
    return "reader-" + page.stem.lower().replace("_", "-")


def calls_in(script: str) -> int:
    """Return how many ``curl`` commands ``script`` runs (comments aside)."""
    return sum(
        len(CURL.findall(line)) for line in script.splitlines() if not line.lstrip().startswith("#")
    )


def _printed(service, script: str) -> dict[str, str]:
    """Run ``script`` in ``manage.py shell``; return what it printed as ``@@ name value``."""
    output = manage(service.db.data_dir, "shell", "-c", script).stdout
    return dict(line.split()[1:] for line in output.splitlines() if line.startswith("@@ "))


def seed(service, names) -> dict[str, int]:
    """Make users ``names`` on the service, each with one unread event; return its id."""
    printed = _printed(service, SEED.format(names=list(names)))
    return {name: int(pk) for name, pk in printed.items()}


def tokens(service, names) -> dict[str, str]:
    """Return a new token of each of users ``names`` (made if missing)."""
    return _printed(service, TOKEN.format(names=list(names)))


@pytest.fixture(scope="module")
def mcp_server(journey_service):
    """``manage.py mcp --http`` on the journey service's database (the README's MCP call)."""
    data_dir = journey_service.db.data_dir
    server = HttpServer(SimpleNamespace(data_dir=data_dir, env=lambda: base_env(data_dir)))
    yield server
    server.stop()


def run_page(page: Path, service, mcp_url: str, workdir: Path):
    """Run ``page``'s examples as its reader; return the finished ``bash``."""
    script = PROLOGUE + page_examples(page)
    script = DOCUMENTED_USER.sub(reader(page), script)
    script = script.replace(DOCUMENTED_MCP, mcp_url).replace(DOCUMENTED_BASE, service.url)
    # The reader's working directory: `.venv/bin/python manage.py` as from the repository,
    # and the files an example writes (alice.jsonl) stay out of it.
    (workdir / ".venv").symlink_to(ROOT / ".venv")
    (workdir / "manage.py").symlink_to(ROOT / "manage.py")
    return subprocess.run(
        ["bash", "-c", script],
        cwd=workdir,
        env=base_env(service.db.data_dir),
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_every_documented_example_succeeds_on_the_live_service(
    journey_service, mcp_server, tmp_path
):
    pages = [page for page in PAGES if page_examples(page)]
    assert {p.name for p in pages} >= {"README.md", "INTEGRATION.md", "writer.md", "staff.md"}
    seed(journey_service, [reader(page) for page in pages])
    failures = []
    for page in pages:
        workdir = tmp_path / page.stem
        workdir.mkdir()
        done = run_page(page, journey_service, mcp_server.url, workdir)
        name = page.relative_to(ROOT)
        calls = CALL_REPORT.findall(done.stderr)
        if done.returncode != 0:
            failures.append(f"{name}: exit {done.returncode}: {done.stderr[-1500:]}")
        for status, method, url in calls:
            if not status.startswith("2"):
                failures.append(f"{name}: {method} {url}: {status}")
        expected = calls_in(page_examples(page))
        if done.returncode == 0 and len(calls) < expected:  # a loop may call more often
            failures.append(f"{name}: {len(calls)} calls answered of {expected}")
        if re.search(r'"isError":\s*true', done.stdout):
            failures.append(f"{name}: an MCP tool error: {done.stdout[-1500:]}")
        ending = EXPECTED_OUTPUT.get(page.name)
        if ending and not done.stdout.rstrip().endswith(ending):
            failures.append(f"{name}: does not end with {ending!r}: {done.stdout[-1500:]}")
    assert failures == [], "\n".join(failures)


# --- The schema's examples, over HTTP -----------------------------------------------------

SCHEMA_READER, ERASED_READER = "reader-schema", "reader-erased"


def _as(user: str, value):
    """Return ``value`` (an example) with the documented user's name replaced by ``user``."""
    return json.loads(json.dumps(value).replace('"alice"', json.dumps(user)))


def _send(service, token, method, path, operation, *, ids, body):
    """Send one documented request over HTTP; return the httpx response."""
    path = example_path(path, operation, ids=ids)
    headers = {"Authorization": f"Token {token}"}
    if operation["operationId"] in STREAMS:
        headers["Accept"] = "text/event-stream"
    return service.client.request(method.upper(), path, json=body, headers=headers)


def test_every_schema_example_succeeds_on_the_live_service(journey_service):
    response = journey_service.get("/api/schema/", params={"format": "json"})
    assert response.status_code == 200, response.text[:300]
    operations = _operations(response.json())
    assert sorted(operations) == sorted(ORDER)
    events = seed(journey_service, [SCHEMA_READER, ERASED_READER])
    keys = tokens(journey_service, [SCHEMA_READER, ERASED_READER])
    ids: dict = {"user_id": SCHEMA_READER, "event_id": events[SCHEMA_READER]}
    failures = []
    for op_id in ORDER:
        method, path, operation = operations[op_id]
        user, op_ids = SCHEMA_READER, ids
        if op_id == ERASE:  # erase a reader of its own, who first writes the example messages
            user, op_ids = ERASED_READER, {"user_id": ERASED_READER}
            write = operations["memory_messages_write"]
            written = 0
            for example in _json_examples(write[2]).values():
                answer = _send(
                    journey_service,
                    keys[user],
                    *write,
                    ids=op_ids,
                    body=_as(user, example["value"]),
                )
                assert answer.status_code in (200, 201), answer.text
                written += len(example["value"]["items"])
        examples = _json_examples(operation) or {"no body": {"value": None}}
        for name, example in examples.items():
            body = _as(user, example["value"])
            if body is not None and op_id in BODY_IDS:
                body = {**body, **{k: ids[v] for k, v in BODY_IDS[op_id].items()}}
            answer = _send(
                journey_service, keys[user], method, path, operation, ids=op_ids, body=body
            )
            status = answer.status_code
            if op_id in STREAMS and "event: error" in answer.text:  # failed once streaming
                status = 500
            if not 200 <= status < 300:
                failures.append(
                    f"{op_id} [{name}] {method.upper()} {path}: {status} {answer.text[:300]}"
                )
                continue
            for id_name, dotted in CAPTURE.get(op_id, {}).items():
                ids[id_name] = _dig(answer.json(), dotted)
        if op_id == ERASE:
            assert answer.json()["deleted"]["messages"] == written, answer.text
    assert failures == [], "\n".join(failures)
