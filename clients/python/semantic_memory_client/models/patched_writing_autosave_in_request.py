from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.writing_autosave_block_request import WritingAutosaveBlockRequest





T = TypeVar("T", bound="PatchedWritingAutosaveInRequest")



@_attrs_define
class PatchedWritingAutosaveInRequest:
    """ 
        Attributes:
            blocks (list[WritingAutosaveBlockRequest] | Unset):
     """

    blocks: list[WritingAutosaveBlockRequest] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.writing_autosave_block_request import WritingAutosaveBlockRequest # noqa: PLC0415
        blocks: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.blocks, Unset):
            blocks = []
            for blocks_item_data in self.blocks:
                blocks_item = blocks_item_data.to_dict()
                blocks.append(blocks_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if blocks is not UNSET:
            field_dict["blocks"] = blocks

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.writing_autosave_block_request import WritingAutosaveBlockRequest # noqa: PLC0415
        d = dict(src_dict)
        _blocks = d.pop("blocks", UNSET)
        blocks: list[WritingAutosaveBlockRequest] | Unset = UNSET
        if _blocks is not UNSET:
            blocks = []
            for blocks_item_data in _blocks:
                blocks_item = WritingAutosaveBlockRequest.from_dict(blocks_item_data)



                blocks.append(blocks_item)


        patched_writing_autosave_in_request = cls(
            blocks=blocks,
        )

        return patched_writing_autosave_in_request

