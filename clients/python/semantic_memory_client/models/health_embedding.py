from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.checked_enum import CheckedEnum
from ..models.state_enum import StateEnum
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="HealthEmbedding")



@_attrs_define
class HealthEmbedding:
    """ 
        Attributes:
            checked (CheckedEnum): * `recent calls` - recent calls
                * `probe` - probe
            dimensions (int):
            last_error (None | str):
            model (str):
            provider (str):
            state (StateEnum): * `ok` - ok
                * `failing` - failing
                * `unknown` - unknown
            retry_in_seconds (float | None | Unset): Searches skip the provider this much longer.
     """

    checked: CheckedEnum
    dimensions: int
    last_error: None | str
    model: str
    provider: str
    state: StateEnum
    retry_in_seconds: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        checked = self.checked.value

        dimensions = self.dimensions

        last_error: None | str
        last_error = self.last_error

        model = self.model

        provider = self.provider

        state = self.state.value

        retry_in_seconds: float | None | Unset
        if isinstance(self.retry_in_seconds, Unset):
            retry_in_seconds = UNSET
        else:
            retry_in_seconds = self.retry_in_seconds


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "checked": checked,
            "dimensions": dimensions,
            "last_error": last_error,
            "model": model,
            "provider": provider,
            "state": state,
        })
        if retry_in_seconds is not UNSET:
            field_dict["retry_in_seconds"] = retry_in_seconds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        checked = CheckedEnum(d.pop("checked"))




        dimensions = d.pop("dimensions")

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("last_error"))


        model = d.pop("model")

        provider = d.pop("provider")

        state = StateEnum(d.pop("state"))




        def _parse_retry_in_seconds(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        retry_in_seconds = _parse_retry_in_seconds(d.pop("retry_in_seconds", UNSET))


        health_embedding = cls(
            checked=checked,
            dimensions=dimensions,
            last_error=last_error,
            model=model,
            provider=provider,
            state=state,
            retry_in_seconds=retry_in_seconds,
        )


        health_embedding.additional_properties = d
        return health_embedding

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
