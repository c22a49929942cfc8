from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.intent_enum import IntentEnum






T = TypeVar("T", bound="StreamIntent")



@_attrs_define
class StreamIntent:
    """ 
        Attributes:
            chat_id (str):
            confidence (float):
            intent (IntentEnum): * `CHAT` - CHAT
                * `EXPLORE` - EXPLORE
                * `CREATE` - CREATE
                * `PARTNER` - PARTNER
                * `MANAGE` - MANAGE
            mode (str):
            source (str): rules, embedding, fused, context, llm or default.
     """

    chat_id: str
    confidence: float
    intent: IntentEnum
    mode: str
    source: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        chat_id = self.chat_id

        confidence = self.confidence

        intent = self.intent.value

        mode = self.mode

        source = self.source


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chat_id": chat_id,
            "confidence": confidence,
            "intent": intent,
            "mode": mode,
            "source": source,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chat_id = d.pop("chat_id")

        confidence = d.pop("confidence")

        intent = IntentEnum(d.pop("intent"))




        mode = d.pop("mode")

        source = d.pop("source")

        stream_intent = cls(
            chat_id=chat_id,
            confidence=confidence,
            intent=intent,
            mode=mode,
            source=source,
        )


        stream_intent.additional_properties = d
        return stream_intent

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
