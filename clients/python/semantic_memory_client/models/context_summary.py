from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.context_entry import ContextEntry





T = TypeVar("T", bound="ContextSummary")



@_attrs_define
class ContextSummary:
    """ 
        Attributes:
            created_at (datetime.datetime):
            entry_count (int):
            id (int):
            latest_entry (ContextEntry | None):
            owner (str):
            title (str):
            updated_at (datetime.datetime):
     """

    created_at: datetime.datetime
    entry_count: int
    id: int
    latest_entry: ContextEntry | None
    owner: str
    title: str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.context_entry import ContextEntry # noqa: PLC0415
        created_at = self.created_at.isoformat()

        entry_count = self.entry_count

        id = self.id

        latest_entry: dict[str, Any] | None
        if isinstance(self.latest_entry, ContextEntry):
            latest_entry = self.latest_entry.to_dict()
        else:
            latest_entry = self.latest_entry

        owner = self.owner

        title = self.title

        updated_at = self.updated_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "entry_count": entry_count,
            "id": id,
            "latest_entry": latest_entry,
            "owner": owner,
            "title": title,
            "updated_at": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.context_entry import ContextEntry # noqa: PLC0415
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        entry_count = d.pop("entry_count")

        id = d.pop("id")

        def _parse_latest_entry(data: object) -> ContextEntry | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                latest_entry_type_0 = ContextEntry.from_dict(data)



                return latest_entry_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ContextEntry | None, data)

        latest_entry = _parse_latest_entry(d.pop("latest_entry"))


        owner = d.pop("owner")

        title = d.pop("title")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        context_summary = cls(
            created_at=created_at,
            entry_count=entry_count,
            id=id,
            latest_entry=latest_entry,
            owner=owner,
            title=title,
            updated_at=updated_at,
        )


        context_summary.additional_properties = d
        return context_summary

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
