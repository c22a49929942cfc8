from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="Preference")



@_attrs_define
class Preference:
    """ 
        Attributes:
            category (str): The category as stored (food, vibe, likes...).
            category_label (str): The category's name in the request's language (as stored when unknown).
            created_at (datetime.datetime):
            id (int):
            superseded_at (datetime.datetime | None): When a later, contradicting preference replaced it.
            superseded_by (int | None):
            updated_at (datetime.datetime):
            value (str): As the user stated it, in their language ('no spicy food', '不吃辣').
     """

    category: str
    category_label: str
    created_at: datetime.datetime
    id: int
    superseded_at: datetime.datetime | None
    superseded_by: int | None
    updated_at: datetime.datetime
    value: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        category = self.category

        category_label = self.category_label

        created_at = self.created_at.isoformat()

        id = self.id

        superseded_at: None | str
        if isinstance(self.superseded_at, datetime.datetime):
            superseded_at = self.superseded_at.isoformat()
        else:
            superseded_at = self.superseded_at

        superseded_by: int | None
        superseded_by = self.superseded_by

        updated_at = self.updated_at.isoformat()

        value = self.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "category": category,
            "category_label": category_label,
            "created_at": created_at,
            "id": id,
            "superseded_at": superseded_at,
            "superseded_by": superseded_by,
            "updated_at": updated_at,
            "value": value,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        category = d.pop("category")

        category_label = d.pop("category_label")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = d.pop("id")

        def _parse_superseded_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                superseded_at_type_0 = datetime.datetime.fromisoformat(data)



                return superseded_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        superseded_at = _parse_superseded_at(d.pop("superseded_at"))


        def _parse_superseded_by(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        superseded_by = _parse_superseded_by(d.pop("superseded_by"))


        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        value = d.pop("value")

        preference = cls(
            category=category,
            category_label=category_label,
            created_at=created_at,
            id=id,
            superseded_at=superseded_at,
            superseded_by=superseded_by,
            updated_at=updated_at,
            value=value,
        )


        preference.additional_properties = d
        return preference

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
