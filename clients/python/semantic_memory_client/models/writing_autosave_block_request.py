from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="WritingAutosaveBlockRequest")



@_attrs_define
class WritingAutosaveBlockRequest:
    """ 
        Attributes:
            content (str):
            id (int | Unset): The block id, or:
            position (int | Unset): Its index.
     """

    content: str
    id: int | Unset = UNSET
    position: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        content = self.content

        id = self.id

        position = self.position


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "content": content,
        })
        if id is not UNSET:
            field_dict["id"] = id
        if position is not UNSET:
            field_dict["position"] = position

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        content = d.pop("content")

        id = d.pop("id", UNSET)

        position = d.pop("position", UNSET)

        writing_autosave_block_request = cls(
            content=content,
            id=id,
            position=position,
        )

        return writing_autosave_block_request

