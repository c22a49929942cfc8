"""System checks of the rag engine, one id per configuration rule."""

from __future__ import annotations

from django.apps import apps
from django.conf import settings
from django.core.checks import Error, Warning, register
from django.db import DatabaseError, connection

from rag.background import REFERENCE_FILE, reference_texts
from rag.cut_rules import validate_cuts
from rag.db import vector_column_dimensions
from rag.embeddings import current_model
from rag.fields import EmbeddingField
from rag.models import RagSettings, default_similarity_floors
from rag.relevance import CUT_SURFACES


def embedding_columns():
    """Yield (model, field) for every concrete model column that is an EmbeddingField."""
    for model in apps.get_models():
        if model._meta.abstract or model._meta.proxy:
            continue
        for f in model._meta.concrete_fields:
            if isinstance(f, EmbeddingField):
                yield model, f


@register("rag")
def check_embedding_settings(app_configs=None, **kwargs):
    """rag.E002-E004: the embedding provider settings are complete."""
    errors = []
    cfg = settings.RAG_EMBEDDING
    provider = cfg.get("PROVIDER") or ""
    dims = cfg.get("DIMENSIONS")
    if not isinstance(dims, int) or dims <= 0:
        errors.append(Error("EMBEDDING_DIMENSIONS must be a positive integer.", id="rag.E002"))
    elif dims > 2000:
        errors.append(
            Error(
                f"EMBEDDING_DIMENSIONS={dims}: an HNSW index on vector holds at most 2000 "
                "dimensions.",
                hint="Ask the provider for fewer dimensions (EMBEDDING_DIMENSIONS with "
                "EMBEDDING_SEND_DIMENSIONS=true).",
                id="rag.E003",
            )
        )
    if provider == "openai" and not (cfg.get("BASE_URL") and cfg.get("MODEL")):
        errors.append(
            Error(
                "EMBEDDING_PROVIDER=openai needs EMBEDDING_BASE_URL and EMBEDDING_MODEL.",
                hint="e.g. EMBEDDING_BASE_URL=https://api.openai.com/v1 "
                "EMBEDDING_MODEL=text-embedding-3-small EMBEDDING_DIMENSIONS=1536",
                id="rag.E004",
            )
        )
    if provider == "local" and isinstance(dims, int) and dims != 384:
        errors.append(
            Error(
                f"The local provider makes 384-dimensional vectors, EMBEDDING_DIMENSIONS={dims}.",
                hint="Unset EMBEDDING_DIMENSIONS or set it to 384.",
                id="rag.E005",
            )
        )
    llm = settings.RAG_LLM
    if llm.get("PROVIDER") == "openai" and not llm.get("BASE_URL"):
        errors.append(
            Error(
                "LLM_PROVIDER=openai needs LLM_BASE_URL.",
                hint="e.g. LLM_BASE_URL=https://api.openai.com/v1 LLM_MODEL=gpt-4o-mini",
                id="rag.E006",
            )
        )
    return errors


@register("rag")
def check_vector_columns(app_configs=None, databases=None, **kwargs):
    """rag.E001: every vector column has the configured embedding dimensions."""
    errors = []
    expected = settings.RAG_EMBEDDING.get("DIMENSIONS")
    try:
        for model, f in embedding_columns():
            actual = vector_column_dimensions(connection, model._meta.db_table, f.column)
            if actual is not None and actual != expected:
                errors.append(
                    Error(
                        f"{model._meta.label}.{f.name} is vector({actual}) but "
                        f"EMBEDDING_DIMENSIONS={expected}.",
                        hint="Switch providers with: python manage.py rag_migrate_dimensions "
                        "&& python manage.py rag_reembed (see README, 'Switching the "
                        "embedding provider'), or set EMBEDDING_DIMENSIONS back to "
                        f"{actual}.",
                        obj=model,
                        id="rag.E001",
                    )
                )
    except DatabaseError as exc:
        errors.append(Warning(f"Could not inspect vector columns: {exc}", id="rag.W001"))
    return errors


