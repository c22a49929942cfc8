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
