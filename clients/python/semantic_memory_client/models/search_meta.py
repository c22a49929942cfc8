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
  from ..models.search_relevance import SearchRelevance
  from ..models.understood import Understood





T = TypeVar("T", bound="SearchMeta")



@_attrs_define
class SearchMeta:
    """ 
        Attributes:
            candidates (int): Rows passing the filters: counted on the small and exact paths, estimated from a page sample
                otherwise (candidatesEstimated).
            degraded (bool): True when the query could not be embedded in time: hard-filter order.
            degraded_reason (DegradedReasonEnum | None): Why the search is degraded (null when it is not).

                * `embedding_failed` - embedding_failed
                * `embedding_timeout` - embedding_timeout
                * `embedding_unavailable` - embedding_unavailable
            path (str):
            understood (Understood):
            candidates_estimated (bool | Unset): True when candidates is an estimate (a large filtered set, searched by
                index).
            reason (None | str | Unset): Why the results are empty when the query fits nothing (null otherwise).
            relevance (None | SearchRelevance | Unset):
     """

    candidates: int
    degraded: bool
    degraded_reason: DegradedReasonEnum | None
    path: str
    understood: Understood
    candidates_estimated: bool | Unset = UNSET
    reason: None | str | Unset = UNSET
    relevance: None | SearchRelevance | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.search_relevance import SearchRelevance # noqa: PLC0415
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

        candidates_estimated = self.candidates_estimated

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        relevance: dict[str, Any] | None | Unset
        if isinstance(self.relevance, Unset):
            relevance = UNSET
        elif isinstance(self.relevance, SearchRelevance):
            relevance = self.relevance.to_dict()
        else:
            relevance = self.relevance


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "candidates": candidates,
            "degraded": degraded,
            "degradedReason": degraded_reason,
            "path": path,
            "understood": understood,
        })
        if candidates_estimated is not UNSET:
            field_dict["candidatesEstimated"] = candidates_estimated
        if reason is not UNSET:
            field_dict["reason"] = reason
        if relevance is not UNSET:
            field_dict["relevance"] = relevance

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.search_relevance import SearchRelevance # noqa: PLC0415
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




        candidates_estimated = d.pop("candidatesEstimated", UNSET)

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


        def _parse_relevance(data: object) -> None | SearchRelevance | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                relevance_type_0 = SearchRelevance.from_dict(data)



                return relevance_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SearchRelevance | Unset, data)

        relevance = _parse_relevance(d.pop("relevance", UNSET))


        search_meta = cls(
            candidates=candidates,
            degraded=degraded,
            degraded_reason=degraded_reason,
            path=path,
            understood=understood,
            candidates_estimated=candidates_estimated,
            reason=reason,
            relevance=relevance,
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
