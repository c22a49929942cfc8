from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ContextEntryInRequest")



@_attrs_define
class ContextEntryInRequest:
    """ 
        Attributes:
            agent_name (str):
            content (str):
     """

    agent_name: str
    content: str





    def to_dict(self) -> dict[str, Any]:
        agent_name = self.agent_name

        content = self.content


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agent_name": agent_name,
            "content": content,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent_name = d.pop("agent_name")

        content = d.pop("content")

        context_entry_in_request = cls(
            agent_name=agent_name,
            content=content,
        )

        return context_entry_in_request

