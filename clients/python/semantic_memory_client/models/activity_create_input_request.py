from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.activity_create_input_status_enum import ActivityCreateInputStatusEnum
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.activity_location_request import ActivityLocationRequest





T = TypeVar("T", bound="ActivityCreateInputRequest")



@_attrs_define
class ActivityCreateInputRequest:
    """ 
        Attributes:
            location (ActivityLocationRequest):
            max_participants (int):
            start_at (datetime.datetime):
            title (str):
            type_ (str):
            description (str | Unset):  Default: ''.
            end_at (datetime.datetime | None | Unset):
            location_name (str | Unset):  Default: ''.
            status (ActivityCreateInputStatusEnum | Unset): * `draft` - draft
                * `active` - active Default: ActivityCreateInputStatusEnum.ACTIVE.
            tags (list[str] | Unset):
     """

    location: ActivityLocationRequest
    max_participants: int
    start_at: datetime.datetime
    title: str
    type_: str
    description: str | Unset = ''
    end_at: datetime.datetime | None | Unset = UNSET
    location_name: str | Unset = ''
    status: ActivityCreateInputStatusEnum | Unset = ActivityCreateInputStatusEnum.ACTIVE
    tags: list[str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.activity_location_request import ActivityLocationRequest # noqa: PLC0415
        location = self.location.to_dict()

        max_participants = self.max_participants

        start_at = self.start_at.isoformat()

        title = self.title

        type_ = self.type_

        description = self.description

        end_at: None | str | Unset
        if isinstance(self.end_at, Unset):
            end_at = UNSET
        elif isinstance(self.end_at, datetime.datetime):
            end_at = self.end_at.isoformat()
        else:
            end_at = self.end_at

        location_name = self.location_name

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value


        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "location": location,
            "max_participants": max_participants,
            "start_at": start_at,
            "title": title,
            "type": type_,
        })
        if description is not UNSET:
            field_dict["description"] = description
        if end_at is not UNSET:
            field_dict["end_at"] = end_at
        if location_name is not UNSET:
            field_dict["location_name"] = location_name
        if status is not UNSET:
            field_dict["status"] = status
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.activity_location_request import ActivityLocationRequest # noqa: PLC0415
        d = dict(src_dict)
        location = ActivityLocationRequest.from_dict(d.pop("location"))




        max_participants = d.pop("max_participants")

        start_at = datetime.datetime.fromisoformat(d.pop("start_at"))




        title = d.pop("title")

        type_ = d.pop("type")

        description = d.pop("description", UNSET)

        def _parse_end_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                end_at_type_0 = datetime.datetime.fromisoformat(data)



                return end_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        end_at = _parse_end_at(d.pop("end_at", UNSET))


        location_name = d.pop("location_name", UNSET)

        _status = d.pop("status", UNSET)
        status: ActivityCreateInputStatusEnum | Unset
        if isinstance(_status,  Unset):
            status = UNSET
        else:
            status = ActivityCreateInputStatusEnum(_status)




        tags = cast(list[str], d.pop("tags", UNSET))


        activity_create_input_request = cls(
            location=location,
            max_participants=max_participants,
            start_at=start_at,
            title=title,
            type_=type_,
            description=description,
            end_at=end_at,
            location_name=location_name,
            status=status,
            tags=tags,
        )

        return activity_create_input_request

