from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.location_request import LocationRequest





T = TypeVar("T", bound="ChatRequestRequest")



@_attrs_define
class ChatRequestRequest:
    """ 
        Attributes:
            message (str):
            chat_id (None | str | Unset):
            context_id (int | None | Unset): The shared context the agent reads (one of yours); default: your most recently
                updated one.
            location (LocationRequest | None | Unset): The client's position; used for 附近 (nearby).
     """

    message: str
    chat_id: None | str | Unset = UNSET
    context_id: int | None | Unset = UNSET
    location: LocationRequest | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.location_request import LocationRequest # noqa: PLC0415
        message = self.message

        chat_id: None | str | Unset
        if isinstance(self.chat_id, Unset):
            chat_id = UNSET
        else:
            chat_id = self.chat_id

        context_id: int | None | Unset
        if isinstance(self.context_id, Unset):
            context_id = UNSET
        else:
            context_id = self.context_id

        location: dict[str, Any] | None | Unset
        if isinstance(self.location, Unset):
            location = UNSET
        elif isinstance(self.location, LocationRequest):
            location = self.location.to_dict()
        else:
            location = self.location


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "message": message,
        })
        if chat_id is not UNSET:
            field_dict["chat_id"] = chat_id
        if context_id is not UNSET:
            field_dict["context_id"] = context_id
        if location is not UNSET:
            field_dict["location"] = location

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.location_request import LocationRequest # noqa: PLC0415
        d = dict(src_dict)
        message = d.pop("message")

        def _parse_chat_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        chat_id = _parse_chat_id(d.pop("chat_id", UNSET))


        def _parse_context_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        context_id = _parse_context_id(d.pop("context_id", UNSET))


        def _parse_location(data: object) -> LocationRequest | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                location_type_0 = LocationRequest.from_dict(data)



                return location_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LocationRequest | None | Unset, data)

        location = _parse_location(d.pop("location", UNSET))


        chat_request_request = cls(
            message=message,
            chat_id=chat_id,
            context_id=context_id,
            location=location,
        )

        return chat_request_request

