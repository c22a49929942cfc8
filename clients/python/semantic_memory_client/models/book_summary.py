from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.chunk_progress import ChunkProgress





T = TypeVar("T", bound="BookSummary")



@_attrs_define
class BookSummary:
    """ 
        Attributes:
            chapter_count (int):
            chunking (ChunkProgress):
            created_at (datetime.datetime):
            id (int):
            title (str):
     """

    chapter_count: int
    chunking: ChunkProgress
    created_at: datetime.datetime
    id: int
    title: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.chunk_progress import ChunkProgress # noqa: PLC0415
        chapter_count = self.chapter_count

        chunking = self.chunking.to_dict()

        created_at = self.created_at.isoformat()

        id = self.id

        title = self.title


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chapter_count": chapter_count,
            "chunking": chunking,
            "created_at": created_at,
            "id": id,
            "title": title,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.chunk_progress import ChunkProgress # noqa: PLC0415
        d = dict(src_dict)
        chapter_count = d.pop("chapter_count")

        chunking = ChunkProgress.from_dict(d.pop("chunking"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = d.pop("id")

        title = d.pop("title")

        book_summary = cls(
            chapter_count=chapter_count,
            chunking=chunking,
            created_at=created_at,
            id=id,
            title=title,
        )


        book_summary.additional_properties = d
        return book_summary

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
