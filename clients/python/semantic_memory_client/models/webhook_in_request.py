from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.kinds_enum import KindsEnum
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="WebhookInRequest")



@_attrs_define
class WebhookInRequest:
    """ 
        Attributes:
            url (str): http(s) URL that receives a POST.
            all_users (bool | Unset): Staff clients only: every user's events. Default: False.
            kinds (list[KindsEnum] | Unset): Event kinds to send; empty: all.
     """

    url: str
    all_users: bool | Unset = False
    kinds: list[KindsEnum] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        url = self.url

        all_users = self.all_users

        kinds: list[str] | Unset = UNSET
        if not isinstance(self.kinds, Unset):
            kinds = []
            for kinds_item_data in self.kinds:
                kinds_item = kinds_item_data.value
                kinds.append(kinds_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "url": url,
        })
        if all_users is not UNSET:
            field_dict["all_users"] = all_users
        if kinds is not UNSET:
            field_dict["kinds"] = kinds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        all_users = d.pop("all_users", UNSET)

        _kinds = d.pop("kinds", UNSET)
        kinds: list[KindsEnum] | Unset = UNSET
        if _kinds is not UNSET:
            kinds = []
            for kinds_item_data in _kinds:
                kinds_item = KindsEnum(kinds_item_data)



                kinds.append(kinds_item)


        webhook_in_request = cls(
            url=url,
            all_users=all_users,
            kinds=kinds,
        )

        return webhook_in_request

