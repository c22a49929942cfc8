from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.degraded_reason_enum import DegradedReasonEnum
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.writing_search_result import WritingSearchResult





T = TypeVar("T", bound="WritingSearchOut")



@_attrs_define
class WritingSearchOut:
    """ 
        Attributes:
            degraded (bool): True when the query could not be embedded within the time budget: the children were found by
                full text.
            degraded_reason (DegradedReasonEnum | None): Why (null when not degraded).

                * `embedding_failed` - embedding_failed
                * `embedding_timeout` - embedding_timeout
                * `embedding_unavailable` - embedding_unavailable
            median_parent_size (float | None):
            results (list[WritingSearchResult]):
            normalised (bool | Unset):
     """

    degraded: bool
    degraded_reason: DegradedReasonEnum | None
    median_parent_size: float | None
    results: list[WritingSearchResult]
    normalised: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.writing_search_result import WritingSearchResult # noqa: PLC0415
        degraded = self.degraded

        degraded_reason: None | str
        if isinstance(self.degraded_reason, DegradedReasonEnum):
            degraded_reason = self.degraded_reason.value
        else:
            degraded_reason = self.degraded_reason

        median_parent_size: float | None
        median_parent_size = self.median_parent_size

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)



        normalised = self.normalised


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "degraded": degraded,
            "degraded_reason": degraded_reason,
            "median_parent_size": median_parent_size,
            "results": results,
        })
        if normalised is not UNSET:
            field_dict["normalised"] = normalised

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.writing_search_result import WritingSearchResult # noqa: PLC0415
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


        def _parse_median_parent_size(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        median_parent_size = _parse_median_parent_size(d.pop("median_parent_size"))


        results = []
        _results = d.pop("results")
        for results_item_data in (_results):
            results_item = WritingSearchResult.from_dict(results_item_data)



            results.append(results_item)


        normalised = d.pop("normalised", UNSET)

        writing_search_out = cls(
            degraded=degraded,
            degraded_reason=degraded_reason,
            median_parent_size=median_parent_size,
            results=results,
            normalised=normalised,
        )


        writing_search_out.additional_properties = d
        return writing_search_out

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
