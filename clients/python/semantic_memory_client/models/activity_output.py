from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.activity_status_enum import ActivityStatusEnum
from ..models.index_state_enum import IndexStateEnum
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.activity_output_location import ActivityOutputLocation





T = TypeVar("T", bound="ActivityOutput")



@_attrs_define
class ActivityOutput:
    """ 
        Attributes:
            created_at (datetime.datetime):
            creator_id (int):
            current_participants (int):
            description (str):
            end_at (datetime.datetime | None):
            id (int):
            index_state (IndexStateEnum): * `pending` - pending
                * `running` - running
                * `indexed` - indexed
                * `failed` - failed
            indexed_at (datetime.datetime | None):
            location (ActivityOutputLocation):
            location_name (str):
            max_participants (int):
            start_at (datetime.datetime):
            status (ActivityStatusEnum): * `draft` - draft
                * `active` - active
                * `cancelled` - cancelled
                * `finished` - finished
            tags (list[str]):
            title (str):
            type_ (str):
            updated_at (datetime.datetime):
            vibes (list[str]):
     """

    created_at: datetime.datetime
    creator_id: int
    current_participants: int
    description: str
    end_at: datetime.datetime | None
    id: int
    index_state: IndexStateEnum
    indexed_at: datetime.datetime | None
    location: ActivityOutputLocation
    location_name: str
    max_participants: int
    start_at: datetime.datetime
    status: ActivityStatusEnum
    tags: list[str]
    title: str
    type_: str
    updated_at: datetime.datetime
    vibes: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.activity_output_location import ActivityOutputLocation # noqa: PLC0415
        created_at = self.created_at.isoformat()

        creator_id = self.creator_id

        current_participants = self.current_participants

        description = self.description

        end_at: None | str
        if isinstance(self.end_at, datetime.datetime):
            end_at = self.end_at.isoformat()
        else:
            end_at = self.end_at

        id = self.id

        index_state = self.index_state.value

        indexed_at: None | str
        if isinstance(self.indexed_at, datetime.datetime):
            indexed_at = self.indexed_at.isoformat()
        else:
            indexed_at = self.indexed_at

        location = self.location.to_dict()

        location_name = self.location_name

        max_participants = self.max_participants

        start_at = self.start_at.isoformat()

        status = self.status.value

        tags = self.tags



        title = self.title

        type_ = self.type_

        updated_at = self.updated_at.isoformat()

        vibes = self.vibes




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "creator_id": creator_id,
            "current_participants": current_participants,
            "description": description,
            "end_at": end_at,
            "id": id,
            "index_state": index_state,
            "indexed_at": indexed_at,
            "location": location,
            "location_name": location_name,
            "max_participants": max_participants,
            "start_at": start_at,
            "status": status,
            "tags": tags,
            "title": title,
            "type": type_,
            "updated_at": updated_at,
            "vibes": vibes,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.activity_output_location import ActivityOutputLocation # noqa: PLC0415
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        creator_id = d.pop("creator_id")

        current_participants = d.pop("current_participants")

        description = d.pop("description")

        def _parse_end_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                end_at_type_0 = datetime.datetime.fromisoformat(data)



                return end_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        end_at = _parse_end_at(d.pop("end_at"))


        id = d.pop("id")

        index_state = IndexStateEnum(d.pop("index_state"))




        def _parse_indexed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                indexed_at_type_0 = datetime.datetime.fromisoformat(data)



                return indexed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        indexed_at = _parse_indexed_at(d.pop("indexed_at"))


        location = ActivityOutputLocation.from_dict(d.pop("location"))




        location_name = d.pop("location_name")

        max_participants = d.pop("max_participants")

        start_at = datetime.datetime.fromisoformat(d.pop("start_at"))




        status = ActivityStatusEnum(d.pop("status"))




        tags = cast(list[str], d.pop("tags"))


        title = d.pop("title")

        type_ = d.pop("type")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        vibes = cast(list[str], d.pop("vibes"))


        activity_output = cls(
            created_at=created_at,
            creator_id=creator_id,
            current_participants=current_participants,
            description=description,
            end_at=end_at,
            id=id,
            index_state=index_state,
            indexed_at=indexed_at,
            location=location,
            location_name=location_name,
            max_participants=max_participants,
            start_at=start_at,
            status=status,
            tags=tags,
            title=title,
            type_=type_,
            updated_at=updated_at,
            vibes=vibes,
        )


        activity_output.additional_properties = d
        return activity_output

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
