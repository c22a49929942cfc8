from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.message_kind_enum import MessageKindEnum
from ..models.role_enum import RoleEnum
from typing import cast






T = TypeVar("T", bound="Message")



@_attrs_define
class Message:
    """ 
        Attributes:
            chat_id (str):
            content (str):
            edited_at (None | str): When the content was last corrected (null: as written).
            embed_state (str):
            kind (MessageKindEnum): * `message` - message
                * `summary` - summary
            message_id (str):
            role (RoleEnum): * `user` - user
                * `assistant` - assistant
                * `system` - system
            speaker (str): Who said it, by name (empty: not given).
            stale (bool): Summaries: a message it covers changed and an LLM wrote it (may be outdated).
            summarised (bool):
            ts (str):
            user_id (str):
     """

    chat_id: str
    content: str
    edited_at: None | str
    embed_state: str
    kind: MessageKindEnum
    message_id: str
    role: RoleEnum
    speaker: str
    stale: bool
    summarised: bool
    ts: str
    user_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        chat_id = self.chat_id

        content = self.content

        edited_at: None | str
        edited_at = self.edited_at

        embed_state = self.embed_state

        kind = self.kind.value

        message_id = self.message_id

        role = self.role.value

        speaker = self.speaker

        stale = self.stale

        summarised = self.summarised

        ts = self.ts

        user_id = self.user_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chat_id": chat_id,
            "content": content,
            "edited_at": edited_at,
            "embed_state": embed_state,
            "kind": kind,
            "message_id": message_id,
            "role": role,
            "speaker": speaker,
            "stale": stale,
            "summarised": summarised,
            "ts": ts,
            "user_id": user_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chat_id = d.pop("chat_id")

        content = d.pop("content")

        def _parse_edited_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        edited_at = _parse_edited_at(d.pop("edited_at"))


        embed_state = d.pop("embed_state")

        kind = MessageKindEnum(d.pop("kind"))




        message_id = d.pop("message_id")

        role = RoleEnum(d.pop("role"))




        speaker = d.pop("speaker")

        stale = d.pop("stale")

        summarised = d.pop("summarised")

        ts = d.pop("ts")

        user_id = d.pop("user_id")

        message = cls(
            chat_id=chat_id,
            content=content,
            edited_at=edited_at,
            embed_state=embed_state,
            kind=kind,
            message_id=message_id,
            role=role,
            speaker=speaker,
            stale=stale,
            summarised=summarised,
            ts=ts,
            user_id=user_id,
        )


        message.additional_properties = d
        return message

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
