from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="PatchedWebhookUpdateRequest")



@_attrs_define
class PatchedWebhookUpdateRequest:
    """ 
        Attributes:
            active (bool | Unset): true turns the webhook back on (clearing a disabling), false turns it off.
     """

    active: bool | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        active = self.active


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if active is not UNSET:
            field_dict["active"] = active

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        active = d.pop("active", UNSET)

        patched_webhook_update_request = cls(
            active=active,
        )

        return patched_webhook_update_request

