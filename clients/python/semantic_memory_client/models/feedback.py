from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="Feedback")



@_attrs_define
class Feedback:
    """ 
        Attributes:
            comment (str):
            created_at (datetime.datetime):
            id (int):
            rating (int):
            target_message_id (str):
     """

    comment: str
    created_at: datetime.datetime
    id: int
    rating: int
    target_message_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        comment = self.comment

        created_at = self.created_at.isoformat()

        id = self.id

        rating = self.rating

        target_message_id = self.target_message_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "comment": comment,
            "created_at": created_at,
            "id": id,
            "rating": rating,
            "target_message_id": target_message_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        comment = d.pop("comment")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = d.pop("id")

        rating = d.pop("rating")

        target_message_id = d.pop("target_message_id")

        feedback = cls(
            comment=comment,
            created_at=created_at,
            id=id,
            rating=rating,
            target_message_id=target_message_id,
        )


        feedback.additional_properties = d
        return feedback

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
