from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.memory_search_filter import MemorySearchFilter





T = TypeVar("T", bound="HybridSearchInRequest")



@_attrs_define
class HybridSearchInRequest:
    """ The request fields of a search that may read a time phrase in its query.

        Attributes:
            query_text (str):
            filter_ (MemorySearchFilter | None | Unset):
            min_score (float | Unset):
            now (datetime.datetime | Unset): The instant relative phrases count back from (default: the current time).
            query_embedding (list[float] | Unset):
            return_fields (list[str] | Unset):
            time_zone (str | Unset): IANA time zone the phrase is read in (default: the service's TIME_ZONE).
            top_k (int | Unset):  Default: 20.
            understand (bool | Unset): Read a past time phrase in query_text (上周, 三月, 昨天, last May, yesterday) in time_zone:
                filter by its window, or rank by closeness to it when the filter would leave nothing; the response's
                `understood` says which (docs/memory.md). false: the phrase is searched as words. Default: True.
            user_id (str | Unset): Whose memory; default: the caller's (a service token names the user).
     """

    query_text: str
    filter_: MemorySearchFilter | None | Unset = UNSET
    min_score: float | Unset = UNSET
    now: datetime.datetime | Unset = UNSET
    query_embedding: list[float] | Unset = UNSET
    return_fields: list[str] | Unset = UNSET
    time_zone: str | Unset = UNSET
    top_k: int | Unset = 20
    understand: bool | Unset = True
    user_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.memory_search_filter import MemorySearchFilter # noqa: PLC0415
        query_text = self.query_text

        filter_: dict[str, Any] | None | Unset
        if isinstance(self.filter_, Unset):
            filter_ = UNSET
        elif isinstance(self.filter_, MemorySearchFilter):
            filter_ = self.filter_.to_dict()
        else:
            filter_ = self.filter_

        min_score = self.min_score

        now: str | Unset = UNSET
        if not isinstance(self.now, Unset):
            now = self.now.isoformat()

        query_embedding: list[float] | Unset = UNSET
        if not isinstance(self.query_embedding, Unset):
            query_embedding = self.query_embedding



        return_fields: list[str] | Unset = UNSET
        if not isinstance(self.return_fields, Unset):
            return_fields = self.return_fields



        time_zone = self.time_zone

        top_k = self.top_k

        understand = self.understand

        user_id = self.user_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "query_text": query_text,
        })
        if filter_ is not UNSET:
            field_dict["filter"] = filter_
        if min_score is not UNSET:
            field_dict["min_score"] = min_score
        if now is not UNSET:
            field_dict["now"] = now
        if query_embedding is not UNSET:
            field_dict["query_embedding"] = query_embedding
        if return_fields is not UNSET:
            field_dict["return_fields"] = return_fields
        if time_zone is not UNSET:
            field_dict["time_zone"] = time_zone
        if top_k is not UNSET:
            field_dict["top_k"] = top_k
        if understand is not UNSET:
            field_dict["understand"] = understand
        if user_id is not UNSET:
            field_dict["user_id"] = user_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory_search_filter import MemorySearchFilter # noqa: PLC0415
        d = dict(src_dict)
        query_text = d.pop("query_text")

        def _parse_filter_(data: object) -> MemorySearchFilter | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                filter_type_0 = MemorySearchFilter.from_dict(data)



                return filter_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MemorySearchFilter | None | Unset, data)

        filter_ = _parse_filter_(d.pop("filter", UNSET))


        min_score = d.pop("min_score", UNSET)

        _now = d.pop("now", UNSET)
        now: datetime.datetime | Unset
        if isinstance(_now,  Unset):
            now = UNSET
        else:
            now = datetime.datetime.fromisoformat(_now)




        query_embedding = cast(list[float], d.pop("query_embedding", UNSET))


        return_fields = cast(list[str], d.pop("return_fields", UNSET))


        time_zone = d.pop("time_zone", UNSET)

        top_k = d.pop("top_k", UNSET)

        understand = d.pop("understand", UNSET)

        user_id = d.pop("user_id", UNSET)

        hybrid_search_in_request = cls(
            query_text=query_text,
            filter_=filter_,
            min_score=min_score,
            now=now,
            query_embedding=query_embedding,
            return_fields=return_fields,
            time_zone=time_zone,
            top_k=top_k,
            understand=understand,
            user_id=user_id,
        )

        return hybrid_search_in_request

