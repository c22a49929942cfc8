from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.rating_enum import RatingEnum






T = TypeVar("T", bound="FeedbackInputRequest")



@_attrs_define
class FeedbackInputRequest:
    """ 
        Attributes:
            rating (RatingEnum): * `-1` - -1
                * `0` - 0
                * `1` - 1
     """

    rating: RatingEnum





    def to_dict(self) -> dict[str, Any]:
        rating = self.rating.value


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "rating": rating,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rating = RatingEnum(d.pop("rating"))




        feedback_input_request = cls(
            rating=rating,
        )

        return feedback_input_request

