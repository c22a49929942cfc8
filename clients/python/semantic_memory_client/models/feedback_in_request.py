from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.rating_enum import RatingEnum
from ..types import UNSET, Unset






T = TypeVar("T", bound="FeedbackInRequest")



@_attrs_define
class FeedbackInRequest:
    """ 
        Attributes:
            rating (RatingEnum): * `-1` - -1
                * `0` - 0
                * `1` - 1
            target_message_id (str):
            comment (str | Unset):
     """

    rating: RatingEnum
    target_message_id: str
    comment: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        rating = self.rating.value

        target_message_id = self.target_message_id

        comment = self.comment


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "rating": rating,
            "target_message_id": target_message_id,
        })
        if comment is not UNSET:
            field_dict["comment"] = comment

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rating = RatingEnum(d.pop("rating"))




        target_message_id = d.pop("target_message_id")

        comment = d.pop("comment", UNSET)

        feedback_in_request = cls(
            rating=rating,
            target_message_id=target_message_id,
            comment=comment,
        )

        return feedback_in_request

