from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.search_provenance import SearchProvenance





T = TypeVar("T", bound="SearchResult")



@_attrs_define
class SearchResult:
    """ 
        Attributes:
            distance_km (float | None):
            id (int):
            location_name (str):
            match_reason (str):
            provenance (SearchProvenance):
            score (float | None):
            similarity (float | None):
            start_at (datetime.datetime):
            title (str):
            type_ (str):
     """

    distance_km: float | None
    id: int
    location_name: str
    match_reason: str
    provenance: SearchProvenance
    score: float | None
    similarity: float | None
    start_at: datetime.datetime
    title: str
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.search_provenance import SearchProvenance # noqa: PLC0415
        distance_km: float | None
        distance_km = self.distance_km

        id = self.id

        location_name = self.location_name

        match_reason = self.match_reason

        provenance = self.provenance.to_dict()

        score: float | None
        score = self.score

        similarity: float | None
        similarity = self.similarity

        start_at = self.start_at.isoformat()

        title = self.title

        type_ = self.type_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "distanceKm": distance_km,
            "id": id,
            "locationName": location_name,
            "matchReason": match_reason,
            "provenance": provenance,
            "score": score,
            "similarity": similarity,
            "startAt": start_at,
            "title": title,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.search_provenance import SearchProvenance # noqa: PLC0415
        d = dict(src_dict)
        def _parse_distance_km(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        distance_km = _parse_distance_km(d.pop("distanceKm"))


        id = d.pop("id")

        location_name = d.pop("locationName")

        match_reason = d.pop("matchReason")

        provenance = SearchProvenance.from_dict(d.pop("provenance"))




        def _parse_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        score = _parse_score(d.pop("score"))


        def _parse_similarity(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        similarity = _parse_similarity(d.pop("similarity"))


        start_at = datetime.datetime.fromisoformat(d.pop("startAt"))




        title = d.pop("title")

        type_ = d.pop("type")

        search_result = cls(
            distance_km=distance_km,
            id=id,
            location_name=location_name,
            match_reason=match_reason,
            provenance=provenance,
            score=score,
            similarity=similarity,
            start_at=start_at,
            title=title,
            type_=type_,
        )


        search_result.additional_properties = d
        return search_result

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
