from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="WebhookCreated")



@_attrs_define
class WebhookCreated:
    """ 
        Attributes:
            active (bool): False when turned off by its owner or disabled after repeated failures.
            all_users (bool):
            created (datetime.datetime):
            disabled_at (datetime.datetime | None): When it was disabled for failing; null while it is not.
            disabled_code (str): Why it was disabled, as a code (consecutive_failures); empty otherwise.
            disabled_reason (str): Why it was disabled, in the request's language; empty otherwise.
            id (int):
            kinds (list[str]):
            secret (str): Shown once: verify X-Memory-Signature = sha256=HMAC-SHA256(secret, '<X-Memory-Timestamp>.<raw
                body>') in hex.
            url (str):
     """

    active: bool
    all_users: bool
    created: datetime.datetime
    disabled_at: datetime.datetime | None
    disabled_code: str
    disabled_reason: str
    id: int
    kinds: list[str]
    secret: str
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        active = self.active

        all_users = self.all_users

        created = self.created.isoformat()

        disabled_at: None | str
        if isinstance(self.disabled_at, datetime.datetime):
            disabled_at = self.disabled_at.isoformat()
        else:
            disabled_at = self.disabled_at

        disabled_code = self.disabled_code

        disabled_reason = self.disabled_reason

        id = self.id

        kinds = self.kinds



        secret = self.secret

        url = self.url


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "active": active,
            "all_users": all_users,
            "created": created,
            "disabled_at": disabled_at,
            "disabled_code": disabled_code,
            "disabled_reason": disabled_reason,
            "id": id,
            "kinds": kinds,
            "secret": secret,
            "url": url,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        active = d.pop("active")

        all_users = d.pop("all_users")

        created = datetime.datetime.fromisoformat(d.pop("created"))




        def _parse_disabled_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                disabled_at_type_0 = datetime.datetime.fromisoformat(data)



                return disabled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        disabled_at = _parse_disabled_at(d.pop("disabled_at"))


        disabled_code = d.pop("disabled_code")

        disabled_reason = d.pop("disabled_reason")

        id = d.pop("id")

        kinds = cast(list[str], d.pop("kinds"))


        secret = d.pop("secret")

        url = d.pop("url")

        webhook_created = cls(
            active=active,
            all_users=all_users,
            created=created,
            disabled_at=disabled_at,
            disabled_code=disabled_code,
            disabled_reason=disabled_reason,
            id=id,
            kinds=kinds,
            secret=secret,
            url=url,
        )


        webhook_created.additional_properties = d
        return webhook_created

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
