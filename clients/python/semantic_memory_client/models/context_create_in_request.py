from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="ContextCreateInRequest")



@_attrs_define
class ContextCreateInRequest:
    """ 
        Attributes:
            agent_name (str):
            entry (str): The first entry.
            title (str):
            user_id (str | Unset): Owner; default: the caller.
     """

    agent_name: str
    entry: str
    title: str
    user_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        agent_name = self.agent_name

        entry = self.entry

        title = self.title

        user_id = self.user_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agent_name": agent_name,
            "entry": entry,
            "title": title,
        })
        if user_id is not UNSET:
            field_dict["user_id"] = user_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent_name = d.pop("agent_name")

        entry = d.pop("entry")

        title = d.pop("title")

        user_id = d.pop("user_id", UNSET)

        context_create_in_request = cls(
            agent_name=agent_name,
            entry=entry,
            title=title,
            user_id=user_id,
        )

        return context_create_in_request

