from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.engine_enum import EngineEnum
from ..models.intent_enum import IntentEnum
from typing import cast

if TYPE_CHECKING:
  from ..models.reply_item import ReplyItem
  from ..models.stated_preference import StatedPreference
  from ..models.tool_call import ToolCall





T = TypeVar("T", bound="StreamDone")



@_attrs_define
class StreamDone:
    """ 
        Attributes:
            chat_id (str):
            elapsed_ms (float):
            engine (EngineEnum): * `offline` - offline
                * `llm` - llm
            intent (IntentEnum): * `CHAT` - CHAT
                * `EXPLORE` - EXPLORE
                * `CREATE` - CREATE
                * `PARTNER` - PARTNER
                * `MANAGE` - MANAGE
            items (list[ReplyItem]): What the reply recommended or said, to rate with POST /api/feedback/ (target_type,
                target_id): the activities the tools returned, then the reply message.
            mode (str): The mode that answered (same names as the intents).
            preferences (list[StatedPreference]): Preferences the message stated (saved to memory).
            reply (str):
            sources (list[str]): Where each context chunk came from.
            tool_calls (list[ToolCall]):
     """

    chat_id: str
    elapsed_ms: float
    engine: EngineEnum
    intent: IntentEnum
    items: list[ReplyItem]
    mode: str
    preferences: list[StatedPreference]
    reply: str
    sources: list[str]
    tool_calls: list[ToolCall]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.reply_item import ReplyItem # noqa: PLC0415
        from ..models.stated_preference import StatedPreference # noqa: PLC0415
        from ..models.tool_call import ToolCall # noqa: PLC0415
        chat_id = self.chat_id

        elapsed_ms = self.elapsed_ms

        engine = self.engine.value

        intent = self.intent.value

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)



        mode = self.mode

        preferences = []
        for preferences_item_data in self.preferences:
            preferences_item = preferences_item_data.to_dict()
            preferences.append(preferences_item)



        reply = self.reply

        sources = self.sources



        tool_calls = []
        for tool_calls_item_data in self.tool_calls:
            tool_calls_item = tool_calls_item_data.to_dict()
            tool_calls.append(tool_calls_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chat_id": chat_id,
            "elapsed_ms": elapsed_ms,
            "engine": engine,
            "intent": intent,
            "items": items,
            "mode": mode,
            "preferences": preferences,
            "reply": reply,
            "sources": sources,
            "tool_calls": tool_calls,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.reply_item import ReplyItem # noqa: PLC0415
        from ..models.stated_preference import StatedPreference # noqa: PLC0415
        from ..models.tool_call import ToolCall # noqa: PLC0415
        d = dict(src_dict)
        chat_id = d.pop("chat_id")

        elapsed_ms = d.pop("elapsed_ms")

        engine = EngineEnum(d.pop("engine"))




        intent = IntentEnum(d.pop("intent"))




        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            items_item = ReplyItem.from_dict(items_item_data)



            items.append(items_item)


        mode = d.pop("mode")

        preferences = []
        _preferences = d.pop("preferences")
        for preferences_item_data in (_preferences):
            preferences_item = StatedPreference.from_dict(preferences_item_data)



            preferences.append(preferences_item)


        reply = d.pop("reply")

        sources = cast(list[str], d.pop("sources"))


        tool_calls = []
        _tool_calls = d.pop("tool_calls")
        for tool_calls_item_data in (_tool_calls):
            tool_calls_item = ToolCall.from_dict(tool_calls_item_data)



            tool_calls.append(tool_calls_item)


        stream_done = cls(
            chat_id=chat_id,
            elapsed_ms=elapsed_ms,
            engine=engine,
            intent=intent,
            items=items,
            mode=mode,
            preferences=preferences,
            reply=reply,
            sources=sources,
            tool_calls=tool_calls,
        )


        stream_done.additional_properties = d
        return stream_done

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
