"""``rag.fields``: the vector text sent to PostgreSQL."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from pgvector import Vector

from rag.fields import vector_literal

pytestmark = pytest.mark.django_db


def _random_vector(seed: int, size: int = 384) -> list[float]:
    rng = random.Random(seed)
    return [rng.uniform(-1.0, 1.0) * 10 ** rng.randint(-12, 3) for _ in range(size)]


def test_postgresql_reads_the_same_vector_as_from_pgvectors_own_text():
    # Caller-sent float64 values (not float32 ones): rounding once or twice must agree.
    with connection.cursor() as cursor:
        for seed in range(20):
            vector = _random_vector(seed)
            cursor.execute(
                "SELECT %s::vector = %s::vector",
                [vector_literal(vector), Vector(vector).to_text()],
            )
            assert cursor.fetchone()[0] is True, seed


def test_the_text_is_shorter_than_pgvectors_own():
    vector = _random_vector(1)
    assert len(vector_literal(vector)) < 0.8 * len(Vector(vector).to_text())


def test_a_repeated_vector_gives_the_same_text_and_a_changed_one_a_new_text():
    vector = _random_vector(2)
    first = vector_literal(vector)
    assert vector_literal(list(vector)) == first
    vector[0] += 1.0
    assert vector_literal(vector) != first
