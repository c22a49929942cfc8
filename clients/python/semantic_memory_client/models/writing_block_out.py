from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="WritingBlockOut")



@_attrs_define
class WritingBlockOut:
    """ 
        Attributes:
            child_count (int):
            content (str):
            content_hash (str):
            id (int):
            is_dirty (bool):
            order (int):
     """

    child_count: int
    content: str
    content_hash: str
    id: int
    is_dirty: bool
    order: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        child_count = self.child_count

        content = self.content

        content_hash = self.content_hash

        id = self.id

        is_dirty = self.is_dirty

        order = self.order


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "child_count": child_count,
            "content": content,
            "content_hash": content_hash,
            "id": id,
            "is_dirty": is_dirty,
            "order": order,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        child_count = d.pop("child_count")

        content = d.pop("content")

        content_hash = d.pop("content_hash")

        id = d.pop("id")

        is_dirty = d.pop("is_dirty")

        order = d.pop("order")

        writing_block_out = cls(
            child_count=child_count,
            content=content,
            content_hash=content_hash,
            id=id,
            is_dirty=is_dirty,
            order=order,
        )


        writing_block_out.additional_properties = d
        return writing_block_out

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
