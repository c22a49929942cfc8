from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.export_row_type_enum import ExportRowTypeEnum
from typing import cast

if TYPE_CHECKING:
  from ..models.export_row_data import ExportRowData





T = TypeVar("T", bound="ExportRow")



@_attrs_define
class ExportRow:
    """ 
        Attributes:
            data (ExportRowData): The row's columns (relations as ids, no vectors).
            kind (str):
            model (str):
            type_ (ExportRowTypeEnum): * `row` - row
     """

    data: ExportRowData
    kind: str
    model: str
    type_: ExportRowTypeEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.export_row_data import ExportRowData # noqa: PLC0415
        data = self.data.to_dict()

        kind = self.kind

        model = self.model

        type_ = self.type_.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "data": data,
            "kind": kind,
            "model": model,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.export_row_data import ExportRowData # noqa: PLC0415
        d = dict(src_dict)
        data = ExportRowData.from_dict(d.pop("data"))




        kind = d.pop("kind")

        model = d.pop("model")

        type_ = ExportRowTypeEnum(d.pop("type"))




        export_row = cls(
            data=data,
            kind=kind,
            model=model,
            type_=type_,
        )


        export_row.additional_properties = d
        return export_row

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
