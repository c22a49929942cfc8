from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="ParticipationOutput")



@_attrs_define
class ParticipationOutput:
    """ 
        Attributes:
            activity_id (int):
            current_participants (int):
            feedback (int | None):
            joined_at (datetime.datetime):
            user_id (int):
     """

    activity_id: int
    current_participants: int
    feedback: int | None
    joined_at: datetime.datetime
    user_id: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        activity_id = self.activity_id

        current_participants = self.current_participants

        feedback: int | None
        feedback = self.feedback

        joined_at = self.joined_at.isoformat()

        user_id = self.user_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "activity_id": activity_id,
            "current_participants": current_participants,
            "feedback": feedback,
            "joined_at": joined_at,
            "user_id": user_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        activity_id = d.pop("activity_id")

        current_participants = d.pop("current_participants")

        def _parse_feedback(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        feedback = _parse_feedback(d.pop("feedback"))


        joined_at = datetime.datetime.fromisoformat(d.pop("joined_at"))




        user_id = d.pop("user_id")

        participation_output = cls(
            activity_id=activity_id,
            current_participants=current_participants,
            feedback=feedback,
            joined_at=joined_at,
            user_id=user_id,
        )


        participation_output.additional_properties = d
        return participation_output

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
