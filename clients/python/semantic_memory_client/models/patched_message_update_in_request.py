from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.role_enum import RoleEnum
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="PatchedMessageUpdateInRequest")



@_attrs_define
class PatchedMessageUpdateInRequest:
    """ 
        Attributes:
            content (str | Unset):
            role (RoleEnum | Unset): * `user` - user
                * `assistant` - assistant
                * `system` - system
            speaker (None | str | Unset): Who said it, by name; at most 100 characters once stripped of surrounding spaces.
                Empty or null clears it (the rule of a write).
     """

    content: str | Unset = UNSET
    role: RoleEnum | Unset = UNSET
    speaker: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        content = self.content

        role: str | Unset = UNSET
        if not isinstance(self.role, Unset):
            role = self.role.value


        speaker: None | str | Unset
        if isinstance(self.speaker, Unset):
            speaker = UNSET
        else:
            speaker = self.speaker


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if content is not UNSET:
            field_dict["content"] = content
        if role is not UNSET:
            field_dict["role"] = role
        if speaker is not UNSET:
            field_dict["speaker"] = speaker

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        content = d.pop("content", UNSET)

        _role = d.pop("role", UNSET)
        role: RoleEnum | Unset
        if isinstance(_role,  Unset):
            role = UNSET
        else:
            role = RoleEnum(_role)




        def _parse_speaker(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        speaker = _parse_speaker(d.pop("speaker", UNSET))


        patched_message_update_in_request = cls(
            content=content,
            role=role,
            speaker=speaker,
        )

        return patched_message_update_in_request

