from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.memory_understood_applied_enum import MemoryUnderstoodAppliedEnum






T = TypeVar("T", bound="MemoryUnderstood")



@_attrs_define
class MemoryUnderstood:
    """ 
        Attributes:
            applied (MemoryUnderstoodAppliedEnum): * `filter` - filter
                * `rank` - rank
                * `none` - none
                * `range` - range
            end (str): Window end, RFC 3339 (exclusive).
            phrase (str): The time phrase read in query_text.
            reason (str):
            start (str): Window start, RFC 3339 (inclusive).
     """

    applied: MemoryUnderstoodAppliedEnum
    end: str
    phrase: str
    reason: str
    start: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        applied = self.applied.value

        end = self.end

        phrase = self.phrase

        reason = self.reason

        start = self.start


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "applied": applied,
            "end": end,
            "phrase": phrase,
            "reason": reason,
            "start": start,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        applied = MemoryUnderstoodAppliedEnum(d.pop("applied"))




        end = d.pop("end")

        phrase = d.pop("phrase")

        reason = d.pop("reason")

        start = d.pop("start")

        memory_understood = cls(
            applied=applied,
            end=end,
            phrase=phrase,
            reason=reason,
            start=start,
        )


        memory_understood.additional_properties = d
        return memory_understood

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
