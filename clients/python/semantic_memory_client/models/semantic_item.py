from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.message_kind_enum import MessageKindEnum
from ..models.role_enum import RoleEnum
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.provenance import Provenance





T = TypeVar("T", bound="SemanticItem")



@_attrs_define
class SemanticItem:
    """ 
        Attributes:
            chat_id (str):
            content (str):
            edited_at (None | str): When the content was last corrected (null: as written).
            embed_state (str):
            kind (MessageKindEnum): * `message` - message
                * `summary` - summary
            message_id (str):
            provenance (Provenance):
            role (RoleEnum): * `user` - user
                * `assistant` - assistant
                * `system` - system
            semantic_score (float | None): Null in a degraded answer (a lexical match).
            speaker (str): Who said it, by name (empty: not given).
            stale (bool): Summaries: a message it covers changed and an LLM wrote it (may be outdated).
            summarised (bool):
            ts (str):
            user_id (str):
            lexical_score (float | Unset): Only in a degraded answer: the lexical rank score.
     """

    chat_id: str
    content: str
    edited_at: None | str
    embed_state: str
    kind: MessageKindEnum
    message_id: str
    provenance: Provenance
    role: RoleEnum
    semantic_score: float | None
    speaker: str
    stale: bool
    summarised: bool
    ts: str
    user_id: str
    lexical_score: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.provenance import Provenance # noqa: PLC0415
        chat_id = self.chat_id

        content = self.content

        edited_at: None | str
        edited_at = self.edited_at

        embed_state = self.embed_state

        kind = self.kind.value

        message_id = self.message_id

        provenance = self.provenance.to_dict()

        role = self.role.value

        semantic_score: float | None
        semantic_score = self.semantic_score

        speaker = self.speaker

        stale = self.stale

        summarised = self.summarised

        ts = self.ts

        user_id = self.user_id

        lexical_score = self.lexical_score


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chat_id": chat_id,
            "content": content,
            "edited_at": edited_at,
            "embed_state": embed_state,
            "kind": kind,
            "message_id": message_id,
            "provenance": provenance,
            "role": role,
            "semantic_score": semantic_score,
            "speaker": speaker,
            "stale": stale,
            "summarised": summarised,
            "ts": ts,
            "user_id": user_id,
        })
        if lexical_score is not UNSET:
            field_dict["lexical_score"] = lexical_score

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.provenance import Provenance # noqa: PLC0415
        d = dict(src_dict)
        chat_id = d.pop("chat_id")

        content = d.pop("content")

        def _parse_edited_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        edited_at = _parse_edited_at(d.pop("edited_at"))


        embed_state = d.pop("embed_state")

        kind = MessageKindEnum(d.pop("kind"))




        message_id = d.pop("message_id")

        provenance = Provenance.from_dict(d.pop("provenance"))




        role = RoleEnum(d.pop("role"))




        def _parse_semantic_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        semantic_score = _parse_semantic_score(d.pop("semantic_score"))


        speaker = d.pop("speaker")

        stale = d.pop("stale")

        summarised = d.pop("summarised")

        ts = d.pop("ts")

        user_id = d.pop("user_id")

        lexical_score = d.pop("lexical_score", UNSET)

        semantic_item = cls(
            chat_id=chat_id,
            content=content,
            edited_at=edited_at,
            embed_state=embed_state,
            kind=kind,
            message_id=message_id,
            provenance=provenance,
            role=role,
            semantic_score=semantic_score,
            speaker=speaker,
            stale=stale,
            summarised=summarised,
            ts=ts,
            user_id=user_id,
            lexical_score=lexical_score,
        )


        semantic_item.additional_properties = d
        return semantic_item

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
