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
            bare_gate (float | None): The gate a query must clear when none of its words or cues appears in the candidates
                (null: the gate).
            calibrated (bool): False: no fitted parameters for the active model (relative rules only).
            dropped (int): Hits the cut removed.
            evidence (bool): Whether a word or a kind/mood cue of the query appears in the candidates.
            gate (float):
            noise (bool): The query is keyboard noise (repeated or neighbouring keys): off-topic.
            off_topic (bool):
            ratio (float | None):
            top_margin (float | None):
     """

    bare_gate: float | None
    calibrated: bool
    dropped: int
    evidence: bool
    gate: float
    noise: bool
    off_topic: bool
    ratio: float | None
    top_margin: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        bare_gate: float | None
        bare_gate = self.bare_gate

        calibrated = self.calibrated

        dropped = self.dropped

        evidence = self.evidence

        gate = self.gate

        noise = self.noise

        off_topic = self.off_topic

        ratio: float | None
        ratio = self.ratio

        top_margin: float | None
        top_margin = self.top_margin


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "bareGate": bare_gate,
            "calibrated": calibrated,
            "dropped": dropped,
            "evidence": evidence,
            "gate": gate,
            "noise": noise,
            "offTopic": off_topic,
            "ratio": ratio,
            "topMargin": top_margin,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_bare_gate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        bare_gate = _parse_bare_gate(d.pop("bareGate"))


        calibrated = d.pop("calibrated")

        dropped = d.pop("dropped")

        evidence = d.pop("evidence")

        gate = d.pop("gate")

        noise = d.pop("noise")

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
            bare_gate=bare_gate,
            calibrated=calibrated,
            dropped=dropped,
            evidence=evidence,
            gate=gate,
            noise=noise,
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
