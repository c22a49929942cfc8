"""System checks of the rag engine."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings

from rag.checks import check_embedding_settings, check_similarity_floors, check_vector_columns
from tests.testapp.models import Doc


def embedding(**changes) -> dict:
    # The configured (real) provider's settings, not the tests' stand-in.
    return {**settings.REAL_RAG_EMBEDDING, **changes}


def ids(errors) -> list[str]:
    return [e.id for e in errors]


@pytest.mark.django_db
def test_matching_dimensions_pass_the_vector_column_check():
    assert check_vector_columns() == []


@pytest.mark.django_db
def test_e001_fires_when_a_vector_column_disagrees_with_the_dimensions():
    with override_settings(RAG_EMBEDDING=embedding(DIMENSIONS=1536)):
        errors = check_vector_columns()
    doc_errors = [e for e in errors if e.obj is Doc]
    assert ids(doc_errors) == ["rag.E001"]
    assert "vector(384)" in doc_errors[0].msg and "1536" in doc_errors[0].msg


@pytest.mark.django_db
def test_e001_hint_names_rag_migrate_dimensions():
    with override_settings(RAG_EMBEDDING=embedding(DIMENSIONS=1536)):
        errors = check_vector_columns()
    assert all("rag_migrate_dimensions" in e.hint for e in errors)


@pytest.mark.parametrize(
    "changes, expected",
    [
        ({"DIMENSIONS": 0}, "rag.E002"),
        (
            {"PROVIDER": "openai", "BASE_URL": "http://x/v1", "MODEL": "m", "DIMENSIONS": 3072},
            "rag.E003",
        ),
        ({"PROVIDER": "openai", "BASE_URL": None, "MODEL": "m"}, "rag.E004"),
        ({"DIMENSIONS": 1024}, "rag.E005"),
    ],
)
def test_incomplete_embedding_settings_are_reported(changes, expected):
    with override_settings(RAG_EMBEDDING=embedding(**changes)):
        assert expected in ids(check_embedding_settings())


def test_llm_provider_without_base_url_is_reported():
    with override_settings(RAG_LLM={**settings.RAG_LLM, "PROVIDER": "openai", "BASE_URL": None}):
        assert "rag.E006" in ids(check_embedding_settings())


def test_default_settings_pass_the_settings_check():
    assert check_embedding_settings() == []


def hosted(model: str) -> dict:
    """Embedding settings of a hosted (OpenAI-compatible) model, 384-dimensional."""
    return embedding(PROVIDER="openai", BASE_URL="http://x/v1", MODEL=model, DIMENSIONS=384)


@pytest.fixture
def floored(live_settings):
    """Live floors where another model floors writing and persona (surfaces without a cut)."""
    live_settings.similarity_floors = {
        **live_settings.similarity_floors,
        "some-model": {"writing": 0.3, "persona": 0.2, "activities": 0.5, "memory": 0.4},
    }
    live_settings.save()
    return live_settings


@pytest.mark.django_db
def test_w002_fires_for_a_model_without_floors(floored):
    with override_settings(RAG_EMBEDDING=hosted("nomic-embed-text")):
        warnings = check_similarity_floors()
    assert ids(warnings) == ["rag.W002"]
    assert "'nomic-embed-text'" in warnings[0].msg
    assert "writing" in warnings[0].msg and "persona" in warnings[0].msg


@pytest.mark.django_db
def test_w002_never_asks_for_floors_the_relevance_cut_replaces(floored):
    with override_settings(RAG_EMBEDDING=hosted("nomic-embed-text")):
        (warning,) = check_similarity_floors()
    assert "activities" not in warning.msg and "memory" not in warning.msg


@pytest.mark.django_db
def test_w002_hint_names_the_live_settings_and_the_benchmark(floored):
    with override_settings(RAG_EMBEDDING=hosted("nomic-embed-text")):
        (warning,) = check_similarity_floors()
    assert "Live settings" in warning.hint and "bench/activities_search.py" in warning.hint


@pytest.mark.django_db
def test_w002_is_silent_once_the_live_settings_hold_the_floors(floored):
    floored.similarity_floors = {
        **floored.similarity_floors,
        "nomic-embed-text": {"writing": 0.5, "persona": 0.45},
    }
    floored.save()
    with override_settings(RAG_EMBEDDING=hosted("nomic-embed-text")):
        assert check_similarity_floors() == []


@pytest.mark.django_db
def test_w002_names_only_the_surfaces_still_missing(floored):
    floored.similarity_floors = {
        **floored.similarity_floors,
        "nomic-embed-text": {"writing": 0.5},
    }
    floored.save()
    with override_settings(RAG_EMBEDDING=hosted("nomic-embed-text")):
        (warning,) = check_similarity_floors()
    assert "on: persona." in warning.msg


@pytest.mark.django_db
def test_default_model_has_floors_so_w002_is_silent():
    assert check_similarity_floors() == []


@pytest.mark.django_db
def test_e040_fires_for_malformed_live_relevance_cuts(live_settings):
    from rag.checks import check_relevance_cuts

    assert check_relevance_cuts() == []
    live_settings.relevance_cuts = {"m": {"activities": {"gate": "high"}}}
    live_settings.save()
    assert ids(check_relevance_cuts()) == ["rag.E040"]


@pytest.mark.django_db
def test_e041_fires_without_a_reference_sample(monkeypatch, tmp_path):
    from rag import background
    from rag.checks import check_relevance_cuts

    monkeypatch.setattr(background, "REFERENCE_FILE", tmp_path / "missing.txt")
    assert ids(check_relevance_cuts()) == ["rag.E041"]
