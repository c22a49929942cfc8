from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.retrieved_by_enum import RetrievedByEnum
from typing import cast

if TYPE_CHECKING:
  from ..models.provenance_scores import ProvenanceScores
  from ..models.provenance_source import ProvenanceSource





T = TypeVar("T", bound="Provenance")



@_attrs_define
class Provenance:
    """ 
        Attributes:
            retrieved_by (RetrievedByEnum): * `lexical` - lexical
                * `semantic` - semantic
                * `hybrid` - hybrid
                * `lexical_fallback` - lexical_fallback
                * `range` - range
            scores (ProvenanceScores): That pass's scores.
            source (ProvenanceSource):
     """

    retrieved_by: RetrievedByEnum
    scores: ProvenanceScores
    source: ProvenanceSource
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.provenance_scores import ProvenanceScores # noqa: PLC0415
        from ..models.provenance_source import ProvenanceSource # noqa: PLC0415
        retrieved_by = self.retrieved_by.value

        scores = self.scores.to_dict()

        source = self.source.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "retrieved_by": retrieved_by,
            "scores": scores,
            "source": source,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.provenance_scores import ProvenanceScores # noqa: PLC0415
        from ..models.provenance_source import ProvenanceSource # noqa: PLC0415
        d = dict(src_dict)
        retrieved_by = RetrievedByEnum(d.pop("retrieved_by"))




        scores = ProvenanceScores.from_dict(d.pop("scores"))




        source = ProvenanceSource.from_dict(d.pop("source"))




        provenance = cls(
            retrieved_by=retrieved_by,
            scores=scores,
            source=source,
        )


        provenance.additional_properties = d
        return provenance

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
