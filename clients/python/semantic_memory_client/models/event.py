from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.event_payload import EventPayload





T = TypeVar("T", bound="Event")



@_attrs_define
class Event:
    """ 
        Attributes:
            created (datetime.datetime):
            id (int):
            kind (str): daily_digest, interest_spike or deadline_reminder.
            payload (EventPayload):
            period_key (str):
            read_at (datetime.datetime | None):
     """

    created: datetime.datetime
    id: int
    kind: str
    payload: EventPayload
    period_key: str
    read_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.event_payload import EventPayload # noqa: PLC0415
        created = self.created.isoformat()

        id = self.id

        kind = self.kind

        payload = self.payload.to_dict()

        period_key = self.period_key

        read_at: None | str
        if isinstance(self.read_at, datetime.datetime):
            read_at = self.read_at.isoformat()
        else:
            read_at = self.read_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created": created,
            "id": id,
            "kind": kind,
            "payload": payload,
            "period_key": period_key,
            "read_at": read_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_payload import EventPayload # noqa: PLC0415
        d = dict(src_dict)
        created = datetime.datetime.fromisoformat(d.pop("created"))




        id = d.pop("id")

        kind = d.pop("kind")

        payload = EventPayload.from_dict(d.pop("payload"))




        period_key = d.pop("period_key")

        def _parse_read_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                read_at_type_0 = datetime.datetime.fromisoformat(data)



                return read_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        read_at = _parse_read_at(d.pop("read_at"))


        event = cls(
            created=created,
            id=id,
            kind=kind,
            payload=payload,
            period_key=period_key,
            read_at=read_at,
        )


        event.additional_properties = d
        return event

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
