from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="WritingSearchChild")



@_attrs_define
class WritingSearchChild:
    """ 
        Attributes:
            end (int):
            id (int):
            score (float): Cosine similarity to the query (its ts_rank_cd in a degraded answer).
            start (int): Offset in the parent text.
     """

    end: int
    id: int
    score: float
    start: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        end = self.end

        id = self.id

        score = self.score

        start = self.start


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "end": end,
            "id": id,
            "score": score,
            "start": start,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        end = d.pop("end")

        id = d.pop("id")

        score = d.pop("score")

        start = d.pop("start")

        writing_search_child = cls(
            end=end,
            id=id,
            score=score,
            start=start,
        )


        writing_search_child.additional_properties = d
        return writing_search_child

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
