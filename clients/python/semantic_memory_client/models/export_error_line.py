from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.export_error_line_type_enum import ExportErrorLineTypeEnum
from typing import cast

if TYPE_CHECKING:
  from ..models.export_error_line_error import ExportErrorLineError





T = TypeVar("T", bound="ExportErrorLine")



@_attrs_define
class ExportErrorLine:
    """ 
        Attributes:
            error (ExportErrorLineError):
            type_ (ExportErrorLineTypeEnum): * `error` - error
     """

    error: ExportErrorLineError
    type_: ExportErrorLineTypeEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.export_error_line_error import ExportErrorLineError # noqa: PLC0415
        error = self.error.to_dict()

        type_ = self.type_.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "error": error,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.export_error_line_error import ExportErrorLineError # noqa: PLC0415
        d = dict(src_dict)
        error = ExportErrorLineError.from_dict(d.pop("error"))




        type_ = ExportErrorLineTypeEnum(d.pop("type"))




        export_error_line = cls(
            error=error,
            type_=type_,
        )


        export_error_line.additional_properties = d
        return export_error_line

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
