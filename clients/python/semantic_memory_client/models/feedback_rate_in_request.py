from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.target_type_enum import TargetTypeEnum
from ..types import UNSET, Unset






T = TypeVar("T", bound="FeedbackRateInRequest")



@_attrs_define
class FeedbackRateInRequest:
    """ 
        Attributes:
            rating (int): -1 (not for me) or 1.
            target_id (str): The activity's id, or the message's message_id (both are in a chat reply's `items`).
            target_type (TargetTypeEnum): * `activity` - activity
                * `message` - message
            comment (str | Unset):
     """

    rating: int
    target_id: str
    target_type: TargetTypeEnum
    comment: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        rating = self.rating

        target_id = self.target_id

        target_type = self.target_type.value

        comment = self.comment


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "rating": rating,
            "target_id": target_id,
            "target_type": target_type,
        })
        if comment is not UNSET:
            field_dict["comment"] = comment

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rating = d.pop("rating")

        target_id = d.pop("target_id")

        target_type = TargetTypeEnum(d.pop("target_type"))




        comment = d.pop("comment", UNSET)

        feedback_rate_in_request = cls(
            rating=rating,
            target_id=target_id,
            target_type=target_type,
            comment=comment,
        )

        return feedback_rate_in_request

