from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.user_delete_out_deleted import UserDeleteOutDeleted





T = TypeVar("T", bound="UserDeleteOut")



@_attrs_define
class UserDeleteOut:
    """ 
        Attributes:
            deleted (UserDeleteOutDeleted): What was removed, per kind: every kind an app declares in config.userdata
                (messages, books, chapters, activities, agent_events, ...; zeros included), embedding_cache, admin_log_entries
                (scrubbed), task_rows and account (1: the account itself, its token and sessions are deleted too).
     """

    deleted: UserDeleteOutDeleted
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.user_delete_out_deleted import UserDeleteOutDeleted # noqa: PLC0415
        deleted = self.deleted.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "deleted": deleted,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.user_delete_out_deleted import UserDeleteOutDeleted # noqa: PLC0415
        d = dict(src_dict)
        deleted = UserDeleteOutDeleted.from_dict(d.pop("deleted"))




        user_delete_out = cls(
            deleted=deleted,
        )


        user_delete_out.additional_properties = d
        return user_delete_out

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
