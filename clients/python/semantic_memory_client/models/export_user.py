from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="ExportUser")



@_attrs_define
class ExportUser:
    """ 
        Attributes:
            date_joined (datetime.datetime | None):
            id (int):
            user_id (str):
     """

    date_joined: datetime.datetime | None
    id: int
    user_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        date_joined: None | str
        if isinstance(self.date_joined, datetime.datetime):
            date_joined = self.date_joined.isoformat()
        else:
            date_joined = self.date_joined

        id = self.id

        user_id = self.user_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "date_joined": date_joined,
            "id": id,
            "user_id": user_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_date_joined(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                date_joined_type_0 = datetime.datetime.fromisoformat(data)



                return date_joined_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        date_joined = _parse_date_joined(d.pop("date_joined"))


        id = d.pop("id")

        user_id = d.pop("user_id")

        export_user = cls(
            date_joined=date_joined,
            id=id,
            user_id=user_id,
        )


        export_user.additional_properties = d
        return export_user

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
