from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="FeedbackItem")



@_attrs_define
class FeedbackItem:
    """ 
        Attributes:
            comment (str):
            created_at (datetime.datetime):
            id (int):
            rating (int):
            target_id (str):
            target_label (str): What was rated: the activity's title or the message's first words.
            target_type (str):
     """

    comment: str
    created_at: datetime.datetime
    id: int
    rating: int
    target_id: str
    target_label: str
    target_type: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        comment = self.comment

        created_at = self.created_at.isoformat()

        id = self.id

        rating = self.rating

        target_id = self.target_id

        target_label = self.target_label

        target_type = self.target_type


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "comment": comment,
            "created_at": created_at,
            "id": id,
            "rating": rating,
            "target_id": target_id,
            "target_label": target_label,
            "target_type": target_type,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        comment = d.pop("comment")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = d.pop("id")

        rating = d.pop("rating")

        target_id = d.pop("target_id")

        target_label = d.pop("target_label")

        target_type = d.pop("target_type")

        feedback_item = cls(
            comment=comment,
            created_at=created_at,
            id=id,
            rating=rating,
            target_id=target_id,
            target_label=target_label,
            target_type=target_type,
        )


        feedback_item.additional_properties = d
        return feedback_item

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
