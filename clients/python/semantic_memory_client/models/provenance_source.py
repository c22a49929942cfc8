from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.message_kind_enum import MessageKindEnum
from typing import cast

if TYPE_CHECKING:
  from ..models.provenance_covers import ProvenanceCovers





T = TypeVar("T", bound="ProvenanceSource")



@_attrs_define
class ProvenanceSource:
    """ 
        Attributes:
            chat_id (str):
            covers (None | ProvenanceCovers): Summaries: the range of the chat they stand for.
            edited_at (None | str):
            message_id (str):
            ts (str):
            type_ (MessageKindEnum): * `message` - message
                * `summary` - summary
     """

    chat_id: str
    covers: None | ProvenanceCovers
    edited_at: None | str
    message_id: str
    ts: str
    type_: MessageKindEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.provenance_covers import ProvenanceCovers # noqa: PLC0415
        chat_id = self.chat_id

        covers: dict[str, Any] | None
        if isinstance(self.covers, ProvenanceCovers):
            covers = self.covers.to_dict()
        else:
            covers = self.covers

        edited_at: None | str
        edited_at = self.edited_at

        message_id = self.message_id

        ts = self.ts

        type_ = self.type_.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chat_id": chat_id,
            "covers": covers,
            "edited_at": edited_at,
            "message_id": message_id,
            "ts": ts,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.provenance_covers import ProvenanceCovers # noqa: PLC0415
        d = dict(src_dict)
        chat_id = d.pop("chat_id")

        def _parse_covers(data: object) -> None | ProvenanceCovers:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                covers_type_0 = ProvenanceCovers.from_dict(data)



                return covers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ProvenanceCovers, data)

        covers = _parse_covers(d.pop("covers"))


        def _parse_edited_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        edited_at = _parse_edited_at(d.pop("edited_at"))


        message_id = d.pop("message_id")

        ts = d.pop("ts")

        type_ = MessageKindEnum(d.pop("type"))




        provenance_source = cls(
            chat_id=chat_id,
            covers=covers,
            edited_at=edited_at,
            message_id=message_id,
            ts=ts,
            type_=type_,
        )


        provenance_source.additional_properties = d
        return provenance_source

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
