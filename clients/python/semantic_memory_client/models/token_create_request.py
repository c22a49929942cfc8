from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="TokenCreateRequest")



@_attrs_define
class TokenCreateRequest:
    """ 
        Attributes:
            expires_in_days (int | None | Unset): Lifetime in days; null or absent: no expiry.
            name (str | Unset):  Default: ''.
     """

    expires_in_days: int | None | Unset = UNSET
    name: str | Unset = ''





    def to_dict(self) -> dict[str, Any]:
        expires_in_days: int | None | Unset
        if isinstance(self.expires_in_days, Unset):
            expires_in_days = UNSET
        else:
            expires_in_days = self.expires_in_days

        name = self.name


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if expires_in_days is not UNSET:
            field_dict["expires_in_days"] = expires_in_days
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_expires_in_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expires_in_days = _parse_expires_in_days(d.pop("expires_in_days", UNSET))


        name = d.pop("name", UNSET)

        token_create_request = cls(
            expires_in_days=expires_in_days,
            name=name,
        )

        return token_create_request

