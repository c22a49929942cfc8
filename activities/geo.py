"""Distances on the sphere in SQL, served by btree indexes on lat and lng.

PostGIS and earthdistance are not available in the embedded server, so a radius filter is
a bounding box on ``lat``/``lng`` (plain btree range scans) followed by the exact haversine
distance on the rows inside the box.
"""

from __future__ import annotations

import math

from django.db.models import F, FloatField, Func

EARTH_RADIUS_KM = 6371.0088
KM_PER_DEGREE_LAT = math.pi * EARTH_RADIUS_KM / 180.0


def haversine_km(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Return the great-circle distance in kilometres (Python, for tests and benchmarks)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lng2 - lng1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(a)))


class Haversine(Func):
    """The haversine distance (km) from a point to each row's ``lat``/``lng``, as one node.

    The SQL and its parameters are those of the same formula written with Django's functions
    (``Power``, ``Sin``, ``Radians``, ``Least``, ``ASin`` of ``F("lat")`` and ``Value``s; tests
    hold the two equal), so PostgreSQL computes the same distances with the same plan. A tree
    of those functions has about thirty nodes, which Django copies when the queryset is
    annotated and walks each time a query is compiled: at 100k activities a search with a
    radius compiles it three times (the count, the sample, the vector search), about 3 ms of
    CPU per search (bench/search_profile.py); one node with two columns costs a tenth of it.
    """

    output_field = FloatField()

    def __init__(self, lat: float, lng: float):
        super().__init__(F("lat"), F("lng"))
        self.lat_r, self.lng_r = math.radians(lat), math.radians(lng)

    def as_sql(self, compiler, connection, **extra_context):
        (lat, lat_params), (lng, lng_params) = (
            compiler.compile(arg) for arg in self.source_expressions
        )
        # A Value(2) of the composed formula: an int of the IntegerField's type (Int4 with
        # psycopg 3), written into the SQL as ``2`` as before.
        two = connection.ops.adapt_integerfield_value(2, "IntegerField")
        sql = (
            f"(%s * ASIN(LEAST(SQRT((POWER(SIN(((RADIANS({lat}) - %s) / %s)), %s) + ((%s * "
            f"COS(RADIANS({lat}))) * POWER(SIN(((RADIANS({lng}) - %s) / %s)), %s)))), %s)))"
        )
        params = [
            2.0 * EARTH_RADIUS_KM,
            *lat_params,
            self.lat_r,
            2.0,
            two,
            math.cos(self.lat_r),
            *lat_params,
            *lng_params,
            self.lng_r,
            2.0,
            two,
            1.0,
        ]
        return sql, params


def distance_expression(lat: float, lng: float) -> Haversine:
    """Return a SQL expression for the haversine distance (km) from a point to each row."""
    return Haversine(lat, lng)


def bounding_box(lat: float, lng: float, radius_km: float) -> dict:
    """Return lookups selecting a box that contains the circle (may include a little more)."""
    dlat = radius_km / KM_PER_DEGREE_LAT
    lookups = {"lat__gte": lat - dlat, "lat__lte": lat + dlat}
    cos_lat = math.cos(math.radians(min(89.9, abs(lat) + dlat)))
    dlng = radius_km / (KM_PER_DEGREE_LAT * cos_lat) if cos_lat > 1e-6 else 360.0
    # Near the poles or across the antimeridian the longitude box would wrap: skip it.
    if dlng < 180 and lng - dlng >= -180 and lng + dlng <= 180:
        lookups.update({"lng__gte": lng - dlng, "lng__lte": lng + dlng})
    return lookups
