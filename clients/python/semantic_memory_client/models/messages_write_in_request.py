from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.message_item_in_request import MessageItemInRequest





T = TypeVar("T", bound="MessagesWriteInRequest")



@_attrs_define
class MessagesWriteInRequest:
    """ 
        Attributes:
            items (list[MessageItemInRequest]): 1 to 500 messages, stored atomically.
     """

    items: list[MessageItemInRequest]





    def to_dict(self) -> dict[str, Any]:
        from ..models.message_item_in_request import MessageItemInRequest # noqa: PLC0415
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "items": items,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.message_item_in_request import MessageItemInRequest # noqa: PLC0415
        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            items_item = MessageItemInRequest.from_dict(items_item_data)



            items.append(items_item)


        messages_write_in_request = cls(
            items=items,
        )

        return messages_write_in_request

