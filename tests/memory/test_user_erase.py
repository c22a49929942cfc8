"""``DELETE /v1/users/{id}`` erases a user's data in every app, counted, and nothing else.

Two users fill every app through the public API (messages and a summary, preferences, feedback,
a shared context, a book with chapters chunked and embedded, activities joined and rated,
agent chats with a partner intent, a daily digest event). One is erased; the test reads the
models that hold user data from ``config.userdata.user_data_paths`` (relations, user-id columns,
foreign-key chains), not from the declarations it checks.
"""

from __future__ import annotations

import functools
import operator

import pytest
from django.db import models
from django.utils import timezone

from config.userdata import EXTRA_KINDS, kept, kinds, report_keys, user_data_paths
from rag.embeddings import content_hash
from rag.models import EmbeddingCache
from tests.memory.memory_helpers import create_activity, join_and_like

pytestmark = pytest.mark.django_db


def reaching(model, lookups, user) -> models.QuerySet:
    """Return the rows of ``model`` that reach the user through any of the lookups."""
    conditions = []
    for lookup in lookups:
        f = _last_field(model, lookup)
        if f.is_relation:
            conditions.append(models.Q(**{lookup: user.pk}))
        elif f.get_internal_type() in ("CharField", "UUIDField"):
            values = {str(user.pk), user.get_username()}
            conditions.append(models.Q(**{f"{lookup}__in": sorted(values)}))
        else:
            conditions.append(models.Q(**{lookup: user.pk}))
    condition = functools.reduce(operator.or_, conditions)
    return model._default_manager.filter(condition).distinct()


def _last_field(model, lookup: str):
    parts = lookup.split("__")
    for name in parts[:-1]:
        model = model._meta.get_field(name).related_model
    return model._meta.get_field(parts[-1])


def _user_data_models() -> dict:
    """Return ``{model: lookups}`` of every model holding user data that erasure must clear."""
    return {m: p for m, p in user_data_paths().items() if m._meta.label_lower not in kept()}


def _reaching(user) -> dict:
    """Return ``{model: {pk, ...}}``: every row reaching the user, by model."""
    return {
        m: set(reaching(m, p, user).values_list("pk", flat=True))
        for m, p in _user_data_models().items()
    }


def _cache_ids() -> set[int]:
    return set(EmbeddingCache.objects.values_list("pk", flat=True))


@pytest.mark.slow  # fills every app through the API: 15 s under load
def test_erasure_clears_every_app_counts_it_and_spares_the_other_user(
    cold_lru,
    fill,
    api_client,
    other_client,
    user,
    other_user,
    staff_client,
    django_capture_on_commit_callbacks,
):
    from agent.triggers import run_daily_digest

    theirs = fill(other_client, other_user, "b")  # first: shared warm-up rows are not A's
    cached_before = _cache_ids()
    mine = fill(api_client, user, "a")
    cached_mine = _cache_ids() - cached_before
    join_and_like(api_client, theirs)
    # Interest vectors are stored from the third +1 on (seed 000).
    for tag in ("b2", "b3"):
        more = create_activity(other_client, tag, django_capture_on_commit_callbacks)
        join_and_like(api_client, more.json()["id"])
    join_and_like(other_client, mine)  # B's place in A's activity goes with it (documented)
    # A service's all-users webhook: its deliveries of A's events go with A's events.
    hook = {"url": "http://127.0.0.1:9/all", "all_users": True}
    assert staff_client.post("/v1/users/service/webhooks", hook, format="json").status_code == 201
    with django_capture_on_commit_callbacks(execute=True):  # webhook deliveries follow
        assert run_daily_digest(timezone.now()) == 2

    mine_rows, their_rows = _reaching(user), _reaching(other_user)
    kind_rows = {k.name: set(k.rows(user).values_list("pk", flat=True)) for k in kinds()}
    response = api_client.delete(f"/v1/users/{user.username}")

    assert response.status_code == 200
    deleted = response.json()["deleted"]
    assert sorted(deleted) == sorted(report_keys())
    # The data touched every kind, so every count below was really exercised (the admin log and
    # task rows: tests/memory/test_erasure_leftovers.py).
    assert all(n > 0 for k, n in deleted.items() if k not in EXTRA_KINDS), deleted
    assert deleted["account"] == 1 and not type(user).objects.filter(pk=user.pk).exists()
    for kind in kinds():
        if kind.count is None:
            assert deleted[kind.name] == len(kind_rows[kind.name]), kind.name
    assert (deleted["books"], deleted["chapters"], deleted["story_blocks"]) == (1, 2, 4)
    assert deleted["child_chunks"] == deleted["chunk_vectors"] >= 2
    assert deleted["interest_vectors"] == 3 and deleted["others_participations"] == 1
    for model, rows in mine_rows.items():
        # The kinds of a model cover exactly the rows that reach the user.
        declared = set().union(*(kind_rows[k.name] for k in kinds() if k.model is model))
        assert declared == rows, model._meta.label
        assert not reaching(model, _user_data_models()[model], user).exists(), model._meta.label
    for kind in kinds():
        assert not kind.rows(user).exists(), kind.name
    for model, rows in their_rows.items():
        kept_rows = set(model._default_manager.filter(pk__in=rows).values_list("pk", flat=True))
        # Only rows that reached both users (B's place in A's activity) are gone.
        assert kept_rows == rows - mine_rows.get(model, set()), model._meta.label
    # Every vector cached while A's data was written is gone; B's own texts keep theirs.
    assert cached_mine and not EmbeddingCache.objects.filter(pk__in=cached_mine).exists()
    hashes = {content_hash(t) for t in _stored_texts(other_user)}
    still = EmbeddingCache.objects.filter(content_hash__in=hashes)
    assert set(still.values_list("content_hash", flat=True)) == hashes


def _stored_texts(user) -> list[str]:
    """Return the texts of the user's messages and child chunks, as they were embedded."""
    from memory.models import ChatMessage
    from writing.models import ChildChunk

    texts = [m.embedding_text() for m in ChatMessage.objects.filter(user=user, kind="message")]
    return texts + list(ChildChunk.objects.filter(book__owner=user).values_list("text", flat=True))
