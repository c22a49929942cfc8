from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="SearchRelevance")



@_attrs_define
class SearchRelevance:
    """ The relevance cut's decision for a semantic search (null on other paths).

        Attributes:
            calibrated (bool): False: no fitted parameters for the active model (relative rules only).
            dropped (int): Hits the cut removed.
            gate (float):
            off_topic (bool):
            ratio (float | None):
            top_margin (float | None):
     """

    calibrated: bool
    dropped: int
    gate: float
    off_topic: bool
    ratio: float | None
    top_margin: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        calibrated = self.calibrated

        dropped = self.dropped

        gate = self.gate

        off_topic = self.off_topic

        ratio: float | None
        ratio = self.ratio

        top_margin: float | None
        top_margin = self.top_margin


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "calibrated": calibrated,
            "dropped": dropped,
            "gate": gate,
            "offTopic": off_topic,
            "ratio": ratio,
            "topMargin": top_margin,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        calibrated = d.pop("calibrated")

        dropped = d.pop("dropped")

        gate = d.pop("gate")

        off_topic = d.pop("offTopic")

        def _parse_ratio(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        ratio = _parse_ratio(d.pop("ratio"))


        def _parse_top_margin(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        top_margin = _parse_top_margin(d.pop("topMargin"))


        search_relevance = cls(
            calibrated=calibrated,
            dropped=dropped,
            gate=gate,
            off_topic=off_topic,
            ratio=ratio,
            top_margin=top_margin,
        )


        search_relevance.additional_properties = d
        return search_relevance

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
