from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.chunk_state_enum import ChunkStateEnum
from typing import cast
import datetime






T = TypeVar("T", bound="ChapterSummary")



@_attrs_define
class ChapterSummary:
    """ 
        Attributes:
            block_count (int):
            book (int):
            chunk_error (str):
            chunk_state (ChunkStateEnum): * `pending` - pending
                * `running` - running
                * `ready` - ready
                * `failed` - failed
            chunked_at (datetime.datetime | None):
            id (int):
            length (int): Characters in its blocks.
            sequence (int): The chapter's order in the book.
            title (str):
     """

    block_count: int
    book: int
    chunk_error: str
    chunk_state: ChunkStateEnum
    chunked_at: datetime.datetime | None
    id: int
    length: int
    sequence: int
    title: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        block_count = self.block_count

        book = self.book

        chunk_error = self.chunk_error

        chunk_state = self.chunk_state.value

        chunked_at: None | str
        if isinstance(self.chunked_at, datetime.datetime):
            chunked_at = self.chunked_at.isoformat()
        else:
            chunked_at = self.chunked_at

        id = self.id

        length = self.length

        sequence = self.sequence

        title = self.title


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "block_count": block_count,
            "book": book,
            "chunk_error": chunk_error,
            "chunk_state": chunk_state,
            "chunked_at": chunked_at,
            "id": id,
            "length": length,
            "sequence": sequence,
            "title": title,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        block_count = d.pop("block_count")

        book = d.pop("book")

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


        id = d.pop("id")

        length = d.pop("length")

        sequence = d.pop("sequence")

        title = d.pop("title")

        chapter_summary = cls(
            block_count=block_count,
            book=book,
            chunk_error=chunk_error,
            chunk_state=chunk_state,
            chunked_at=chunked_at,
            id=id,
            length=length,
            sequence=sequence,
            title=title,
        )


        chapter_summary.additional_properties = d
        return chapter_summary

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
