"""Find vectors made by another model (or missing) and embed them again."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from django.apps import apps
from django.db import transaction
from django.db.models import Count, F, Func, IntegerField, Q

from rag.embeddings import content_hash, current_model, embed_texts
from rag.fields import configured_dimensions
from rag.models import Embedded
from rag.signals import vectors_reembedded


def embedded_models() -> list[type[Embedded]]:
    """Return every concrete model that extends :class:`rag.models.Embedded`."""
    return [
        m
        for m in apps.get_models()
        if issubclass(m, Embedded) and not m._meta.abstract and not m._meta.proxy
    ]


def missing_q(model: type[Embedded]) -> Q:
    """Return the condition of a row missing a vector: its embedding, or one of its other
    vectors (``Embedded.EXTRA_VECTOR_FIELDS``: a migration added the field after the row was
    embedded)."""
    condition = Q(embedding__isnull=True)
    for field in model.EXTRA_VECTOR_FIELDS:
        condition |= Q(**{f"{field}__isnull": True})
    return condition


def embed_rows(rows: list[Embedded], *, use_cache: bool = True) -> list[str]:
    """Embed each row's text and its other vectors' texts (``Embedded.extra_vector_texts``) in
    one provider call; set the vectors, the active model and the text's hash on the rows (not
    saved); return the rows' texts. ``use_cache`` False computes every vector again."""
    model_name = current_model()
    texts = [row.embedding_text() for row in rows]
    extras = [
        (row, field, text) for row in rows for field, text in row.extra_vector_texts().items()
    ]
    vectors = embed_texts(
        [*texts, *(text for _, _, text in extras)], role="passage", use_cache=use_cache
    )
    for row, text, vector in zip(rows, texts, vectors[: len(rows)], strict=True):
        row.embedding = vector
        row.embedding_model = model_name
        row.embedding_hash = content_hash(text)
    for (row, field, _), vector in zip(extras, vectors[len(rows) :], strict=True):
        setattr(row, field, vector)
    return texts


def stale_queryset(model: type[Embedded], *, include_missing: bool = True):
    """Rows whose vector was made by another model (and, optionally, rows missing one)."""
    model_name = current_model()
    condition = Q(embedding__isnull=False) & ~Q(embedding_model=model_name)
    if include_missing:
        condition |= missing_q(model)
    return model._default_manager.filter(condition)


def vector_states(model: type[Embedded]) -> dict[str, int]:
    """Count a model's rows by the state of their vector: current, stale, missing.

    ``missing``: no vector, or not one of its other vectors (never embedded, still pending,
    failed, cleared by ``rag_migrate_dimensions``, or embedded before a migration added a
    vector). ``stale``: a vector made by another model, or of another
    dimension than the provider's. ``current``: the rest.
    """
    provider_dims = configured_dimensions()
    rows = model._default_manager.annotate(
        vector_dims=Func(F("embedding"), function="vector_dims", output_field=IntegerField())
    )
    missing = missing_q(model)
    stale = ~missing & (~Q(embedding_model=current_model()) | ~Q(vector_dims=provider_dims))
    counts = rows.aggregate(
        total=Count("pk"),
        missing=Count("pk", filter=missing),
        stale=Count("pk", filter=stale),
    )
    return {
        "current": counts["total"] - counts["missing"] - counts["stale"],
        "stale": counts["stale"],
        "missing": counts["missing"],
    }


def model_counts() -> dict[str, dict[str, int]]:
    """Count vectors per model for every embedded model: {label: {model: n, '': missing}}."""
    result = {}
    for model in embedded_models():
        rows = (
            model._default_manager.values("embedding_model")
            .annotate(n=Count("pk"))
            .order_by("embedding_model")
        )
        result[model._meta.label] = {r["embedding_model"] or "(none)": r["n"] for r in rows}
    return result


def reembed_model(
    model: type[Embedded],
    *,
    batch_size: int = 100,
    include_missing: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[int]:
    """Re-embed the stale rows of a model in batches; yield the count done after each."""
    queryset = stale_queryset(model, include_missing=include_missing).order_by("pk")
    total = queryset.count()
    done = 0
    last_pk = None
    while True:
        batch_qs = queryset if last_pk is None else queryset.filter(pk__gt=last_pk)
        batch = list(batch_qs[:batch_size])
        if not batch:
            break
        # The rows' other vectors in the same call: made by the same model, under the same hash.
        embed_rows(batch)
        # One transaction per batch: a crash loses at most this batch, and a rerun
        # picks up where it stopped (the rows done no longer look stale).
        with transaction.atomic():
            model._default_manager.bulk_update(
                batch,
                ["embedding", "embedding_model", "embedding_hash", *model.EXTRA_VECTOR_FIELDS],
            )
            vectors_reembedded.send(sender=model, pks=[row.pk for row in batch])
        done += len(batch)
        last_pk = batch[-1].pk
        if progress:
            progress(done, total)
        yield done
