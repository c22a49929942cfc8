from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.message_kind_enum import MessageKindEnum
from ..models.role_enum import RoleEnum
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.memory_search_filter_time_range_type_0 import MemorySearchFilterTimeRangeType0





T = TypeVar("T", bound="MemorySearchFilter")



@_attrs_define
class MemorySearchFilter:
    """ Narrow the search; every key is optional and null means absent.

        Attributes:
            chat_id (None | str | Unset):
            kind (MessageKindEnum | None | Unset):
            role (None | RoleEnum | Unset):
            time_range (MemorySearchFilterTimeRangeType0 | None | Unset):
     """

    chat_id: None | str | Unset = UNSET
    kind: MessageKindEnum | None | Unset = UNSET
    role: None | RoleEnum | Unset = UNSET
    time_range: MemorySearchFilterTimeRangeType0 | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.memory_search_filter_time_range_type_0 import MemorySearchFilterTimeRangeType0 # noqa: PLC0415
        chat_id: None | str | Unset
        if isinstance(self.chat_id, Unset):
            chat_id = UNSET
        else:
            chat_id = self.chat_id

        kind: None | str | Unset
        if isinstance(self.kind, Unset):
            kind = UNSET
        elif isinstance(self.kind, MessageKindEnum):
            kind = self.kind.value
        else:
            kind = self.kind

        role: None | str | Unset
        if isinstance(self.role, Unset):
            role = UNSET
        elif isinstance(self.role, RoleEnum):
            role = self.role.value
        else:
            role = self.role

        time_range: dict[str, Any] | None | Unset
        if isinstance(self.time_range, Unset):
            time_range = UNSET
        elif isinstance(self.time_range, MemorySearchFilterTimeRangeType0):
            time_range = self.time_range.to_dict()
        else:
            time_range = self.time_range


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if chat_id is not UNSET:
            field_dict["chat_id"] = chat_id
        if kind is not UNSET:
            field_dict["kind"] = kind
        if role is not UNSET:
            field_dict["role"] = role
        if time_range is not UNSET:
            field_dict["time_range"] = time_range

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory_search_filter_time_range_type_0 import MemorySearchFilterTimeRangeType0 # noqa: PLC0415
        d = dict(src_dict)
        def _parse_chat_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        chat_id = _parse_chat_id(d.pop("chat_id", UNSET))


        def _parse_kind(data: object) -> MessageKindEnum | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                kind_type_0 = MessageKindEnum(data)



                return kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MessageKindEnum | None | Unset, data)

        kind = _parse_kind(d.pop("kind", UNSET))


        def _parse_role(data: object) -> None | RoleEnum | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                role_type_0 = RoleEnum(data)



                return role_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RoleEnum | Unset, data)

        role = _parse_role(d.pop("role", UNSET))


        def _parse_time_range(data: object) -> MemorySearchFilterTimeRangeType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                time_range_type_0 = MemorySearchFilterTimeRangeType0.from_dict(data)



                return time_range_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MemorySearchFilterTimeRangeType0 | None | Unset, data)

        time_range = _parse_time_range(d.pop("time_range", UNSET))


        memory_search_filter = cls(
            chat_id=chat_id,
            kind=kind,
            role=role,
            time_range=time_range,
        )

        return memory_search_filter

