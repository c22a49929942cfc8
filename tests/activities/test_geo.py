"""The distance on the sphere in SQL (activities/geo.py)."""

from __future__ import annotations

import math

import pytest
from django.db import connection
from django.db.models import F, FloatField, Value
from django.db.models.expressions import ExpressionWrapper
from django.db.models.functions import ASin, Cos, Least, Power, Radians, Sin, Sqrt

from activities.geo import EARTH_RADIUS_KM, distance_expression, haversine_km
from activities.models import Activity

pytestmark = pytest.mark.django_db

POINTS = [(31.2304, 121.4737), (-33.8688, 151.2093), (51.5072, -0.1276), (0.0, 0.0)]


def composed(lat: float, lng: float):
    """The haversine formula written with Django's functions (the expression before it was
    one node): the SQL the search has always sent."""
    lat_r, lng_r = math.radians(lat), math.radians(lng)
    a = Power(Sin((Radians(F("lat")) - Value(lat_r)) / Value(2.0)), 2) + Value(
        math.cos(lat_r)
    ) * Cos(Radians(F("lat"))) * Power(Sin((Radians(F("lng")) - Value(lng_r)) / Value(2.0)), 2)
    return ExpressionWrapper(
        Value(2.0 * EARTH_RADIUS_KM) * ASin(Least(Sqrt(a), Value(1.0))),
        output_field=FloatField(),
    )


def compiled(expression, radius: float) -> tuple[str, list]:
    qs = (
        Activity.objects.annotate(distance_km=expression)
        .filter(distance_km__lte=radius)
        .order_by("distance_km", "pk")
    )
    sql, params = qs.query.get_compiler(connection=connection).as_sql()
    return sql, list(params)


@pytest.mark.parametrize(("lat", "lng"), POINTS)
def test_distance_expression_sends_the_sql_of_the_composed_formula(lat, lng):
    new_sql, new_params = compiled(distance_expression(lat, lng), 5.0)
    old_sql, old_params = compiled(composed(lat, lng), 5.0)
    assert new_sql == old_sql
    assert [(type(p), p) for p in new_params] == [(type(p), p) for p in old_params]
    with connection.cursor() as cursor:
        assert cursor.mogrify(new_sql, new_params) == cursor.mogrify(old_sql, old_params)


def test_distance_expression_gives_the_haversine_distance_of_each_row(make_activity):
    near = make_activity(title="近处", lat=31.2310, lng=121.4740)
    far = make_activity(title="远处", lat=31.3000, lng=121.6000)
    rows = dict(
        Activity.objects.filter(pk__in=[near.pk, far.pk])
        .annotate(d=distance_expression(31.2304, 121.4737))
        .values_list("title", "d")
    )
    assert rows["近处"] == pytest.approx(haversine_km(31.2304, 121.4737, 31.2310, 121.4740))
    assert rows["远处"] == pytest.approx(haversine_km(31.2304, 121.4737, 31.3000, 121.6000))


def test_two_centres_are_two_distinct_expressions():
    assert distance_expression(31.0, 121.0) != distance_expression(31.0, 121.5)
    assert distance_expression(31.0, 121.0) == distance_expression(31.0, 121.0)
