from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.chapter_summary import ChapterSummary
  from ..models.chunk_progress import ChunkProgress





T = TypeVar("T", bound="BookDetailOut")



@_attrs_define
class BookDetailOut:
    """ 
        Attributes:
            chapter_count (int):
            chapters (list[ChapterSummary]): Every chapter, in order.
            chunking (ChunkProgress):
            created_at (datetime.datetime):
            id (int):
            title (str):
     """

    chapter_count: int
    chapters: list[ChapterSummary]
    chunking: ChunkProgress
    created_at: datetime.datetime
    id: int
    title: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.chapter_summary import ChapterSummary # noqa: PLC0415
        from ..models.chunk_progress import ChunkProgress # noqa: PLC0415
        chapter_count = self.chapter_count

        chapters = []
        for chapters_item_data in self.chapters:
            chapters_item = chapters_item_data.to_dict()
            chapters.append(chapters_item)



        chunking = self.chunking.to_dict()

        created_at = self.created_at.isoformat()

        id = self.id

        title = self.title


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chapter_count": chapter_count,
            "chapters": chapters,
            "chunking": chunking,
            "created_at": created_at,
            "id": id,
            "title": title,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.chapter_summary import ChapterSummary # noqa: PLC0415
        from ..models.chunk_progress import ChunkProgress # noqa: PLC0415
        d = dict(src_dict)
        chapter_count = d.pop("chapter_count")

        chapters = []
        _chapters = d.pop("chapters")
        for chapters_item_data in (_chapters):
            chapters_item = ChapterSummary.from_dict(chapters_item_data)



            chapters.append(chapters_item)


        chunking = ChunkProgress.from_dict(d.pop("chunking"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = d.pop("id")

        title = d.pop("title")

        book_detail_out = cls(
            chapter_count=chapter_count,
            chapters=chapters,
            chunking=chunking,
            created_at=created_at,
            id=id,
            title=title,
        )


        book_detail_out.additional_properties = d
        return book_detail_out

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
