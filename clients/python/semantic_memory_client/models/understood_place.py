from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.understood_place_applied_enum import UnderstoodPlaceAppliedEnum
from typing import cast






T = TypeVar("T", bound="UnderstoodPlace")



@_attrs_define
class UnderstoodPlace:
    """ 
        Attributes:
            applied (UnderstoodPlaceAppliedEnum): * `radius` - radius
                * `location` - location
                * `unknown` - unknown
            phrase (None | str): The place cue (附近, near me).
            radius_km (float | None):
     """

    applied: UnderstoodPlaceAppliedEnum
    phrase: None | str
    radius_km: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        applied = self.applied.value

        phrase: None | str
        phrase = self.phrase

        radius_km: float | None
        radius_km = self.radius_km


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "applied": applied,
            "phrase": phrase,
            "radiusKm": radius_km,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        applied = UnderstoodPlaceAppliedEnum(d.pop("applied"))




        def _parse_phrase(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        phrase = _parse_phrase(d.pop("phrase"))


        def _parse_radius_km(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        radius_km = _parse_radius_km(d.pop("radiusKm"))


        understood_place = cls(
            applied=applied,
            phrase=phrase,
            radius_km=radius_km,
        )


        understood_place.additional_properties = d
        return understood_place

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
