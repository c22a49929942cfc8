from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.export_manifest_type_enum import ExportManifestTypeEnum
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.export_kind import ExportKind
  from ..models.export_manifest_counts import ExportManifestCounts
  from ..models.export_user import ExportUser





T = TypeVar("T", bound="ExportManifest")



@_attrs_define
class ExportManifest:
    """ 
        Attributes:
            counts (ExportManifestCounts): Exactly the erasure report's counts (DELETE /v1/users/{user_id}).
            format_ (int):
            generated_at (datetime.datetime):
            kinds (list[ExportKind]):
            type_ (ExportManifestTypeEnum): * `manifest` - manifest
            user (ExportUser):
     """

    counts: ExportManifestCounts
    format_: int
    generated_at: datetime.datetime
    kinds: list[ExportKind]
    type_: ExportManifestTypeEnum
    user: ExportUser
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.export_kind import ExportKind # noqa: PLC0415
        from ..models.export_manifest_counts import ExportManifestCounts # noqa: PLC0415
        from ..models.export_user import ExportUser # noqa: PLC0415
        counts = self.counts.to_dict()

        format_ = self.format_

        generated_at = self.generated_at.isoformat()

        kinds = []
        for kinds_item_data in self.kinds:
            kinds_item = kinds_item_data.to_dict()
            kinds.append(kinds_item)



        type_ = self.type_.value

        user = self.user.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "counts": counts,
            "format": format_,
            "generated_at": generated_at,
            "kinds": kinds,
            "type": type_,
            "user": user,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.export_kind import ExportKind # noqa: PLC0415
        from ..models.export_manifest_counts import ExportManifestCounts # noqa: PLC0415
        from ..models.export_user import ExportUser # noqa: PLC0415
        d = dict(src_dict)
        counts = ExportManifestCounts.from_dict(d.pop("counts"))




        format_ = d.pop("format")

        generated_at = datetime.datetime.fromisoformat(d.pop("generated_at"))




        kinds = []
        _kinds = d.pop("kinds")
        for kinds_item_data in (_kinds):
            kinds_item = ExportKind.from_dict(kinds_item_data)



            kinds.append(kinds_item)


        type_ = ExportManifestTypeEnum(d.pop("type"))




        user = ExportUser.from_dict(d.pop("user"))




        export_manifest = cls(
            counts=counts,
            format_=format_,
            generated_at=generated_at,
            kinds=kinds,
            type_=type_,
            user=user,
        )


        export_manifest.additional_properties = d
        return export_manifest

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
