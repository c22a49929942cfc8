from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.writing_search_child import WritingSearchChild





T = TypeVar("T", bound="WritingSearchResult")



@_attrs_define
class WritingSearchResult:
    """ 
        Attributes:
            blocks (list[int]):
            chapter_id (int):
            children (list[WritingSearchChild]):
            lexical (float): Best full-text rank of the parent's children relative to the query's best (0 to 1; 0 in a
                degraded answer).
            parent_id (int):
            raw_score (float):
            score (float): raw_score (times sqrt(median_size / parent size) when normalised) + 0.03 * lexical.
            text (str): At most context_window_chars around the best child.
            text_end (int):
            text_start (int):
     """

    blocks: list[int]
    chapter_id: int
    children: list[WritingSearchChild]
    lexical: float
    parent_id: int
    raw_score: float
    score: float
    text: str
    text_end: int
    text_start: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.writing_search_child import WritingSearchChild # noqa: PLC0415
        blocks = self.blocks



        chapter_id = self.chapter_id

        children = []
        for children_item_data in self.children:
            children_item = children_item_data.to_dict()
            children.append(children_item)



        lexical = self.lexical

        parent_id = self.parent_id

        raw_score = self.raw_score

        score = self.score

        text = self.text

        text_end = self.text_end

        text_start = self.text_start


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "blocks": blocks,
            "chapter_id": chapter_id,
            "children": children,
            "lexical": lexical,
            "parent_id": parent_id,
            "raw_score": raw_score,
            "score": score,
            "text": text,
            "text_end": text_end,
            "text_start": text_start,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.writing_search_child import WritingSearchChild # noqa: PLC0415
        d = dict(src_dict)
        blocks = cast(list[int], d.pop("blocks"))


        chapter_id = d.pop("chapter_id")

        children = []
        _children = d.pop("children")
        for children_item_data in (_children):
            children_item = WritingSearchChild.from_dict(children_item_data)



            children.append(children_item)


        lexical = d.pop("lexical")

        parent_id = d.pop("parent_id")

        raw_score = d.pop("raw_score")

        score = d.pop("score")

        text = d.pop("text")

        text_end = d.pop("text_end")

        text_start = d.pop("text_start")

        writing_search_result = cls(
            blocks=blocks,
            chapter_id=chapter_id,
            children=children,
            lexical=lexical,
            parent_id=parent_id,
            raw_score=raw_score,
            score=score,
            text=text,
            text_end=text_end,
            text_start=text_start,
        )


        writing_search_result.additional_properties = d
        return writing_search_result

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
