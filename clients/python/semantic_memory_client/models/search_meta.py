from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.degraded_reason_enum import DegradedReasonEnum
from typing import cast

if TYPE_CHECKING:
  from ..models.understood import Understood





T = TypeVar("T", bound="SearchMeta")



@_attrs_define
class SearchMeta:
    """ 
        Attributes:
            candidates (int):
            degraded (bool): True when the query could not be embedded in time: hard-filter order.
            degraded_reason (DegradedReasonEnum | None): Why the search is degraded (null when it is not).

                * `embedding_failed` - embedding_failed
                * `embedding_timeout` - embedding_timeout
                * `embedding_unavailable` - embedding_unavailable
            path (str):
            understood (Understood):
     """

    candidates: int
    degraded: bool
    degraded_reason: DegradedReasonEnum | None
    path: str
    understood: Understood
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.understood import Understood # noqa: PLC0415
        candidates = self.candidates

        degraded = self.degraded

        degraded_reason: None | str
        if isinstance(self.degraded_reason, DegradedReasonEnum):
            degraded_reason = self.degraded_reason.value
        else:
            degraded_reason = self.degraded_reason

        path = self.path

        understood = self.understood.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "candidates": candidates,
            "degraded": degraded,
            "degradedReason": degraded_reason,
            "path": path,
            "understood": understood,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.understood import Understood # noqa: PLC0415
        d = dict(src_dict)
        candidates = d.pop("candidates")

        degraded = d.pop("degraded")

        def _parse_degraded_reason(data: object) -> DegradedReasonEnum | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                degraded_reason_type_0 = DegradedReasonEnum(data)



                return degraded_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DegradedReasonEnum | None, data)

        degraded_reason = _parse_degraded_reason(d.pop("degradedReason"))


        path = d.pop("path")

        understood = Understood.from_dict(d.pop("understood"))




        search_meta = cls(
            candidates=candidates,
            degraded=degraded,
            degraded_reason=degraded_reason,
            path=path,
            understood=understood,
        )


        search_meta.additional_properties = d
        return search_meta

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
