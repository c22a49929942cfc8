from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.search_provenance_scores import SearchProvenanceScores
  from ..models.search_provenance_source import SearchProvenanceSource





T = TypeVar("T", bound="SearchProvenance")



@_attrs_define
class SearchProvenance:
    """ 
        Attributes:
            hybrid (bool): Fused with the full-text rank.
            personalised (None | str): How the user's history or preferences boosted it.
            retrieved_by (str): The path that found it: semantic (dense, after the relevance cut), hard_filter_small (all
                that pass the filters), hard_filter_sorted, hard_filter_degraded (the query could not be embedded in time).
            scores (SearchProvenanceScores): similarity (to the query), boost (personal; negative for a listing naming what
                the user said they cannot eat or drink), score (the final order).
            source (SearchProvenanceSource):
     """

    hybrid: bool
    personalised: None | str
    retrieved_by: str
    scores: SearchProvenanceScores
    source: SearchProvenanceSource
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.search_provenance_scores import SearchProvenanceScores # noqa: PLC0415
        from ..models.search_provenance_source import SearchProvenanceSource # noqa: PLC0415
        hybrid = self.hybrid

        personalised: None | str
        personalised = self.personalised

        retrieved_by = self.retrieved_by

        scores = self.scores.to_dict()

        source = self.source.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "hybrid": hybrid,
            "personalised": personalised,
            "retrievedBy": retrieved_by,
            "scores": scores,
            "source": source,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.search_provenance_scores import SearchProvenanceScores # noqa: PLC0415
        from ..models.search_provenance_source import SearchProvenanceSource # noqa: PLC0415
        d = dict(src_dict)
        hybrid = d.pop("hybrid")

        def _parse_personalised(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        personalised = _parse_personalised(d.pop("personalised"))


        retrieved_by = d.pop("retrievedBy")

        scores = SearchProvenanceScores.from_dict(d.pop("scores"))




        source = SearchProvenanceSource.from_dict(d.pop("source"))




        search_provenance = cls(
            hybrid=hybrid,
            personalised=personalised,
            retrieved_by=retrieved_by,
            scores=scores,
            source=source,
        )


        search_provenance.additional_properties = d
        return search_provenance

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
