from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.degraded_reason_enum import DegradedReasonEnum
from ..models.read_as_enum import ReadAsEnum
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.hybrid_item import HybridItem
  from ..models.memory_understood import MemoryUnderstood





T = TypeVar("T", bound="HybridSearchOut")



@_attrs_define
class HybridSearchOut:
    """ The two fields of every search that embeds its query text.

        Attributes:
            degraded (bool): True when the query text could not be embedded within the time budget (provider down or slow):
                the results are the lexical matches.
            degraded_reason (DegradedReasonEnum | None): Why (null when not degraded).

                * `embedding_failed` - embedding_failed
                * `embedding_timeout` - embedding_timeout
                * `embedding_unavailable` - embedding_unavailable
            items (list[HybridItem]):
            read_as (ReadAsEnum): * `similarity` - similarity
                * `range` - range
            understood (MemoryUnderstood | None | Unset): The time phrase understood, or null (no phrase read, or
                understand: false).
     """

    degraded: bool
    degraded_reason: DegradedReasonEnum | None
    items: list[HybridItem]
    read_as: ReadAsEnum
    understood: MemoryUnderstood | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.hybrid_item import HybridItem # noqa: PLC0415
        from ..models.memory_understood import MemoryUnderstood # noqa: PLC0415
        degraded = self.degraded

        degraded_reason: None | str
        if isinstance(self.degraded_reason, DegradedReasonEnum):
            degraded_reason = self.degraded_reason.value
        else:
            degraded_reason = self.degraded_reason

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)



        read_as = self.read_as.value

        understood: dict[str, Any] | None | Unset
        if isinstance(self.understood, Unset):
            understood = UNSET
        elif isinstance(self.understood, MemoryUnderstood):
            understood = self.understood.to_dict()
        else:
            understood = self.understood


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "degraded": degraded,
            "degraded_reason": degraded_reason,
            "items": items,
            "read_as": read_as,
        })
        if understood is not UNSET:
            field_dict["understood"] = understood

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.hybrid_item import HybridItem # noqa: PLC0415
        from ..models.memory_understood import MemoryUnderstood # noqa: PLC0415
        d = dict(src_dict)
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

        degraded_reason = _parse_degraded_reason(d.pop("degraded_reason"))


        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            items_item = HybridItem.from_dict(items_item_data)



            items.append(items_item)


        read_as = ReadAsEnum(d.pop("read_as"))




        def _parse_understood(data: object) -> MemoryUnderstood | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                understood_type_0 = MemoryUnderstood.from_dict(data)



                return understood_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MemoryUnderstood | None | Unset, data)

        understood = _parse_understood(d.pop("understood", UNSET))


        hybrid_search_out = cls(
            degraded=degraded,
            degraded_reason=degraded_reason,
            items=items,
            read_as=read_as,
            understood=understood,
        )


        hybrid_search_out.additional_properties = d
        return hybrid_search_out

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
