from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.stream_tool_result_result import StreamToolResultResult





T = TypeVar("T", bound="StreamToolResult")



@_attrs_define
class StreamToolResult:
    """ 
        Attributes:
            name (str):
            result (StreamToolResultResult):
     """

    name: str
    result: StreamToolResultResult
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.stream_tool_result_result import StreamToolResultResult # noqa: PLC0415
        name = self.name

        result = self.result.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "result": result,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stream_tool_result_result import StreamToolResultResult # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        result = StreamToolResultResult.from_dict(d.pop("result"))




        stream_tool_result = cls(
            name=name,
            result=result,
        )


        stream_tool_result.additional_properties = d
        return stream_tool_result

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
