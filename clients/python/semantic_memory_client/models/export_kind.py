from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="ExportKind")



@_attrs_define
class ExportKind:
    """ 
        Attributes:
            app (str):
            count (int):
            description (str):
            left_out_columns (list[str]):
            model (str):
            name (str): The kind, as in the erasure report.
            rows (bool): Whether this kind's rows follow as `row` lines.
     """

    app: str
    count: int
    description: str
    left_out_columns: list[str]
    model: str
    name: str
    rows: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        app = self.app

        count = self.count

        description = self.description

        left_out_columns = self.left_out_columns



        model = self.model

        name = self.name

        rows = self.rows


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "app": app,
            "count": count,
            "description": description,
            "left_out_columns": left_out_columns,
            "model": model,
            "name": name,
            "rows": rows,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        app = d.pop("app")

        count = d.pop("count")

        description = d.pop("description")

        left_out_columns = cast(list[str], d.pop("left_out_columns"))


        model = d.pop("model")

        name = d.pop("name")

        rows = d.pop("rows")

        export_kind = cls(
            app=app,
            count=count,
            description=description,
            left_out_columns=left_out_columns,
            model=model,
            name=name,
            rows=rows,
        )


        export_kind.additional_properties = d
        return export_kind

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
