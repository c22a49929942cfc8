from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.chunk_state_enum import ChunkStateEnum
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.writing_block_out import WritingBlockOut





T = TypeVar("T", bound="ChapterOut")



@_attrs_define
class ChapterOut:
    """ 
        Attributes:
            blocks (list[WritingBlockOut]):
            book (int):
            child_count (int):
            chunk_error (str):
            chunk_state (ChunkStateEnum): * `pending` - pending
                * `running` - running
                * `ready` - ready
                * `failed` - failed
            chunked_at (datetime.datetime | None):
            chunked_version (int):
            id (int):
            parent_count (int):
            sequence (int):
            title (str):
            version (int):
     """

    blocks: list[WritingBlockOut]
    book: int
    child_count: int
    chunk_error: str
    chunk_state: ChunkStateEnum
    chunked_at: datetime.datetime | None
    chunked_version: int
    id: int
    parent_count: int
    sequence: int
    title: str
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.writing_block_out import WritingBlockOut # noqa: PLC0415
        blocks = []
        for blocks_item_data in self.blocks:
            blocks_item = blocks_item_data.to_dict()
            blocks.append(blocks_item)



        book = self.book

        child_count = self.child_count

        chunk_error = self.chunk_error

        chunk_state = self.chunk_state.value

        chunked_at: None | str
        if isinstance(self.chunked_at, datetime.datetime):
            chunked_at = self.chunked_at.isoformat()
        else:
            chunked_at = self.chunked_at

        chunked_version = self.chunked_version

        id = self.id

        parent_count = self.parent_count

        sequence = self.sequence

        title = self.title

        version = self.version


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "blocks": blocks,
            "book": book,
            "child_count": child_count,
            "chunk_error": chunk_error,
            "chunk_state": chunk_state,
            "chunked_at": chunked_at,
            "chunked_version": chunked_version,
            "id": id,
            "parent_count": parent_count,
            "sequence": sequence,
            "title": title,
            "version": version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.writing_block_out import WritingBlockOut # noqa: PLC0415
        d = dict(src_dict)
        blocks = []
        _blocks = d.pop("blocks")
        for blocks_item_data in (_blocks):
            blocks_item = WritingBlockOut.from_dict(blocks_item_data)



            blocks.append(blocks_item)


        book = d.pop("book")

        child_count = d.pop("child_count")

        chunk_error = d.pop("chunk_error")

        chunk_state = ChunkStateEnum(d.pop("chunk_state"))




        def _parse_chunked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                chunked_at_type_0 = datetime.datetime.fromisoformat(data)



                return chunked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        chunked_at = _parse_chunked_at(d.pop("chunked_at"))


        chunked_version = d.pop("chunked_version")

        id = d.pop("id")

        parent_count = d.pop("parent_count")

        sequence = d.pop("sequence")

        title = d.pop("title")

        version = d.pop("version")

        chapter_out = cls(
            blocks=blocks,
            book=book,
            child_count=child_count,
            chunk_error=chunk_error,
            chunk_state=chunk_state,
            chunked_at=chunked_at,
            chunked_version=chunked_version,
            id=id,
            parent_count=parent_count,
            sequence=sequence,
            title=title,
            version=version,
        )


        chapter_out.additional_properties = d
        return chapter_out

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
