from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.role_enum import RoleEnum
from ..types import UNSET, Unset






T = TypeVar("T", bound="MessageItemInRequest")



@_attrs_define
class MessageItemInRequest:
    """ 
        Attributes:
            content (str):
            role (RoleEnum): * `user` - user
                * `assistant` - assistant
                * `system` - system
            ts (str): RFC 3339 timestamp with a time zone, from 1970-01-01T00:00:00Z up to (not including)
                2100-01-01T00:00:00Z.
            chat_id (str | Unset):
            message_id (str | Unset):
            speaker (str | Unset): Who said it, by name ("Caroline"); optional. Hybrid search ranks the turns of a speaker
                the question names first.
     """

    content: str
    role: RoleEnum
    ts: str
    chat_id: str | Unset = UNSET
    message_id: str | Unset = UNSET
    speaker: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        content = self.content

        role = self.role.value

        ts = self.ts

        chat_id = self.chat_id

        message_id = self.message_id

        speaker = self.speaker


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "content": content,
            "role": role,
            "ts": ts,
        })
        if chat_id is not UNSET:
            field_dict["chat_id"] = chat_id
        if message_id is not UNSET:
            field_dict["message_id"] = message_id
        if speaker is not UNSET:
            field_dict["speaker"] = speaker

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        content = d.pop("content")

        role = RoleEnum(d.pop("role"))




        ts = d.pop("ts")

        chat_id = d.pop("chat_id", UNSET)

        message_id = d.pop("message_id", UNSET)

        speaker = d.pop("speaker", UNSET)

        message_item_in_request = cls(
            content=content,
            role=role,
            ts=ts,
            chat_id=chat_id,
            message_id=message_id,
            speaker=speaker,
        )

        return message_item_in_request

