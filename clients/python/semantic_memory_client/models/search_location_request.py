from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="SearchLocationRequest")



@_attrs_define
class SearchLocationRequest:
    """ 
        Attributes:
            lat (float):
            lng (float):
            radius_in_km (float | None | Unset):
     """

    lat: float
    lng: float
    radius_in_km: float | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        lat = self.lat

        lng = self.lng

        radius_in_km: float | None | Unset
        if isinstance(self.radius_in_km, Unset):
            radius_in_km = UNSET
        else:
            radius_in_km = self.radius_in_km


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "lat": lat,
            "lng": lng,
        })
        if radius_in_km is not UNSET:
            field_dict["radiusInKm"] = radius_in_km

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        lat = d.pop("lat")

        lng = d.pop("lng")

        def _parse_radius_in_km(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        radius_in_km = _parse_radius_in_km(d.pop("radiusInKm", UNSET))


        search_location_request = cls(
            lat=lat,
            lng=lng,
            radius_in_km=radius_in_km,
        )

        return search_location_request

