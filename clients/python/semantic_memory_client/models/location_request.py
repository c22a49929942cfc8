from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="LocationRequest")



@_attrs_define
class LocationRequest:
    """ 
        Attributes:
            lat (float):
            lng (float):
     """

    lat: float
    lng: float





    def to_dict(self) -> dict[str, Any]:
        lat = self.lat

        lng = self.lng


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "lat": lat,
            "lng": lng,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        lat = d.pop("lat")

        lng = d.pop("lng")

        location_request = cls(
            lat=lat,
            lng=lng,
        )

        return location_request

