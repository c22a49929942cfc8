from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.message import Message





T = TypeVar("T", bound="ChatContextOut")



@_attrs_define
class ChatContextOut:
    """ 
        Attributes:
            chat_id (str):
            messages (list[Message]):
            summary (Message | None):
            truncated (bool):
            used_chars (int):
     """

    chat_id: str
    messages: list[Message]
    summary: Message | None
    truncated: bool
    used_chars: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.message import Message # noqa: PLC0415
        chat_id = self.chat_id

        messages = []
        for messages_item_data in self.messages:
            messages_item = messages_item_data.to_dict()
            messages.append(messages_item)



        summary: dict[str, Any] | None
        if isinstance(self.summary, Message):
            summary = self.summary.to_dict()
        else:
            summary = self.summary

        truncated = self.truncated

        used_chars = self.used_chars


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chat_id": chat_id,
            "messages": messages,
            "summary": summary,
            "truncated": truncated,
            "used_chars": used_chars,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.message import Message # noqa: PLC0415
        d = dict(src_dict)
        chat_id = d.pop("chat_id")

        messages = []
        _messages = d.pop("messages")
        for messages_item_data in (_messages):
            messages_item = Message.from_dict(messages_item_data)



            messages.append(messages_item)


        def _parse_summary(data: object) -> Message | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                summary_type_0 = Message.from_dict(data)



                return summary_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Message | None, data)

        summary = _parse_summary(d.pop("summary"))


        truncated = d.pop("truncated")

        used_chars = d.pop("used_chars")

        chat_context_out = cls(
            chat_id=chat_id,
            messages=messages,
            summary=summary,
            truncated=truncated,
            used_chars=used_chars,
        )


        chat_context_out.additional_properties = d
        return chat_context_out

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
