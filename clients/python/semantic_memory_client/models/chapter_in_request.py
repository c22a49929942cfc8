from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.writing_block_in_request import WritingBlockInRequest





T = TypeVar("T", bound="ChapterInRequest")



@_attrs_define
class ChapterInRequest:
    """ 
        Attributes:
            blocks (list[WritingBlockInRequest]):
            book (int):
            sequence (int):
            title (str):
     """

    blocks: list[WritingBlockInRequest]
    book: int
    sequence: int
    title: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.writing_block_in_request import WritingBlockInRequest # noqa: PLC0415
        blocks = []
        for blocks_item_data in self.blocks:
            blocks_item = blocks_item_data.to_dict()
            blocks.append(blocks_item)



        book = self.book

        sequence = self.sequence

        title = self.title


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "blocks": blocks,
            "book": book,
            "sequence": sequence,
            "title": title,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.writing_block_in_request import WritingBlockInRequest # noqa: PLC0415
        d = dict(src_dict)
        blocks = []
        _blocks = d.pop("blocks")
        for blocks_item_data in (_blocks):
            blocks_item = WritingBlockInRequest.from_dict(blocks_item_data)



            blocks.append(blocks_item)


        book = d.pop("book")

        sequence = d.pop("sequence")

        title = d.pop("title")

        chapter_in_request = cls(
            blocks=blocks,
            book=book,
            sequence=sequence,
            title=title,
        )

        return chapter_in_request

