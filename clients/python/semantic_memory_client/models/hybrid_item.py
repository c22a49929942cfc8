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





T = TypeVar("T", bound="HybridItem")



@_attrs_define
class HybridItem:
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
            speaker (str): Who said it, by name (empty: not given).
            stale (bool): Summaries: a message it covers changed and an LLM wrote it (may be outdated).
            summarised (bool):
            ts (str):
            user_id (str):
            hybrid_score (float | Unset):
            lexical_rank (int | None | Unset):
            lexical_score (float | Unset):
            semantic_rank (int | None | Unset):
            semantic_score (float | None | Unset):
     """

    chat_id: str
    content: str
    edited_at: None | str
    embed_state: str
    kind: MessageKindEnum
    message_id: str
    provenance: Provenance
    role: RoleEnum
    speaker: str
    stale: bool
    summarised: bool
    ts: str
    user_id: str
    hybrid_score: float | Unset = UNSET
    lexical_rank: int | None | Unset = UNSET
    lexical_score: float | Unset = UNSET
    semantic_rank: int | None | Unset = UNSET
    semantic_score: float | None | Unset = UNSET
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

        speaker = self.speaker

        stale = self.stale

        summarised = self.summarised

        ts = self.ts

        user_id = self.user_id

        hybrid_score = self.hybrid_score

        lexical_rank: int | None | Unset
        if isinstance(self.lexical_rank, Unset):
            lexical_rank = UNSET
        else:
            lexical_rank = self.lexical_rank

        lexical_score = self.lexical_score

        semantic_rank: int | None | Unset
        if isinstance(self.semantic_rank, Unset):
            semantic_rank = UNSET
        else:
            semantic_rank = self.semantic_rank

        semantic_score: float | None | Unset
        if isinstance(self.semantic_score, Unset):
            semantic_score = UNSET
        else:
            semantic_score = self.semantic_score


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
            "speaker": speaker,
            "stale": stale,
            "summarised": summarised,
            "ts": ts,
            "user_id": user_id,
        })
        if hybrid_score is not UNSET:
            field_dict["hybrid_score"] = hybrid_score
        if lexical_rank is not UNSET:
            field_dict["lexical_rank"] = lexical_rank
        if lexical_score is not UNSET:
            field_dict["lexical_score"] = lexical_score
        if semantic_rank is not UNSET:
            field_dict["semantic_rank"] = semantic_rank
        if semantic_score is not UNSET:
            field_dict["semantic_score"] = semantic_score

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




        speaker = d.pop("speaker")

        stale = d.pop("stale")

        summarised = d.pop("summarised")

        ts = d.pop("ts")

        user_id = d.pop("user_id")

        hybrid_score = d.pop("hybrid_score", UNSET)

        def _parse_lexical_rank(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        lexical_rank = _parse_lexical_rank(d.pop("lexical_rank", UNSET))


        lexical_score = d.pop("lexical_score", UNSET)

        def _parse_semantic_rank(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        semantic_rank = _parse_semantic_rank(d.pop("semantic_rank", UNSET))


        def _parse_semantic_score(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        semantic_score = _parse_semantic_score(d.pop("semantic_score", UNSET))


        hybrid_item = cls(
            chat_id=chat_id,
            content=content,
            edited_at=edited_at,
            embed_state=embed_state,
            kind=kind,
            message_id=message_id,
            provenance=provenance,
            role=role,
            speaker=speaker,
            stale=stale,
            summarised=summarised,
            ts=ts,
            user_id=user_id,
            hybrid_score=hybrid_score,
            lexical_rank=lexical_rank,
            lexical_score=lexical_score,
            semantic_rank=semantic_rank,
            semantic_score=semantic_score,
        )


        hybrid_item.additional_properties = d
        return hybrid_item

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
