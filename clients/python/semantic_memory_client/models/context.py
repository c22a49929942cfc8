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





T = TypeVar("T", bound="Context")



@_attrs_define
class Context:
    """ 
        Attributes:
            created_at (datetime.datetime):
            entries (list[ContextEntry]):
            id (int):
            owner (str):
            title (str):
            updated_at (datetime.datetime):
     """

    created_at: datetime.datetime
    entries: list[ContextEntry]
    id: int
    owner: str
    title: str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.context_entry import ContextEntry # noqa: PLC0415
        created_at = self.created_at.isoformat()

        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)



        id = self.id

        owner = self.owner

        title = self.title

        updated_at = self.updated_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "entries": entries,
            "id": id,
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




        entries = []
        _entries = d.pop("entries")
        for entries_item_data in (_entries):
            entries_item = ContextEntry.from_dict(entries_item_data)



            entries.append(entries_item)


        id = d.pop("id")

        owner = d.pop("owner")

        title = d.pop("title")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        context = cls(
            created_at=created_at,
            entries=entries,
            id=id,
            owner=owner,
            title=title,
            updated_at=updated_at,
        )


        context.additional_properties = d
        return context

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
