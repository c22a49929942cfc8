from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast






T = TypeVar("T", bound="UserEventsStreamEventActivityReminder")



@_attrs_define
class UserEventsStreamEventActivityReminder:
    """ The `activity_reminder` event of UserEventsStreamEvent.

        Attributes:
            data (str):
            event (Literal['activity_reminder']):
     """

    data: str
    event: Literal['activity_reminder']
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        data = self.data

        event = self.event


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "data": data,
            "event": event,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        data = d.pop("data")

        event = cast(Literal['activity_reminder'] , d.pop("event"))
        if event != 'activity_reminder':
            raise ValueError(f"event must match const 'activity_reminder', got '{event}'")

        user_events_stream_event_activity_reminder = cls(
            data=data,
            event=event,
        )


        user_events_stream_event_activity_reminder.additional_properties = d
        return user_events_stream_event_activity_reminder

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
