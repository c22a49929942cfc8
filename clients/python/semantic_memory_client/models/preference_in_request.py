from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="PreferenceInRequest")



@_attrs_define
class PreferenceInRequest:
    """ 
        Attributes:
            category (str):
            value (str):
     """

    category: str
    value: str





    def to_dict(self) -> dict[str, Any]:
        category = self.category

        value = self.value


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "category": category,
            "value": value,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        category = d.pop("category")

        value = d.pop("value")

        preference_in_request = cls(
            category=category,
            value=value,
        )

        return preference_in_request

