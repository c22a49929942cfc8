from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.highlight import Highlight
  from ..models.lexical_search_out_items_item import LexicalSearchOutItemsItem
  from ..models.memory_understood import MemoryUnderstood
  from ..models.score import Score





T = TypeVar("T", bound="LexicalSearchOut")



@_attrs_define
class LexicalSearchOut:
    """ 
        Attributes:
            highlights (list[Highlight]):
            items (list[LexicalSearchOutItemsItem]): Message items (the requested fields), each with its `provenance`.
            scores (list[Score]):
            next_cursor (str | Unset):
            understood (MemoryUnderstood | None | Unset): The time phrase understood, or null (no phrase read, or
                understand: false).
     """

    highlights: list[Highlight]
    items: list[LexicalSearchOutItemsItem]
    scores: list[Score]
    next_cursor: str | Unset = UNSET
    understood: MemoryUnderstood | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.highlight import Highlight # noqa: PLC0415
        from ..models.lexical_search_out_items_item import LexicalSearchOutItemsItem # noqa: PLC0415
        from ..models.memory_understood import MemoryUnderstood # noqa: PLC0415
        from ..models.score import Score # noqa: PLC0415
        highlights = []
        for highlights_item_data in self.highlights:
            highlights_item = highlights_item_data.to_dict()
            highlights.append(highlights_item)



        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)



        scores = []
        for scores_item_data in self.scores:
            scores_item = scores_item_data.to_dict()
            scores.append(scores_item)



        next_cursor = self.next_cursor

        understood: dict[str, Any] | None | Unset
        if isinstance(self.understood, Unset):
            understood = UNSET
        elif isinstance(self.understood, MemoryUnderstood):
            understood = self.understood.to_dict()
        else:
            understood = self.understood


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "highlights": highlights,
            "items": items,
            "scores": scores,
        })
        if next_cursor is not UNSET:
            field_dict["next_cursor"] = next_cursor
        if understood is not UNSET:
            field_dict["understood"] = understood

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.highlight import Highlight # noqa: PLC0415
        from ..models.lexical_search_out_items_item import LexicalSearchOutItemsItem # noqa: PLC0415
        from ..models.memory_understood import MemoryUnderstood # noqa: PLC0415
        from ..models.score import Score # noqa: PLC0415
        d = dict(src_dict)
        highlights = []
        _highlights = d.pop("highlights")
        for highlights_item_data in (_highlights):
            highlights_item = Highlight.from_dict(highlights_item_data)



            highlights.append(highlights_item)


        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            items_item = LexicalSearchOutItemsItem.from_dict(items_item_data)



            items.append(items_item)


        scores = []
        _scores = d.pop("scores")
        for scores_item_data in (_scores):
            scores_item = Score.from_dict(scores_item_data)



            scores.append(scores_item)


        next_cursor = d.pop("next_cursor", UNSET)

        def _parse_understood(data: object) -> MemoryUnderstood | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                understood_type_0 = MemoryUnderstood.from_dict(data)



                return understood_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MemoryUnderstood | None | Unset, data)

        understood = _parse_understood(d.pop("understood", UNSET))


        lexical_search_out = cls(
            highlights=highlights,
            items=items,
            scores=scores,
            next_cursor=next_cursor,
            understood=understood,
        )


        lexical_search_out.additional_properties = d
        return lexical_search_out

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
