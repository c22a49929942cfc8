from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="PatchedPreferenceUpdateInRequest")



@_attrs_define
class PatchedPreferenceUpdateInRequest:
    """ 
        Attributes:
            category (str | Unset):
            value (str | Unset):
     """

    category: str | Unset = UNSET
    value: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        category = self.category

        value = self.value


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if category is not UNSET:
            field_dict["category"] = category
        if value is not UNSET:
            field_dict["value"] = value

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        category = d.pop("category", UNSET)

        value = d.pop("value", UNSET)

        patched_preference_update_in_request = cls(
            category=category,
            value=value,
        )

        return patched_preference_update_in_request