def _live_floors() -> dict:
    """Return the similarity floors of the live settings row (the defaults before it exists)."""
    try:
        row = RagSettings.objects.order_by("pk").first()
    except DatabaseError:
        return default_similarity_floors()  # before migrate, or no database: what a row gets
    return default_similarity_floors() if row is None else dict(row.similarity_floors or {})


@register("rag")
def check_similarity_floors(app_configs=None, **kwargs):
    """rag.W002: the active embedding model has a similarity floor on every floored surface.

    A floor is a property of the model (multilingual-e5-small scores unrelated Chinese pairs
    above 0.8, OpenAI models below 0.3), so a model missing from the table keeps every result,
    however unrelated. Surfaces whose floor is 0 for every model use none on purpose, and
    surfaces the relevance cut decides (rag/relevance.py: activities, memory) need none.
    """
    try:
        model = current_model()
    except Exception:  # noqa: BLE001 - an incomplete provider config is rag.E004's report
        return []
    floors = _live_floors()
    floored = sorted(
        {
            surface
            for surfaces in floors.values()
            if isinstance(surfaces, dict)
            for surface, value in surfaces.items()
            if isinstance(value, int | float) and value != 0 and surface not in CUT_SURFACES
        }
    )
    configured = floors.get(model) if isinstance(floors.get(model), dict) else {}
    missing = [s for s in floored if configured.get(s) is None]
    if not missing:
        return []
    return [
        Warning(
            f"No similarity floor for the embedding model {model!r} on: {', '.join(missing)}. "
            "Those searches keep every result, however unrelated.",
            hint=f"Set them in the admin (RAG engine -> Live settings -> similarity floors, "
            f'{{"{model}": {{"{missing[0]}": ...}}}}) after calibrating with '
            "python bench/activities_search.py, which prints the floor table for the "
            "configured model (docs/activities.md, 'Ranking and the similarity floor').",
            id="rag.W002",
        )
    ]


@register("rag")
def check_relevance_cuts(app_configs=None, **kwargs):
    """rag.E040-E041: the live relevance cuts are well formed; the reference sample exists."""
    errors = []
    try:
        row = RagSettings.objects.order_by("pk").first()
    except DatabaseError:
        row = None  # before migrate: the defaults, which are valid
    message = validate_cuts(row.relevance_cuts) if row is not None else None
    if message:
        errors.append(
            Error(
                f"Live settings relevance_cuts: {message}",
                hint="Fix it in the admin (Live settings) or run manage.py rag_calibrate.",
                id="rag.E040",
            )
        )
    try:
        texts = reference_texts()
    except OSError:
        texts = []
    if len(texts) < 20:
        errors.append(
            Error(
                f"The relevance reference sample {REFERENCE_FILE} is missing or has fewer than "
                "20 texts: the relevance cut has no background to compare with.",
                id="rag.E041",
            )
        )
    return errors


@register("rag")
def check_fault_budgets(app_configs=None, **kwargs):
    """rag.E014-E015: the search time budget and the breaker cool-down are usable numbers."""
    errors = []
    budget = settings.SEARCH_TIME_BUDGET_SECONDS
    if budget is None or not 0 < budget <= 60:
        errors.append(
            Error(
                "SEARCH_TIME_BUDGET_SECONDS must be above 0 and at most 60.",
                hint="The seed's budget for exploreNearby is 3 seconds.",
                id="rag.E014",
            )
        )
    cooldown = settings.EMBEDDING_BREAKER_COOLDOWN_SECONDS
    if cooldown is None or not 0 <= cooldown <= 3600:
        errors.append(
            Error(
                "EMBEDDING_BREAKER_COOLDOWN_SECONDS must be between 0 and 3600.",
                id="rag.E015",
            )
        )
    return errors
