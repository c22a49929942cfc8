from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.understood_time_applied_enum import UnderstoodTimeAppliedEnum
from typing import cast
import datetime






T = TypeVar("T", bound="UnderstoodTime")



@_attrs_define
class UnderstoodTime:
    """ 
        Attributes:
            applied (UnderstoodTimeAppliedEnum): * `filter` - filter
                * `rank` - rank
            end (datetime.datetime | None): End of its window (exclusive).
            phrase (None | str): The time phrase of the query.
            reason (str):
            start (datetime.datetime | None): Start of its window.
     """

    applied: UnderstoodTimeAppliedEnum
    end: datetime.datetime | None
    phrase: None | str
    reason: str
    start: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        applied = self.applied.value

        end: None | str
        if isinstance(self.end, datetime.datetime):
            end = self.end.isoformat()
        else:
            end = self.end

        phrase: None | str
        phrase = self.phrase

        reason = self.reason

        start: None | str
        if isinstance(self.start, datetime.datetime):
            start = self.start.isoformat()
        else:
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
        applied = UnderstoodTimeAppliedEnum(d.pop("applied"))




        def _parse_end(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                end_type_0 = datetime.datetime.fromisoformat(data)



                return end_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        end = _parse_end(d.pop("end"))


        def _parse_phrase(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        phrase = _parse_phrase(d.pop("phrase"))


        reason = d.pop("reason")

        def _parse_start(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                start_type_0 = datetime.datetime.fromisoformat(data)



                return start_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        start = _parse_start(d.pop("start"))


        understood_time = cls(
            applied=applied,
            end=end,
            phrase=phrase,
            reason=reason,
            start=start,
        )


        understood_time.additional_properties = d
        return understood_time

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
