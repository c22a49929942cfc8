from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.order_enum import OrderEnum
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="WritingSearchInRequest")



@_attrs_define
class WritingSearchInRequest:
    """ 
        Attributes:
            query (str):
            book (int | None | Unset):
            chapters (list[int] | Unset):
            order (OrderEnum | Unset): * `relevance` - relevance
                * `story` - story Default: OrderEnum.RELEVANCE.
            top_k (int | Unset):  Default: 10.
     """

    query: str
    book: int | None | Unset = UNSET
    chapters: list[int] | Unset = UNSET
    order: OrderEnum | Unset = OrderEnum.RELEVANCE
    top_k: int | Unset = 10





    def to_dict(self) -> dict[str, Any]:
        query = self.query

        book: int | None | Unset
        if isinstance(self.book, Unset):
            book = UNSET
        else:
            book = self.book

        chapters: list[int] | Unset = UNSET
        if not isinstance(self.chapters, Unset):
            chapters = self.chapters



        order: str | Unset = UNSET
        if not isinstance(self.order, Unset):
            order = self.order.value


        top_k = self.top_k


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "query": query,
        })
        if book is not UNSET:
            field_dict["book"] = book
        if chapters is not UNSET:
            field_dict["chapters"] = chapters
        if order is not UNSET:
            field_dict["order"] = order
        if top_k is not UNSET:
            field_dict["top_k"] = top_k

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        query = d.pop("query")

        def _parse_book(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        book = _parse_book(d.pop("book", UNSET))


        chapters = cast(list[int], d.pop("chapters", UNSET))


        _order = d.pop("order", UNSET)
        order: OrderEnum | Unset
        if isinstance(_order,  Unset):
            order = UNSET
        else:
            order = OrderEnum(_order)




        top_k = d.pop("top_k", UNSET)

        writing_search_in_request = cls(
            query=query,
            book=book,
            chapters=chapters,
            order=order,
            top_k=top_k,
        )

        return writing_search_in_request

