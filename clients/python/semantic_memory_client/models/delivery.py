from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="Delivery")



@_attrs_define
class Delivery:
    """ 
        Attributes:
            attempts (int):
            created (datetime.datetime):
            delivered_at (datetime.datetime | None):
            error (str): 'not delivered' (in the request's language) after a failed attempt, else empty (details: server
                log).
            event_id (int):
            id (int):
            state (str): pending (queued or being sent, retries included), delivered or failed.
     """

    attempts: int
    created: datetime.datetime
    delivered_at: datetime.datetime | None
    error: str
    event_id: int
    id: int
    state: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        created = self.created.isoformat()

        delivered_at: None | str
        if isinstance(self.delivered_at, datetime.datetime):
            delivered_at = self.delivered_at.isoformat()
        else:
            delivered_at = self.delivered_at

        error = self.error

        event_id = self.event_id

        id = self.id

        state = self.state


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "attempts": attempts,
            "created": created,
            "delivered_at": delivered_at,
            "error": error,
            "event_id": event_id,
            "id": id,
            "state": state,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempts = d.pop("attempts")

        created = datetime.datetime.fromisoformat(d.pop("created"))




        def _parse_delivered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                delivered_at_type_0 = datetime.datetime.fromisoformat(data)



                return delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        delivered_at = _parse_delivered_at(d.pop("delivered_at"))


        error = d.pop("error")

        event_id = d.pop("event_id")

        id = d.pop("id")

        state = d.pop("state")

        delivery = cls(
            attempts=attempts,
            created=created,
            delivered_at=delivered_at,
            error=error,
            event_id=event_id,
            id=id,
            state=state,
        )


        delivery.additional_properties = d
        return delivery

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
