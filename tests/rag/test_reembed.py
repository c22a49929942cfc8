"""``rag_reembed``: dry run, re-embedding, ``--model-check``."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from rag.embeddings import content_hash, current_model
from rag.models import EmbeddingCache
from tests.testapp.models import Doc

pytestmark = pytest.mark.django_db

OLD_MODEL = "retired-model"


@pytest.fixture
def rows():
    """Two rows without a vector and one with a vector of another model."""
    return [
        Doc.objects.create(category="re", text="周末一起去爬山"),
        Doc.objects.create(category="re", text="想吃不辣的火锅"),
        Doc.objects.create(
            category="re", text="读书会", embedding=[0.1] * 384, embedding_model=OLD_MODEL
        ),
    ]


def reembed(*args: str) -> str:
    out = StringIO()
    call_command("rag_reembed", *args, stdout=out)
    return out.getvalue()


def test_dry_run_writes_nothing(rows):
    output = reembed("--dry-run")
    assert "testapp.Doc: would re-embed 3 rows" in output
    assert Doc.objects.filter(embedding__isnull=True).count() == 2
    assert Doc.objects.filter(embedding_model=OLD_MODEL).count() == 1
    assert not EmbeddingCache.objects.exists()


def test_reembed_gives_every_row_a_vector_of_the_current_model(rows):
    reembed()
    for row in Doc.objects.filter(category="re"):
        assert row.embedding_model == current_model()
        assert row.embedding_hash == content_hash(row.text)
        assert len(row.embedding) == 384


def test_only_stale_skips_rows_without_a_vector(rows):
    reembed("--only-stale")
    assert Doc.objects.filter(embedding__isnull=True).count() == 2
    assert not Doc.objects.filter(embedding_model=OLD_MODEL).exists()


def test_model_check_exits_1_while_vectors_of_another_model_remain(rows):
    with pytest.raises(SystemExit) as caught:
        reembed("--model-check")
    assert caught.value.code == 1


def test_model_check_passes_after_reembedding(rows):
    reembed()
    assert "stale vectors: 0" in reembed("--model-check")


def test_model_check_reports_each_tables_current_stale_and_missing_vectors(rows):
    out = StringIO()
    with pytest.raises(SystemExit):
        call_command("rag_reembed", "--model-check", stdout=out)
    output = out.getvalue()
    assert "testapp.Doc: current=0, stale=1, missing=2" in output
    assert "stale vectors: 1" in output and "missing vectors: 2" in output


@pytest.fixture
def unembedded_messages(user):
    """Two chat messages written through memory's service whose embedding task never ran."""
    from memory.services import messages_write

    items = [
        {"message_id": f"m{i}", "ts": f"2026-01-0{i + 1}T08:00:00Z", "role": "user", "content": c}
        for i, c in enumerate(["今天去爬山了", "明天想吃火锅"])
    ]
    messages_write(user=user, items=items)  # on-commit embedding not run: no vector yet
    return items


def test_model_check_fails_on_messages_without_a_vector(unembedded_messages):
    out = StringIO()
    with pytest.raises(SystemExit) as caught:
        call_command("rag_reembed", "--model-check", stdout=out)
    output = out.getvalue()
    assert caught.value.code == 1
    assert "memory.ChatMessage: current=0, stale=0, missing=2" in output
    assert "missing vectors: 2" in output


def test_model_check_only_stale_reports_missing_vectors_without_failing(unembedded_messages):
    output = reembed("--model-check", "--only-stale")
    assert "missing vectors: 2" in output and "stale vectors: 0" in output


def test_model_check_counts_a_vector_of_another_dimension_as_stale(db, monkeypatch):
    from rag import reembed as reembed_module

    Doc.objects.create(text="读书会", embedding=[0.1] * 384, embedding_model=current_model())
    assert reembed_module.vector_states(Doc) == {"current": 1, "stale": 0, "missing": 0}
    # As after switching to a provider of 1536 dimensions with the same model name.
    monkeypatch.setattr(reembed_module, "configured_dimensions", lambda: 1536)
    assert reembed_module.vector_states(Doc) == {"current": 0, "stale": 1, "missing": 0}
