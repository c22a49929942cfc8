"""The listing's kind as a ranking feature: the query against its type and tags embedded apart
(``Activity.meta_embedding``), read as one cosine per candidate in SQL (:func:`read_meta_like`)
and as a standard score among the candidates that have one (:func:`standard_known`); the
hybrid's sixth feature (``activities.search_ranking.FUSION_FEATURES``, issue 30, session 47).
"""

from __future__ import annotations

import numpy as np
from django.db.models import ExpressionWrapper, FloatField, Value
from pgvector.django import CosineDistance

from activities.models import Activity
from rag.fields import vector_literal


def meta_like_sql(vector) -> ExpressionWrapper:
    """Return the SQL cosine of the query's ``vector`` to a row's kind vector (NULL for a row
    without one), which the search annotates on its candidates as ``meta_like``."""
    distance = CosineDistance("meta_embedding", Value(vector_literal(vector)))
    return ExpressionWrapper(Value(1.0) - distance, output_field=FloatField())


def read_meta_like(activities: list, vector) -> None:
    """Give each of ``activities`` its ``meta_like`` (:func:`meta_like_sql`), read in one query
    over their primary keys (None for a row without a kind vector)."""
    if not activities:
        return
    likes = dict(
        Activity.objects.filter(pk__in=[a.pk for a in activities])
        .annotate(meta_like=meta_like_sql(vector))
        .values_list("pk", "meta_like")
    )
    for activity in activities:
        activity.meta_like = likes.get(activity.pk)


def meta_similarity(activities: list, vector) -> list[float | None] | None:
    """Return, per activity, the cosine of the query's ``vector`` to its kind vector (its type
    and tags embedded apart, ``Activity.meta_embedding``) as :func:`read_meta_like` gave it:
    None for a row without one (or not read); None for all without a query vector."""
    if vector is None:
        return None
    return [a.__dict__.get("meta_like") for a in activities]


def standard_known(values: list | None, n: int) -> list[float]:
    """Return the standard scores of ``values`` among the known ones (not None), 0 for an
    unknown one and for all when they do not spread (or ``values`` is None: n zeros)."""
    if values is None:
        return [0.0] * n
    known = np.asarray([v for v in values if v is not None], dtype=np.float64)
    spread = float(known.std()) if len(known) else 0.0
    if spread <= 1e-9:
        return [0.0] * n
    mean = float(known.mean())
    return [0.0 if v is None else (float(v) - mean) / spread for v in values]
