from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.activity_update_input_status_enum import ActivityUpdateInputStatusEnum
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.activity_location_request import ActivityLocationRequest





T = TypeVar("T", bound="PatchedActivityUpdateInputRequest")



@_attrs_define
class PatchedActivityUpdateInputRequest:
    """ 
        Attributes:
            description (str | Unset):
            end_at (datetime.datetime | None | Unset):
            location (ActivityLocationRequest | Unset):
            location_name (str | Unset):
            max_participants (int | Unset):
            start_at (datetime.datetime | Unset):
            status (ActivityUpdateInputStatusEnum | Unset): * `active` - active
                * `cancelled` - cancelled
            tags (list[str] | Unset):
            title (str | Unset):
            type_ (str | Unset):
     """

    description: str | Unset = UNSET
    end_at: datetime.datetime | None | Unset = UNSET
    location: ActivityLocationRequest | Unset = UNSET
    location_name: str | Unset = UNSET
    max_participants: int | Unset = UNSET
    start_at: datetime.datetime | Unset = UNSET
    status: ActivityUpdateInputStatusEnum | Unset = UNSET
    tags: list[str] | Unset = UNSET
    title: str | Unset = UNSET
    type_: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.activity_location_request import ActivityLocationRequest # noqa: PLC0415
        description = self.description

        end_at: None | str | Unset
        if isinstance(self.end_at, Unset):
            end_at = UNSET
        elif isinstance(self.end_at, datetime.datetime):
            end_at = self.end_at.isoformat()
        else:
            end_at = self.end_at

        location: dict[str, Any] | Unset = UNSET
        if not isinstance(self.location, Unset):
            location = self.location.to_dict()

        location_name = self.location_name

        max_participants = self.max_participants

        start_at: str | Unset = UNSET
        if not isinstance(self.start_at, Unset):
            start_at = self.start_at.isoformat()

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value


        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags



        title = self.title

        type_ = self.type_


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if description is not UNSET:
            field_dict["description"] = description
        if end_at is not UNSET:
            field_dict["end_at"] = end_at
        if location is not UNSET:
            field_dict["location"] = location
        if location_name is not UNSET:
            field_dict["location_name"] = location_name
        if max_participants is not UNSET:
            field_dict["max_participants"] = max_participants
        if start_at is not UNSET:
            field_dict["start_at"] = start_at
        if status is not UNSET:
            field_dict["status"] = status
        if tags is not UNSET:
            field_dict["tags"] = tags
        if title is not UNSET:
            field_dict["title"] = title
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.activity_location_request import ActivityLocationRequest # noqa: PLC0415
        d = dict(src_dict)
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


        _location = d.pop("location", UNSET)
        location: ActivityLocationRequest | Unset
        if isinstance(_location,  Unset):
            location = UNSET
        else:
            location = ActivityLocationRequest.from_dict(_location)




        location_name = d.pop("location_name", UNSET)

        max_participants = d.pop("max_participants", UNSET)

        _start_at = d.pop("start_at", UNSET)
        start_at: datetime.datetime | Unset
        if isinstance(_start_at,  Unset):
            start_at = UNSET
        else:
            start_at = datetime.datetime.fromisoformat(_start_at)




        _status = d.pop("status", UNSET)
        status: ActivityUpdateInputStatusEnum | Unset
        if isinstance(_status,  Unset):
            status = UNSET
        else:
            status = ActivityUpdateInputStatusEnum(_status)




        tags = cast(list[str], d.pop("tags", UNSET))


        title = d.pop("title", UNSET)

        type_ = d.pop("type", UNSET)

        patched_activity_update_input_request = cls(
            description=description,
            end_at=end_at,
            location=location,
            location_name=location_name,
            max_participants=max_participants,
            start_at=start_at,
            status=status,
            tags=tags,
            title=title,
            type_=type_,
        )

        return patched_activity_update_input_request

