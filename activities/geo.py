"""Distances on the sphere in SQL, served by btree indexes on lat and lng.

PostGIS and earthdistance are not available in the embedded server, so a radius filter is
a bounding box on ``lat``/``lng`` (plain btree range scans) followed by the exact haversine
distance on the rows inside the box.
"""

from __future__ import annotations

import math

from django.db.models import F, FloatField, Value
from django.db.models.expressions import ExpressionWrapper
from django.db.models.functions import ASin, Cos, Least, Power, Radians, Sin, Sqrt

EARTH_RADIUS_KM = 6371.0088
KM_PER_DEGREE_LAT = math.pi * EARTH_RADIUS_KM / 180.0


def haversine_km(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Return the great-circle distance in kilometres (Python, for tests and benchmarks)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lng2 - lng1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(a)))


def distance_expression(lat: float, lng: float):
    """Return a SQL expression for the haversine distance (km) from a point to each row."""
    lat_r, lng_r = math.radians(lat), math.radians(lng)
    a = Power(Sin((Radians(F("lat")) - Value(lat_r)) / Value(2.0)), 2) + Value(
        math.cos(lat_r)
    ) * Cos(Radians(F("lat"))) * Power(Sin((Radians(F("lng")) - Value(lng_r)) / Value(2.0)), 2)
    return ExpressionWrapper(
        Value(2.0 * EARTH_RADIUS_KM) * ASin(Least(Sqrt(a), Value(1.0))),
        output_field=FloatField(),
    )


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
