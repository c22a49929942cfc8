from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.writing_block_in_request import WritingBlockInRequest





T = TypeVar("T", bound="ChapterSaveRequest")



@_attrs_define
class ChapterSaveRequest:
    """ 
        Attributes:
            blocks (list[WritingBlockInRequest]):
            book (int | Unset): Must match the chapter's book.
            sequence (int | Unset):
            title (str | Unset):
     """

    blocks: list[WritingBlockInRequest]
    book: int | Unset = UNSET
    sequence: int | Unset = UNSET
    title: str | Unset = UNSET





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
        })
        if book is not UNSET:
            field_dict["book"] = book
        if sequence is not UNSET:
            field_dict["sequence"] = sequence
        if title is not UNSET:
            field_dict["title"] = title

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


        book = d.pop("book", UNSET)

        sequence = d.pop("sequence", UNSET)

        title = d.pop("title", UNSET)

        chapter_save_request = cls(
            blocks=blocks,
            book=book,
            sequence=sequence,
            title=title,
        )

        return chapter_save_request

