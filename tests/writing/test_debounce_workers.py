"""A real ``qcluster`` while a writer types: no worker waits, one chunking run after the pause.

Real processes on a throw-away embedded PostgreSQL (as tests/platform/test_worker_faults.py):
one interactive worker, a chapter autosaved ten times 0.3 s apart with a 1 s debounce, and a
probe task queued in the middle of the typing. The probe runs at once (the single worker is
never held by a debounced task), every autosave's task but the last gives way, and the last
one chunks the chapter once.
"""

from __future__ import annotations

import json
import time

import pytest

from config import embedded_db
from tests.platform.test_worker_faults import (
    chapter_row,
    kill,
    manage,
    start_cluster,
    worker_env,
)

pytestmark = [pytest.mark.real_clock, pytest.mark.slow]

SETUP = """
from django.contrib.auth import get_user_model
from writing.models import WritingSettings
from writing.services import book_create, chapter_create
WritingSettings.objects.update_or_create(pk=1, defaults={"debounce_seconds": 1.0})
user = get_user_model().objects.create_user("typer", password="x")
book = book_create(user=user, title="打字之书")
blocks = [{"content": "悟空驾起筋斗云，一去十万八千里。"}, {"content": "八戒在后面慢慢地走。"}]
chapter = chapter_create(user=user, book_id=book.pk, title="第一回", sequence=1, blocks=blocks)
print("CHAPTER", chapter.pk)
"""

TYPE = """
import time
from django.contrib.auth import get_user_model
from django_q.tasks import async_task
from writing.services import chapter_autosave
user = get_user_model().objects.get(username="typer")
probe = None
for n in range(10):
    text = f"悟空第{n}次改这一句：筋斗云翻了{n}个跟头。"
    chapter_autosave(user=user, chapter_id=CHAPTER, blocks=[{"position": 0, "content": text}])
    if n == 5:
        probe = async_task("config.queues.current_queue", cluster="interactive")
    time.sleep(0.3)
print("PROBE", probe)
"""

RESULTS = """
import json
from django_q.models import Task
probe = Task.objects.get(pk=PROBE)
autosaves = [t.result for t in Task.objects.filter(name__startswith="writing.autosave:")]
print("RESULTS", json.dumps({"probe": (probe.stopped - probe.started).total_seconds(),
                             "probe_ok": probe.success, "autosaves": autosaves}))
"""


@pytest.fixture
def database(tmp_path):
    """Start a private embedded PostgreSQL; yield its URI; stop it afterwards."""
    data = tmp_path / "pgdata"
    uri = embedded_db.start(data)
    yield uri
    embedded_db.stop(data)


def test_a_writer_typing_never_holds_the_worker_and_is_chunked_once(database, tmp_path):
    env = worker_env(database)
    env["Q_WORKERS_INTERACTIVE"] = "1"
    manage(env, "migrate", "--no-input")
    chapter_id = int(manage(env, "shell", "-c", SETUP).split("CHAPTER")[-1])
    log = tmp_path / "worker.log"
    cluster = start_cluster(env, log)
    try:
        deadline = time.monotonic() + 180  # the worker loads the model for the first chunking
        while chapter_row(database, chapter_id)["state"] != "ready":
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        out = manage(env, "shell", "-c", TYPE.replace("CHAPTER", str(chapter_id)))
        probe = out.split("PROBE")[-1].strip()
        deadline = time.monotonic() + 60
        while True:
            row = chapter_row(database, chapter_id)
            if row["state"] == "ready" and row["chunked_version"] == row["version"]:
                break
            assert time.monotonic() < deadline, f"{row}\n{log.read_text()}"
            time.sleep(0.1)
        out = manage(env, "shell", "-c", RESULTS.replace("PROBE", repr(probe)))
    finally:
        kill(cluster)
    results = json.loads(out.split("RESULTS")[-1])
    assert results["probe_ok"]
    # Queued while the chapter was being typed in: taken within a couple of polls (0.2 s).
    assert results["probe"] < 3.0, results
    autosaves = results["autosaves"]
    assert len(autosaves) == 10 and autosaves.count("done") == 1, autosaves
    assert set(autosaves) <= {"done", "superseded"}, autosaves
