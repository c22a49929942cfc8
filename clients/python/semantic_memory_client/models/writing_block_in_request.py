from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="WritingBlockInRequest")



@_attrs_define
class WritingBlockInRequest:
    """ 
        Attributes:
            content (str):
     """

    content: str





    def to_dict(self) -> dict[str, Any]:
        content = self.content


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "content": content,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        content = d.pop("content")

        writing_block_in_request = cls(
            content=content,
        )

        return writing_block_in_request

